/**
 * Errors raised while executing commands, beyond those `commands/messages.ts` declares
 * (NO_DB_OPENED, NOT_SUPPORTED_X) and the refused permission (users/user-errors.ts
 * PERMISSION_NEEDED_X). Code throws an entry by name: `execError('UNKNOWN_OPTION_X', name)`.
 *
 * Statuses: a failing command answers 500 (spec §6.3, §12); `toCommandFailure` turns the 4xx
 * errors of lower layers (store, users, conversions) into 500 as well, keeping their code and
 * message. Only permission refusals (403) and a failing OPEN (404) keep their status.
 */
import { entry, raise, XmldbError, type ErrorEntry } from '../../xmldb-error';

export const EXEC_ERRORS = {
  /** SET or SHOW OPTIONS with a name that is no option. */
  UNKNOWN_OPTION_X: entry(500, "Unknown option '%'."),
  /** An index this server does not build (store/index-kinds.ts), switched on or asked about. */
  NOT_SUPPORTED_INDEX_X: entry(500, 'Not supported: %.'),
  /** SET with a value the option cannot take. */
  INVALID_OPTION_VALUE_XX: entry(500, "Invalid value for option '%': '%'."),
  /** Input names a server file or folder, but the router does not allow file access. */
  FILE_ACCESS_X: entry(500, 'Access to server files is not allowed: %.'),
  /** A server file or folder given as input (or a RUN file) does not exist. */
  FILE_NOT_FOUND_X: entry(500, 'Resource "%" not found.'),
  /** PUT (and other single-resource commands) given a folder as input. */
  SINGLE_INPUT_X: entry(500, 'A single document is expected as input: %.'),
  /** A command that needs a resource path was given none (BINARY PUT without TO). */
  PATH_MISSING_X: entry(500, 'A target path is needed for %.'),
  /** GET of a resource that is not an XML document, BINARY GET of one that is not binary. */
  WRONG_TYPE_XX: entry(500, "Resource '%' is not of type %."),
  /** XQUERY or FIND without a query engine in the environment. */
  NO_QUERY_ENGINE: entry(500, 'Queries cannot be evaluated here.'),
  /** RUN of a query file without a runner in the environment. */
  NO_FILE_RUNNER: entry(500, 'Query files cannot be run here.'),
  /** EXECUTE/RUN nested deeper than the limit (a script that runs itself). */
  SCRIPT_DEPTH_X: entry(500, 'Scripts are nested more than % levels deep.'),
  /** CREATE USER, ALTER PASSWORD, PASSWORD without a password. */
  PASSWORD_MISSING: entry(500, 'A password is required.'),
  /** GRANT to the admin user. */
  ADMIN_PERMISSION: entry(500, "The permission of user 'admin' cannot be changed."),
} as const satisfies Record<string, ErrorEntry>;

export type ExecErrorKey = keyof typeof EXEC_ERRORS;

export function execError(key: ExecErrorKey, ...args: unknown[]): XmldbError {
  return raise(EXEC_ERRORS, key, ...args);
}

/**
 * A lower layer's client error as the failure of a command: 500, same message and code. Permission
 * refusals (403) and server errors (5xx) pass unchanged, as does anything that is no XmldbError.
 */
export function toCommandFailure(error: XmldbError): XmldbError;
export function toCommandFailure(error: unknown): unknown;
export function toCommandFailure(error: unknown): unknown {
  if (!(error instanceof XmldbError)) return error;
  if (error.status === 403 || error.status >= 500) return error;
  return new XmldbError(500, error.message, error.code);
}
