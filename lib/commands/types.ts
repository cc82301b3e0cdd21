/**
 * The command model (spec §15): one plain-data variant per BaseX command. Both syntaxes build these
 * values (`parse.ts` for strings, `script.ts` for XML); parsers never execute. Optional arguments
 * that were not given are absent, never empty strings.
 */
import type { Permission } from '../users/permissions';

/** Index types of CREATE INDEX / DROP INDEX. */
export const INDEX_TYPES = ['text', 'attribute', 'token', 'fulltext'] as const;
export type IndexType = (typeof INDEX_TYPES)[number];

/** Index types INFO INDEX accepts. */
export const INFO_INDEX_TYPES = [...INDEX_TYPES, 'path', 'elemname', 'attrname'] as const;
export type InfoIndexType = (typeof INFO_INDEX_TYPES)[number];

export type Command =
  // databases
  | { readonly kind: 'createDb'; readonly name: string; readonly input?: string }
  | { readonly kind: 'dropDb'; readonly pattern: string }
  | { readonly kind: 'alterDb'; readonly name: string; readonly newName: string }
  | { readonly kind: 'copy'; readonly name: string; readonly newName: string }
  | { readonly kind: 'open'; readonly name: string; readonly path?: string }
  | { readonly kind: 'close' }
  | { readonly kind: 'check'; readonly input: string }
  | { readonly kind: 'list'; readonly name?: string; readonly path?: string }
  | { readonly kind: 'dir'; readonly path?: string }
  | { readonly kind: 'export'; readonly path: string }
  | { readonly kind: 'optimize'; readonly all: boolean }
  | { readonly kind: 'flush' }
  | { readonly kind: 'createIndex'; readonly type: IndexType }
  | { readonly kind: 'dropIndex'; readonly type: IndexType }
  // information
  | { readonly kind: 'info' }
  | { readonly kind: 'infoDb' }
  | { readonly kind: 'infoIndex'; readonly type?: InfoIndexType }
  | { readonly kind: 'infoStorage'; readonly start?: string; readonly end?: string }
  | { readonly kind: 'inspect' }
  // resources of the opened database
  | { readonly kind: 'get'; readonly path: string }
  | { readonly kind: 'binaryGet'; readonly path: string }
  | { readonly kind: 'binaryPut'; readonly path?: string; readonly input: string }
  | { readonly kind: 'add'; readonly path?: string; readonly input: string }
  | { readonly kind: 'put'; readonly path: string; readonly input: string }
  | { readonly kind: 'delete'; readonly path: string }
  | { readonly kind: 'rename'; readonly path: string; readonly newPath: string }
  // queries and scripts
  | { readonly kind: 'xquery'; readonly query: string }
  | { readonly kind: 'find'; readonly query: string }
  | { readonly kind: 'run'; readonly file: string }
  | { readonly kind: 'execute'; readonly script: string }
  | { readonly kind: 'test'; readonly path: string }
  // options
  | { readonly kind: 'set'; readonly option: string; readonly value?: string }
  | { readonly kind: 'showOptions'; readonly name?: string }
  // users and sessions
  | { readonly kind: 'createUser'; readonly name: string; readonly password?: string }
  | { readonly kind: 'dropUser'; readonly pattern: string; readonly on?: string }
  | { readonly kind: 'alterUser'; readonly name: string; readonly newName: string }
  | { readonly kind: 'alterPassword'; readonly name: string; readonly password?: string }
  | { readonly kind: 'password'; readonly password?: string }
  | {
      readonly kind: 'grant';
      readonly permission: Permission;
      readonly user: string;
      /** Database pattern; absent = the global permission. */
      readonly on?: string;
    }
  | { readonly kind: 'showUsers'; readonly database?: string }
  | { readonly kind: 'showSessions' }
  | { readonly kind: 'kill'; readonly target: string }
  // backups
  | { readonly kind: 'createBackup'; readonly pattern?: string }
  | { readonly kind: 'restore'; readonly name?: string }
  | { readonly kind: 'dropBackup'; readonly pattern: string }
  | { readonly kind: 'alterBackup'; readonly name: string; readonly newName: string }
  | { readonly kind: 'showBackups' }
  // jobs, packages, session
  | { readonly kind: 'jobsList' }
  | { readonly kind: 'jobsStop'; readonly id: string }
  | { readonly kind: 'jobsResult'; readonly id: string }
  | { readonly kind: 'repoInstall'; readonly path: string }
  | { readonly kind: 'repoDelete'; readonly name: string }
  | { readonly kind: 'repoList' }
  | { readonly kind: 'help'; readonly command?: string }
  | { readonly kind: 'exit' };

export type CommandKind = Command['kind'];

/** The variant of `Command` with the given kind. */
export type CommandOf<K extends CommandKind> = Extract<Command, { kind: K }>;
