import { PERMISSION_ERRORS, USER_ERRORS } from '../../lib/users/user-errors';
import { describeCatalog } from '../helpers/catalog';

describeCatalog('users', USER_ERRORS, 'users/user-errors.ts', ['users']);
describeCatalog('permissions', PERMISSION_ERRORS, 'users/user-errors.ts', ['users']);
