/**
 * The command layer's catalog: errors raised while parsing or checking commands (spec §12, §15),
 * and the texts command output needs (HELP). Errors are thrown by name with `raise(COMMAND_ERRORS,
 * 'SYNTAX_X', …)`; tests assert on the entry name (`code`), not only on the wording.
 */
import { entry, raise, type XmldbError } from '../errors';

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
  /** The user lacks the command's permission (403: spec §12, decision). */
  PERM_REQUIRED_X: entry(403, '% permission needed.'),
  /** A command that parses but is not offered by this server (JOBS, REPO, TEST, …). */
  NOT_SUPPORTED_X: entry(500, 'Command is not supported: %.'),
} as const;

export type CommandErrorKey = keyof typeof COMMAND_ERRORS;

export function commandError(key: CommandErrorKey, ...args: unknown[]): XmldbError {
  return raise(COMMAND_ERRORS, key, ...args);
}

/** Help for one top-level keyword: its syntax, a one-line summary, and details. */
export interface CommandHelp {
  readonly syntax: string;
  readonly summary: string;
  readonly details: readonly string[];
}

/**
 * Help texts, one per top-level keyword, in the order HELP lists them. Written for this project;
 * the syntax lines follow spec §15.1 (`[x]` required, `(x)` optional).
 */
export const COMMAND_HELP: Readonly<Record<string, CommandHelp>> = {
  ADD: {
    syntax: '(TO [path]) [input]',
    summary: 'Add a resource to the opened database.',
    details: ['Adds [input] under [path]; a resource already at that path is kept as well.'],
  },
  ALTER: {
    syntax: '[BACKUP|DB|PASSWORD|USER] [...]',
    summary: 'Rename a database, backup or user, or change a password.',
    details: [
      'BACKUP [name] [newname]: rename backups.',
      'DB [name] [newname]: rename a database.',
      'PASSWORD [name] ([password]): change the password of a user.',
      'USER [name] [newname]: rename a user.',
    ],
  },
  BINARY: {
    syntax: '[GET|PUT] [...]',
    summary: 'Read or write a binary resource of the opened database.',
    details: ['GET [path]: return the bytes at [path].', 'PUT (TO [path]) [input]: store [input] as bytes.'],
  },
  CHECK: {
    syntax: '[input]',
    summary: 'Open a database, or create it from [input].',
    details: [],
  },
  CLOSE: {
    syntax: '',
    summary: 'Close the opened database.',
    details: [],
  },
  COPY: {
    syntax: '[name] [newname]',
    summary: 'Copy a database.',
    details: ['An existing database [newname] is replaced.'],
  },
  CREATE: {
    syntax: '[BACKUP|DB|INDEX|USER] [...]',
    summary: 'Create a backup, database, index or user.',
    details: [
      'BACKUP ([name]): back up the databases matching [name].',
      'DB [name] ([input]): create a database, optionally from [input].',
      'INDEX [TEXT|ATTRIBUTE|TOKEN|FULLTEXT]: create an index of the opened database.',
      'USER [name] ([password]): create a user.',
    ],
  },
  DELETE: {
    syntax: '[path]',
    summary: 'Delete resources from the opened database.',
    details: ['Deletes the resource at [path], or every resource below the directory [path].'],
  },
  DIR: {
    syntax: '([path])',
    summary: 'List directories and resources of the opened database.',
    details: [],
  },
  DROP: {
    syntax: '[BACKUP|DB|INDEX|USER] [...]',
    summary: 'Drop a backup, database, index or user.',
    details: [
      'BACKUP [name]: drop the backups matching [name].',
      'DB [name]: drop the databases matching [name].',
      'INDEX [TEXT|ATTRIBUTE|TOKEN|FULLTEXT]: drop an index of the opened database.',
      'USER [name] (ON [pattern]): drop a user, or its permissions on [pattern].',
    ],
  },
  EXECUTE: {
    syntax: '[input]',
    summary: 'Execute a command script.',
    details: ['[input] is a script in string or XML syntax.'],
  },
  EXIT: {
    syntax: '',
    summary: 'End the session.',
    details: [],
  },
  EXPORT: {
    syntax: '[path]',
    summary: 'Export the opened database to a server directory.',
    details: [],
  },
  FIND: {
    syntax: '[query]',
    summary: 'Find keywords in the opened database.',
    details: [],
  },
  FLUSH: {
    syntax: '',
    summary: 'Write pending changes of the opened database to disk.',
    details: [],
  },
  GET: {
    syntax: '[path]',
    summary: 'Return an XML document of the opened database.',
    details: [],
  },
  GRANT: {
    syntax: '[NONE|READ|WRITE|CREATE|ADMIN] (ON [pattern]) TO [user]',
    summary: 'Grant a permission to a user.',
    details: ['With ON, the permission applies to the databases matching [pattern].'],
  },
  HELP: {
    syntax: '([command])',
    summary: 'Show help on commands.',
    details: [],
  },
  INFO: {
    syntax: '([DB|INDEX|STORAGE])',
    summary: 'Show information on the server or the opened database.',
    details: [
      '(none): general information.',
      'DB: properties of the opened database.',
      'INDEX ([type]): index information.',
      'STORAGE ([start] ([end])): internal storage.',
    ],
  },
  INSPECT: {
    syntax: '',
    summary: 'Check the opened database for inconsistencies.',
    details: [],
  },
  JOBS: {
    syntax: '[LIST|RESULT|STOP] ([id])',
    summary: 'List, stop or collect background jobs.',
    details: [],
  },
  KILL: {
    syntax: '[target]',
    summary: 'End the sessions of a user.',
    details: [],
  },
  LIST: {
    syntax: '([name] ([path]))',
    summary: 'List databases, or the resources of a database.',
    details: [],
  },
  OPEN: {
    syntax: '[name] ([path])',
    summary: 'Open a database.',
    details: [],
  },
  OPTIMIZE: {
    syntax: '(ALL)',
    summary: 'Optimize the opened database.',
    details: ['ALL: rebuild all of its structures.'],
  },
  PASSWORD: {
    syntax: '([password])',
    summary: 'Change your own password.',
    details: [],
  },
  PUT: {
    syntax: '[path] [input]',
    summary: 'Add or replace a resource of the opened database.',
    details: [],
  },
  QUIT: {
    syntax: '',
    summary: 'End the session.',
    details: [],
  },
  RENAME: {
    syntax: '[path] [newpath]',
    summary: 'Rename resources of the opened database.',
    details: [],
  },
  REPO: {
    syntax: '[DELETE|INSTALL|LIST] [...]',
    summary: 'Manage the package repository.',
    details: [],
  },
  RESTORE: {
    syntax: '([name])',
    summary: 'Restore a backup.',
    details: [],
  },
  RUN: {
    syntax: '[file]',
    summary: 'Run a query or command script stored on the server.',
    details: ['Files ending in .bxs are command scripts; others are queries.'],
  },
  SET: {
    syntax: '[option] ([value])',
    summary: 'Set an option.',
    details: ['Without [value], a boolean option is toggled.'],
  },
  SHOW: {
    syntax: '[BACKUPS|OPTIONS|SESSIONS|USERS] [...]',
    summary: 'Show backups, options, sessions or users.',
    details: ['OPTIONS ([name]): option values.', 'USERS (ON [database]): users and their permissions.'],
  },
  TEST: {
    syntax: '[path]',
    summary: 'Run XQuery unit tests.',
    details: [],
  },
  XQUERY: {
    syntax: '[query]',
    summary: 'Evaluate a query.',
    details: [],
  },
};

