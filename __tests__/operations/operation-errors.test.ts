import { RUN_ERRORS } from '../../lib/operations/operation-errors';
import { describeCatalog } from '../helpers/catalog';

describeCatalog('operations', RUN_ERRORS, 'operations/operation-errors.ts', ['operations']);
