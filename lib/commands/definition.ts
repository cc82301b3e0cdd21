/**
 * The shape of one entry of the command table (registry.ts). As a BaseX command class does
 * (`core/cmd/List.java`: permission, locks, run), an entry holds everything about its command:
 * its string syntax and help text, its XML element, the permission and locks it needs, the
 * database it leaves opened, and how it runs. Parsers, planner, executor and HELP read the table;
 * none of them switches over command kinds.
 */
import type { XmldbError } from '../xmldb-error';
import type { OptionValue } from '../store/database-options';
import type { LockSet } from '../store/types';
import type { Permission } from '../users/permissions';
import type { CommandEnvironment, RunContext } from './exec/context';
import type { Command, CommandKind, CommandOf } from './types';

/** Permission and locks of a command (spec §13.2, §15.1); the runner checks and takes them first. */
export interface Requirements {
  readonly perm: Permission;
  /** Databases read (shared locks); `'*'` = all. */
  readonly reads: LockSet;
  /** Databases written (exclusive locks); `'*'` = all. */
  readonly writes: LockSet;
}

/** The argument parsers of the string syntax (spec §15.1), bound to the command's keyword. */
export interface ArgReader {
  /** A name, or with `glob` a pattern (`*`, `?`, `,`); absent: undefined. */
  name(glob?: boolean): string | undefined;
  reqName(glob?: boolean): string;
  /** A string up to a space or `;`, or in double quotes. */
  string(): string | undefined;
  reqString(): string;
  /** The rest of the line; with `quotes`, one enclosing pair of double quotes is dropped. */
  rest(quotes: boolean): string | undefined;
  reqRest(quotes: boolean): string;
  /** A fixed word (`TO`, `ON`); `required` makes its absence a syntax error. */
  key(word: string, required: boolean): boolean;
  /** One keyword out of `choices`, any case, answered in upper case. */
  keyword(choices: readonly string[], optional: boolean): string | undefined;
  /** An optional integer. */
  number(): string | undefined;
}

/** Help of one top-level keyword: `KEYWORD syntax`, a summary and details (spec §15.1 notation). */
export interface KeywordHelp {
  readonly syntax: string;
  readonly summary: string;
  readonly details?: readonly string[];
}

/** One way to write a command in the string syntax. */
export interface Syntax<C extends Command = Command> {
  /**
   * The keywords: a top-level one (`LIST`), or one and the word after it (`CREATE`, `DB`), with
   * aliases of that word after the first (`['DB', 'DATABASE']`).
   */
  readonly words: readonly [string] | readonly [string, readonly string[]];
  /** Parses the arguments after the keywords. */
  readonly parse: (args: ArgReader) => C;
  /** The keyword's help, for a command with a keyword of its own. */
  readonly help?: KeywordHelp;
  /** The detail line of this form in the help of its keyword (CREATE DB in CREATE's help). */
  readonly detail?: string;
  /** An older name, still accepted; neither listed by HELP nor suggested. */
  readonly legacy?: boolean;
}

/** What an XML command element may contain: a string value, or input that may be XML. */
export interface ContentSpec {
  readonly label: string;
  readonly mode: 'text' | 'input';
  readonly optional: boolean;
}

/** One element of the XML syntax (spec §15.2). */
export interface ElementSpec<C extends Command = Command> {
  readonly required: readonly string[];
  readonly optional: readonly string[];
  readonly content?: ContentSpec;
  /**
   * Builds the command from the checked attributes and the content (undefined when absent or
   * blank); `invalid` is the element's syntax error, for values the check cannot judge.
   */
  readonly build: (a: Readonly<Record<string, string | undefined>>, content: string | undefined, invalid: () => XmldbError) => C;
}

/** One command to run; EXECUTE and RUN of a `.bxs` file carry their planned script. */
export interface Step {
  readonly cmd: Command;
  readonly script?: readonly Step[];
  /** RUN: the resolved absolute file. */
  readonly file?: string;
  /** RUN of a query file: its text as planning read and analysed it, which is what runs. */
  readonly query?: string;
}