/** Older keywords that are still accepted (BaseX 9 names); HELP does not list them. */
export const LEGACY_HELP: Readonly<Record<string, CommandHelp>> = {
  REPLACE: { syntax: '[path] [input]', summary: 'Old name of PUT.', details: [] },
  RETRIEVE: { syntax: '[path]', summary: 'Old name of BINARY GET.', details: [] },
  STORE: { syntax: '(TO [path]) [input]', summary: 'Old name of BINARY PUT.', details: [] },
};

function helpFor(keyword: string): CommandHelp | undefined {
  const k = keyword.toUpperCase();
  return Object.prototype.hasOwnProperty.call(COMMAND_HELP, k)
    ? COMMAND_HELP[k]
    : Object.prototype.hasOwnProperty.call(LEGACY_HELP, k)
      ? LEGACY_HELP[k]
      : undefined;
}

/**
 * Help text of one keyword: `KEYWORD syntax`, then the summary indented by two spaces; with
 * `detailed`, an empty line and the details follow. Each line ends with a newline.
 */
export function commandHelp(keyword: string, detailed: boolean): string | undefined {
  const h = helpFor(keyword);
  if (h === undefined) return undefined;
  const k = keyword.toUpperCase();
  let s = `${h.syntax ? `${k} ${h.syntax}` : k}\n  ${h.summary}\n`;
  if (detailed && h.details.length > 0) s += `\n${h.details.map((d) => `${d}\n`).join('')}`;
  return s;
}

/** Output of `HELP`: every command's short help, in order. */
export function helpAll(): string {
  return Object.keys(COMMAND_HELP)
    .map((k) => commandHelp(k, false))
    .join('');
}
