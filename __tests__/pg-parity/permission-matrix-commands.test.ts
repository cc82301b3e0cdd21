/**
 * The permission matrix of REST and the commands (security/permission-matrix-commands.test.ts) on
 * the PostgreSQL store: the same answers as on the file store.
 */
import { onPostgres } from '../helpers/test-store';

onPostgres('permission matrix of REST and commands', () => require('../security/permission-matrix-commands.test'));
