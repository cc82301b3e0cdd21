/** Queries (spec §6) on the PostgreSQL store: the file store's suite, with the same exact answers. */
import { onPostgres } from '../helpers/test-store';

onPostgres('queries', () => require('../http/query.test'));
