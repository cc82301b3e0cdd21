/** The web console's router on the PostgreSQL store: its saved queries and history live in PostgreSQL. */
import { onPostgres } from '../helpers/test-store';

onPostgres('web console', () => require('../console/router.test'));
