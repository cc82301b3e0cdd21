/**
 * Listing, retrieving and deleting resources, their validators and large resources on the PostgreSQL
 * store: the file store's suites, whose exact answers the PostgreSQL store must give too.
 */
import { inFullParity } from '../helpers/parity';
import { onPostgres } from '../helpers/test-store';

onPostgres('listing', () => require('../http/listing.test'));
onPostgres('retrieving', () => require('../http/retrieve.test'));
onPostgres('deleting', () => require('../http/delete.test'));
inFullParity('conditional requests on PostgreSQL', () => onPostgres('conditional requests', () => require('../operations/preconditions.test')));
inFullParity('large resources on PostgreSQL', () => onPostgres('large resources', () => require('../http/large-resources.test')));
