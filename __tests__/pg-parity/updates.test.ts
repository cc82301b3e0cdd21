/** Updating queries (spec §16) on the PostgreSQL store: the file store's suite, with the same exact answers. */
import { onPostgres } from '../helpers/test-store';

onPostgres('updates', () => require('../http/update.test'));
