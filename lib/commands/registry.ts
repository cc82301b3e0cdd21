/**
 * The command table: one entry per command kind, each in its own module under defs/ (LIST in
 * defs/list.ts, CREATE DB in defs/create-db.ts, the backup commands in defs/backups.ts …). The
 * string and XML parsers, HELP, the planner and the executor look commands up here.
 */
import type { AnyCommandDef, CommandDef, ElementSpec, Syntax } from './definition';
import { add } from './defs/add';
import { alterDb } from './defs/alter-db';
import { alterBackup, createBackup, dropBackup, restore, showBackups } from './defs/backups';
import { binaryGet, binaryPut } from './defs/binary';
import { check } from './defs/check';
import { close } from './defs/close';
import { copy } from './defs/copy';
import { createDb } from './defs/create-db';
import { del } from './defs/delete';
import { dir } from './defs/dir';
import { dropDb } from './defs/drop-db';
import { execute } from './defs/execute';
import { exit } from './defs/exit';
import { exportDb } from './defs/export';
import { find } from './defs/find';
import { get } from './defs/get';
import { grant } from './defs/grant';
import { helpCommand } from './defs/help';
import { createIndex, dropIndex } from './defs/indexes';
import { info, infoDb, infoIndex, infoStorage, inspect } from './defs/info';
import { jobsList, jobsResult, jobsStop } from './defs/jobs';
import { list } from './defs/list';
import { open } from './defs/open';
import { flush, optimize } from './defs/optimize';
import { set, showOptions } from './defs/set-options';
import { put } from './defs/put';
import { rename } from './defs/rename';
import { repoDelete, repoInstall, repoList } from './defs/repo';
import { run } from './defs/run';
import { kill, showSessions } from './defs/sessions';
import { test } from './defs/test';
import { alterPassword, alterUser, createUser, dropUser, ownPassword, showUsers } from './defs/users';
import { xquery } from './defs/xquery';
import { formatHelp, helpTopics, type HelpTopic } from './help-text';
import type { Command, CommandKind } from './types';

/** Every command kind has its entry (the type makes a missing one a compile error). */
const TABLE: { readonly [K in CommandKind]: CommandDef<K> } = {
  createDb, dropDb, alterDb, copy, open, close, check, list, dir, export: exportDb, optimize, flush, createIndex, dropIndex,
  info, infoDb, infoIndex, infoStorage, inspect,
  get, binaryGet, binaryPut, add, put, delete: del, rename,
  xquery, find, run, execute, test,
  set, showOptions,
  createUser, dropUser, alterUser, alterPassword, password: ownPassword, grant, showUsers, showSessions, kill,
  createBackup, restore, dropBackup, alterBackup, showBackups,
  jobsList, jobsStop, jobsResult, repoInstall, repoDelete, repoList,
  help: helpCommand({ of: commandHelp, all: helpAll }),
  exit,
};

export const COMMANDS: readonly AnyCommandDef[] = Object.values(TABLE);

/** The table entry of a command. */
export function commandDef(cmd: Command): AnyCommandDef {
  return TABLE[cmd.kind];
}

/** A command's name for messages: its keywords in upper case. */
export function commandName(cmd: Command): string {
  return cmd.kind.replace(/[A-Z]/g, (c) => ` ${c}`).toUpperCase();
}

// --- the string syntax --------------------------------------------------------------------

/** What may follow a top-level keyword: its command, or the words naming one of its commands. */
export interface KeywordSyntax {
  /** The command of the keyword alone (LIST; INFO without a word after it). */
  readonly alone?: Syntax;
  /** The words after a shared keyword (CREATE DB …), aliases included, and their commands. */
  readonly next: ReadonlyMap<string, Syntax>;
}

function keywordSyntax(): ReadonlyMap<string, KeywordSyntax> {
  const out = new Map<string, { alone?: Syntax; next: Map<string, Syntax> }>();
  for (const s of COMMANDS.flatMap((d) => d.syntax as readonly Syntax[])) {
    const top = s.words[0];
    const k = out.get(top) ?? { next: new Map<string, Syntax>() };
    out.set(top, k);
    if (s.words.length === 1) k.alone = s;
    else for (const w of s.words[1]) k.next.set(w, s);
  }
  return out;
}

/** Top-level keywords of the string syntax, legacy names included. */
export const KEYWORDS: ReadonlyMap<string, KeywordSyntax> = keywordSyntax();

const TOPICS: ReadonlyMap<string, HelpTopic> = helpTopics(COMMANDS);

/** The documented keywords (offered as suggestions, listed by HELP), in alphabetical order. */
export const DOCUMENTED_KEYWORDS: readonly string[] = [...TOPICS].filter(([, t]) => !t.legacy).map(([k]) => k);

/** Help text of one keyword (any case); undefined for a word that is no keyword. */
export function commandHelp(keyword: string, detailed: boolean): string | undefined {
  const k = keyword.toUpperCase();
  const topic = TOPICS.get(k);
  return topic === undefined ? undefined : formatHelp(k, topic.help, detailed);
}

/** Output of `HELP`: every documented command's short help, in order. */
export function helpAll(): string {
  return DOCUMENTED_KEYWORDS.map((k) => commandHelp(k, false)).join('');
}

// --- the XML syntax -----------------------------------------------------------------------

/** Elements of the XML syntax, by name. */
export const ELEMENTS: ReadonlyMap<string, ElementSpec> = new Map(
  COMMANDS.flatMap((d) => Object.entries(d.elements as Readonly<Record<string, ElementSpec>>)),
);
