/** PUT (spec §8) on the PostgreSQL store: the file store's suite, with the same exact answers. */
import { onPostgres } from '../helpers/test-store';

onPostgres('storing', () => require('../http/store.test'));
