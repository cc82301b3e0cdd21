import { STORE_ERRORS } from '../../lib/store/store-errors';
import { describeCatalog } from '../helpers/catalog';

describeCatalog('store', STORE_ERRORS, 'store/store-errors.ts', ['store', 'store/file', 'store/cache', 'store/postgres']);
