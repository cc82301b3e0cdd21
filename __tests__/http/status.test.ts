import { HTTP_ERRORS } from '../../lib/http/status';
import { describeCatalog } from '../helpers/catalog';

describeCatalog('http', HTTP_ERRORS, 'http/status.ts', ['http']);
