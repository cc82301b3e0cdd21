/** Errors of user management (messages after BaseX's). */
import { entry } from '../xmldb-error';

export const USER_ERRORS = {
  USER_NOT_FOUND_X: entry(404, "User '%' does not exist."),
  USER_EXISTS_X: entry(400, "User '%' already exists."),
  INVALID_USER_NAME_X: entry(400, "Invalid user name: '%'."),
  INVALID_PERMISSION_X: entry(400, "Invalid permission: '%'."),
  INVALID_PASSWORD: entry(400, 'A password may not contain the character U+0000.'),
  ADMIN_STATIC: entry(400, "User 'admin' cannot be dropped or renamed."),
  USERS_FILE_INVALID_X: entry(500, 'The users file is invalid: %'),
} as const;

/** A refused permission (spec §12: 403, our decision). */
export const PERMISSION_ERRORS = {
  PERMISSION_NEEDED_X: entry(403, '% permission needed.'),
} as const;
