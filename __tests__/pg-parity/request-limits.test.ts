/** Resource paths at and past the limits (and the URL limits) on the PostgreSQL store: the file store's suite, with the same exact answers. */
import { inFullParity } from '../helpers/parity';
import { onPostgres } from '../helpers/test-store';

inFullParity('request size limits on PostgreSQL', () => onPostgres('request size limits', () => require('../http/request-limits.test')));