/** What planning finds behind a command that holds a query or a script. */
export type Expansion =
  | { readonly query: string; readonly file?: string }
  | { readonly script: string; readonly file?: string };

export interface CommandDef<K extends CommandKind = CommandKind> {
  readonly kind: K;
  readonly syntax: readonly Syntax<CommandOf<K>>[];
  /** Elements of the XML syntax, by element name. */
  readonly elements: Readonly<Record<string, ElementSpec<CommandOf<K>>>>;
  /**
   * Permission and locks with database `db` opened; `user` is the name of the user running it
   * (only ALTER PASSWORD of oneself depends on it).
   */
  readonly needs: (cmd: CommandOf<K>, db: string | undefined, user: string | undefined) => Requirements;
  /** The database opened after the command ran (default: `db`, unchanged). */
  readonly opens?: (cmd: CommandOf<K>, db: string | undefined) => string | undefined;
  /**
   * The session options after the command ran (SET; default: unchanged), for the analysis of the
   * queries planned after it (MIXUPDATES). A setting that fails here fails when the command runs.
   */
  readonly records?: (cmd: CommandOf<K>, options: ReadonlyMap<string, OptionValue>) => ReadonlyMap<string, OptionValue>;
  /** The error answered instead of the 403 when the permission is missing (OPEN, LIST db). */
  readonly refused?: (cmd: CommandOf<K>) => XmldbError | undefined;
  /** The query or script inside (XQUERY, EXECUTE, RUN), planned with the command. */
  readonly expand?: (cmd: CommandOf<K>, env: CommandEnvironment) => Promise<Expansion>;
  /**
   * Runs the command; answers its output ('' for commands that only change state). Absent: the
   * command parses but this server does not offer it (planning refuses it), unless `expand`
   * yields a script, which the executor runs step by step.
   */
  readonly run?: (cmd: CommandOf<K>, ctx: RunContext, step: Step) => Promise<string> | string;
}

/**
 * Any entry of the table, whatever its kind. Its functions take the command of their own kind,
 * so entries of different kinds share no narrower type; the table looks them up by `kind`.
 */
export type AnyCommandDef = CommandDef<any>;

/** Declares a table entry (the identity; it checks the entry against its kind). */
export function defineCommand<K extends CommandKind>(def: CommandDef<K>): CommandDef<K> {
  return def;
}

const NONE: readonly string[] = [];

/** Requirements: a permission, the databases read and those written. */
export function needs(perm: Permission, reads: LockSet = NONE, writes: LockSet = NONE): Requirements {
  return { perm, reads, writes };
}

/** The opened database as a lock list; empty without one (the command then fails when run). */
export function opened(db: string | undefined): readonly string[] {
  return db === undefined ? NONE : [db];
}

/** Element content: a string value (no child elements). */
export function text(label: string, optional = false): ContentSpec {
  return { label, mode: 'text', optional };
}

/** Element content: text or XML (ADD, PUT, CREATE DB, EXECUTE …). */
export function input(label: string, optional = false): ContentSpec {
  return { label, mode: 'input', optional };
}

/** An element with its required and optional attributes, its builder and its content. */
export function element<C extends Command>(
  required: readonly string[],
  optional: readonly string[],
  build: ElementSpec<C>['build'],
  content?: ContentSpec,
): ElementSpec<C> {
  return { required, optional, build, content };
}

/** A required attribute, present once the element passed its check. */
export function attr(a: Readonly<Record<string, string | undefined>>, name: string): string {
  return a[name] as string;
}

/** Drops properties whose value is undefined, so absent arguments are absent. */
export function opt<T extends Command>(value: T): T {
  for (const k of Object.keys(value) as (keyof T)[]) {
    if (value[k] === undefined) delete value[k];
  }
  return value;
}
