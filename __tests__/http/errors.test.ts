import { HTTP_ERRORS } from '../../lib/http/status';
import { RUN_ERRORS } from '../../lib/operations/errors';
import { PERMISSION_ERRORS, USER_ERRORS } from '../../lib/users/errors';
import { describeCatalog } from '../helpers/catalog';

describeCatalog('http', HTTP_ERRORS, 'http/status.ts', ['http']);
describeCatalog('operations', RUN_ERRORS, 'operations/errors.ts', ['operations']);
describeCatalog('users', USER_ERRORS, 'users/errors.ts', ['users']);
describeCatalog('permissions', PERMISSION_ERRORS, 'users/errors.ts', ['users']);
