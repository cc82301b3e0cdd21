/** Queries (spec §6) on the PostgreSQL store: the file store's suite, with the same exact answers. */
import { inFullParity } from '../helpers/parity';
import { onPostgres } from '../helpers/test-store';

// `npm test` runs the updating queries on PostgreSQL (updates.test.ts); these in the full run
inFullParity('queries on PostgreSQL', () => onPostgres('queries', () => require('../http/query.test')));
