/** The full-text index, ft:search and ft:tokens on the PostgreSQL store: the file store's suite, with the same exact answers. */
import { inFullParity } from '../helpers/parity';
import { onPostgres } from '../helpers/test-store';

// `npm test` checks the PostgreSQL store's full-text index by itself (store/postgres/pg-fulltext.test.ts); this in the full run
inFullParity('full-text index on PostgreSQL', () => onPostgres('full-text index', () => require('../xquery/accelerators/fulltext-index/fulltext-index-rest.test')));
