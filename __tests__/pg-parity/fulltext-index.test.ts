/** The full-text index, ft:search and ft:tokens on the PostgreSQL store: the file store's suite, with the same exact answers. */
import { onPostgres } from '../helpers/test-store';

onPostgres('full-text index', () => require('../xquery/accelerators/fulltext-index/fulltext-index-rest.test'));
