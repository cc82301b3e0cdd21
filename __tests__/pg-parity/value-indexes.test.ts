/** The value indexes and the db: functions that read them on the PostgreSQL store: the file store's suite, with the same exact answers. */
import { inFullParity } from '../helpers/parity';
import { onPostgres } from '../helpers/test-store';

inFullParity('value indexes on PostgreSQL', () => onPostgres('value indexes', () => require('../xquery/accelerators/value-index/value-indexes-rest.test')));
