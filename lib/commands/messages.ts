/**
 * The command layer's catalog: errors raised while parsing or checking commands (spec §12, §15).
 * Errors are thrown by name with `raise(COMMAND_ERRORS, 'SYNTAX_X', …)`; tests assert on the
 * entry name (`code`), not only on the wording. Help texts are in the command table (defs/).
 */
import { entry, raise, type XmldbError } from '../xmldb-error';

export const COMMAND_ERRORS = {
  /** An unknown command in XML syntax: `Unknown command: <foo/>.` */
  UNKNOWN_CMD_X: entry(500, 'Unknown command: %.'),
  /** An unknown keyword with no similar command. */
  UNKNOWN_TRY_X: entry(500, "Unknown command: %. Try 'help'."),
  /** An unknown keyword close to a known one (the keyword is upper-cased). */
  UNKNOWN_SIMILAR_X_X: entry(500, "Unknown command: %. Did you mean '%'?"),
  /** A known command with missing, extra or invalid arguments; the slot takes its help text. */
  SYNTAX_X: entry(500, 'Syntax: %'),
  /** The `command` operation received no command, or more than one. */
  SINGLE_CMD: entry(500, 'Single command expected.'),
  /** An XML script that is not well-formed: the parser's message. */
  XML_SCRIPT_X: entry(500, 'Command script is not well-formed: %'),
  /** GRANT with a permission that does not exist (XML syntax: the attribute is free text). */
  PERM_UNKNOWN_X: entry(500, '% permission is unknown.'),

  // Raised by the executor; declared here so the layer has one catalog.
  /** A command that needs an opened database ran without one. */
  NO_DB_OPENED: entry(500, 'No database opened.'),
  /** A command that parses but is not offered by this server (JOBS, REPO, TEST, …). */
  NOT_SUPPORTED_X: entry(500, 'Command is not supported: %.'),
} as const;

export type CommandErrorKey = keyof typeof COMMAND_ERRORS;

export function commandError(key: CommandErrorKey, ...args: unknown[]): XmldbError {
  return raise(COMMAND_ERRORS, key, ...args);
}
