/**
 * The permission matrix of the query paths (security/permission-matrix-queries.test.ts) on the
 * PostgreSQL store: the same answers as on the file store.
 */
import { onPostgres } from '../helpers/test-store';

onPostgres('permission matrix of queries', () => require('../security/permission-matrix-queries.test'));
