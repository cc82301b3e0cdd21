/**
 * The string syntax of commands (spec §15.1). Keywords are case-insensitive; several commands are
 * separated by `;` or, in scripts, by newlines; lines starting with `#` are comments. Arguments:
 *
 * - names (databases, users, options): database-name characters only (`.` not first or last);
 *   glob patterns add `*`, `?` and `,`;
 * - strings (paths, files, passwords): up to the next space or `;`, or enclosed in double quotes
 *   (which may hold spaces and `;`);
 * - the rest of the line (XQUERY, ADD, PUT, CREATE DB input, BINARY PUT, SET value, EXECUTE, FIND):
 *   everything up to the end of the line, `;` included; except for XQUERY, one leading and one
 *   trailing double quote are removed.
 *
 * There is no multi-line form: in a script each line is parsed on its own (use the XML syntax for
 * multi-line queries). A single command (`parseSingleCommand`) is one "line", newlines included.
 */
import { COMMAND_HELP, LEGACY_HELP, commandError } from './messages';
import { ParseCursor } from './parse-cursor';
import { INDEX_TYPES, INFO_INDEX_TYPES, type Command, type IndexType, type InfoIndexType } from './types';
import { parseXmlCommands } from './xml-syntax';
import type { Permission } from '../users/permissions';

export { similarKeyword } from './parse-cursor';

/** Top-level keywords, including the legacy names that map to newer commands. */
const KEYWORDS = [...Object.keys(COMMAND_HELP), ...Object.keys(LEGACY_HELP)];
/** Keywords offered as suggestions ("Did you mean"): the documented ones. */
const SUGGESTED = Object.keys(COMMAND_HELP);

const CREATE_KINDS = ['BACKUP', 'DATABASE', 'DB', 'INDEX', 'USER'];
const ALTER_KINDS = ['BACKUP', 'DATABASE', 'DB', 'PASSWORD', 'USER'];
const DROP_KINDS = ['BACKUP', 'DATABASE', 'DB', 'INDEX', 'USER'];
const INFO_KINDS = ['DATABASE', 'DB', 'INDEX', 'STORAGE'];
const SHOW_KINDS = ['BACKUPS', 'OPTIONS', 'SESSIONS', 'USERS'];
const BINARY_KINDS = ['GET', 'PUT'];
const JOBS_KINDS = ['LIST', 'RESULT', 'STOP'];
const REPO_KINDS = ['DELETE', 'INSTALL', 'LIST'];
const OPTIMIZE_KINDS = ['ALL'];
const PERMS = ['NONE', 'READ', 'WRITE', 'CREATE', 'ADMIN'];
const INDEX_KINDS = INDEX_TYPES.map((t) => t.toUpperCase());
const INFO_INDEX_KINDS = INFO_INDEX_TYPES.map((t) => t.toUpperCase());

/** Parses the commands of one line (or of a whole single-command input). */
class LineParser extends ParseCursor {
  /** Parses the "Line" rule: commands separated by `;`. */
  parseLine(out: Command[]): void {
    while (this.more()) {
      const keyword = this.parseKeyword(KEYWORDS, SUGGESTED, undefined);
      if (keyword !== undefined) out.push(this.parseCommand(keyword));
      this.skipWs();
      if (this.more()) {
        if (this.curr() !== ';') throw this.syntax(keyword ?? '');
        this.pos++;
      }
    }
  }

  /** Parses the "Command" rule: the arguments after a top-level keyword. */
  private parseCommand(keyword: string): Command {
    switch (keyword) {
      case 'ADD': {
        const path = this.parseTo(keyword);
        return opt({ kind: 'add', path, input: this.req(this.parseRest(true), keyword) });
      }
      case 'STORE': {
        const path = this.parseTo(keyword);
        return opt({ kind: 'binaryPut', path, input: this.req(this.parseRest(true), keyword) });
      }
      case 'ALTER':
        return this.parseAlter();
      case 'BINARY':
        return this.parseBinary();
      case 'CHECK':
        return { kind: 'check', input: this.req(this.parseString(), keyword) };
      case 'CLOSE':
        return { kind: 'close' };
      case 'COPY':
        return { kind: 'copy', name: this.reqName(keyword), newName: this.reqName(keyword) };
      case 'CREATE':
        return this.parseCreate();
      case 'DELETE':
        return { kind: 'delete', path: this.reqString(keyword) };
      case 'DIR':
        return opt({ kind: 'dir', path: this.parseString() });
      case 'DROP':
        return this.parseDrop();
      case 'EXECUTE':
        return { kind: 'execute', script: this.req(this.parseRest(true), keyword) };
      case 'EXIT':
      case 'QUIT':
        return { kind: 'exit' };
      case 'EXPORT':
        return { kind: 'export', path: this.reqString(keyword) };
      case 'FIND':
        return { kind: 'find', query: this.req(this.parseRest(true), keyword) };
      case 'FLUSH':
        return { kind: 'flush' };
      case 'GET':
        return { kind: 'get', path: this.reqString(keyword) };
      case 'GRANT':
        return this.parseGrant();
      case 'HELP':
        return opt({ kind: 'help', command: this.parseName(keyword, false) });
      case 'INFO':
        return this.parseInfo();
      case 'INSPECT':
        return { kind: 'inspect' };
      case 'JOBS':
        return this.parseJobs();
      case 'KILL':
        return { kind: 'kill', target: this.reqString(keyword) };
      case 'LIST': {
        const name = this.parseName(keyword, false);
        return opt({ kind: 'list', name, path: name === undefined ? undefined : this.parseString() });
      }
      case 'OPEN':
        return opt({ kind: 'open', name: this.reqName(keyword), path: this.parseString() });
      case 'OPTIMIZE':
        return { kind: 'optimize', all: this.parseKeyword(OPTIMIZE_KINDS, OPTIMIZE_KINDS, keyword, true) === 'ALL' };
      case 'PASSWORD':
        return opt({ kind: 'password', password: this.parseString() });
      case 'PUT':
      case 'REPLACE': {
        const path = this.reqString(keyword);
        return { kind: 'put', path, input: this.req(this.parseRest(true), keyword) };
      }
      case 'RENAME':
        return { kind: 'rename', path: this.reqString(keyword), newPath: this.reqString(keyword) };
      case 'REPO':
        return this.parseRepo();
      case 'RESTORE':
        return opt({ kind: 'restore', name: this.parseName(keyword, false) });
      case 'RETRIEVE':
        return { kind: 'binaryGet', path: this.reqString(keyword) };
      case 'RUN':
        return { kind: 'run', file: this.reqString(keyword) };
      case 'SET':
        return opt({ kind: 'set', option: this.reqName(keyword), value: this.parseRest(true) });
      case 'SHOW':
        return this.parseShow();
      case 'TEST':
        return { kind: 'test', path: this.reqString(keyword) };
      case 'XQUERY':
        return { kind: 'xquery', query: this.req(this.parseRest(false), keyword) };
      default:
        throw commandError('UNKNOWN_TRY_X', keyword);
    }
  }

  /** CREATE [BACKUP|DB|INDEX|USER] … */
  private parseCreate(): Command {
    const p = 'CREATE';
    switch (this.parseKeyword(CREATE_KINDS, CREATE_KINDS, p)) {
      case 'BACKUP':
        return opt({ kind: 'createBackup', pattern: this.parseName(p, true) });
      case 'DATABASE':
      case 'DB':
        return opt({ kind: 'createDb', name: this.reqName(p), input: this.parseRest(true) });
      case 'INDEX':
        return { kind: 'createIndex', type: this.parseIndexType(p) };
      default:
        return opt({ kind: 'createUser', name: this.reqName(p), password: this.parseString() });
    }
  }

  /** ALTER [BACKUP|DB|PASSWORD|USER] … */
  private parseAlter(): Command {
    const p = 'ALTER';
    switch (this.parseKeyword(ALTER_KINDS, ALTER_KINDS, p)) {
      case 'BACKUP':
        return { kind: 'alterBackup', name: this.reqName(p), newName: this.reqName(p) };
      case 'DATABASE':
      case 'DB':
        return { kind: 'alterDb', name: this.reqName(p), newName: this.reqName(p) };
      case 'PASSWORD':
        return opt({ kind: 'alterPassword', name: this.reqName(p), password: this.parseString() });
      default:
        return { kind: 'alterUser', name: this.reqName(p), newName: this.reqName(p) };
    }
  }

  /** DROP [BACKUP|DB|INDEX|USER] … */
  private parseDrop(): Command {
    const p = 'DROP';
    switch (this.parseKeyword(DROP_KINDS, DROP_KINDS, p)) {
      case 'BACKUP':
        return { kind: 'dropBackup', pattern: this.reqName(p, true) };
      case 'DATABASE':
      case 'DB':
        return { kind: 'dropDb', pattern: this.reqName(p, true) };
      case 'INDEX':
        return { kind: 'dropIndex', type: this.parseIndexType(p) };
      default: {
        const pattern = this.reqName(p, true);
        const on = this.parseKey('ON', p, false) ? this.reqName(p, true) : undefined;
        return opt({ kind: 'dropUser', pattern, on });
      }
    }
  }

  /** INFO (DB|INDEX (type)|STORAGE (start (end))) */
  private parseInfo(): Command {
    const p = 'INFO';
    switch (this.parseKeyword(INFO_KINDS, INFO_KINDS, p, true)) {
      case undefined:
        return { kind: 'info' };
      case 'DATABASE':
      case 'DB':
        return { kind: 'infoDb' };
      case 'INDEX': {
        const t = this.parseKeyword(INFO_INDEX_KINDS, INFO_INDEX_KINDS, p, true);
        return opt({ kind: 'infoIndex', type: t?.toLowerCase() as InfoIndexType | undefined });
      }
      default: {
        const start = this.parseNumber(p);
        const end = start === undefined ? undefined : this.parseNumber(p);
        return opt({ kind: 'infoStorage', start, end });
      }
    }
  }

  /** BINARY [GET [path] | PUT (TO [path]) [input]] */
  private parseBinary(): Command {
    const p = 'BINARY';
    if (this.parseKeyword(BINARY_KINDS, BINARY_KINDS, p) === 'GET') {
      return { kind: 'binaryGet', path: this.reqString(p) };
    }
    const path = this.parseTo(p);
    return opt({ kind: 'binaryPut', path, input: this.req(this.parseRest(true), p) });
  }

  /** SHOW [BACKUPS|OPTIONS (name)|SESSIONS|USERS (ON db)] */
  private parseShow(): Command {
    const p = 'SHOW';
    switch (this.parseKeyword(SHOW_KINDS, SHOW_KINDS, p)) {
      case 'BACKUPS':
        return { kind: 'showBackups' };
      case 'OPTIONS':
        return opt({ kind: 'showOptions', name: this.parseName(p, false) });
      case 'SESSIONS':
        return { kind: 'showSessions' };
      default:
        return opt({ kind: 'showUsers', database: this.parseKey('ON', p, false) ? this.reqName(p) : undefined });
    }
  }

  /** GRANT [perm] (ON [pattern]) TO [user] */
  private parseGrant(): Command {
    const p = 'GRANT';
    const permission = this.parseKeyword(PERMS, PERMS, p)!.toLowerCase() as Permission;
    const on = this.parseKey('ON', p, false) ? this.reqName(p, true) : undefined;
    this.parseKey('TO', p, true);
    return opt({ kind: 'grant', permission, on, user: this.reqName(p, true) });
  }

  /** JOBS [LIST|RESULT [id]|STOP [id]] */
  private parseJobs(): Command {
    const p = 'JOBS';
    switch (this.parseKeyword(JOBS_KINDS, JOBS_KINDS, p)) {
      case 'LIST':
        return { kind: 'jobsList' };
      case 'RESULT':
        return { kind: 'jobsResult', id: this.reqName(p) };
      default:
        return { kind: 'jobsStop', id: this.reqName(p) };
    }
  }

  /** REPO [INSTALL [path]|DELETE [name]|LIST] */
  private parseRepo(): Command {
    const p = 'REPO';
    switch (this.parseKeyword(REPO_KINDS, REPO_KINDS, p)) {
      case 'INSTALL':
        return { kind: 'repoInstall', path: this.reqString(p) };
      case 'DELETE':
        return { kind: 'repoDelete', name: this.reqString(p) };
      default:
        return { kind: 'repoList' };
    }
  }

  private parseIndexType(parent: string): IndexType {
    return this.parseKeyword(INDEX_KINDS, INDEX_KINDS, parent)!.toLowerCase() as IndexType;
  }

  /** The optional "TO [path]" of ADD and BINARY PUT. */
  private parseTo(parent: string): string | undefined {
    return this.parseKey('TO', parent, false) ? this.reqString(parent) : undefined;
  }
}


/** Drops properties whose value is undefined, so absent arguments are absent. */
function opt<T extends Command>(value: T): T {
  for (const k of Object.keys(value) as (keyof T)[]) {
    if (value[k] === undefined) delete value[k];
  }
  return value;
}

/** Parses a script in string syntax: one or more commands per line, `#` comment lines. */
export function parseCommands(text: string): Command[] {
  const out: Command[] = [];
  for (const raw of text.split(/\r\n?|\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    new LineParser(line).parseLine(out);
  }
  return out;
}

/**
 * Parses exactly one command, in string syntax or (input starting with `<`) XML syntax: the
 * REST `command` operation. No command, or more than one, is an error.
 */
export function parseSingleCommand(text: string): Command {
  const input = text.trim();
  let cmds: Command[];
  if (input.startsWith('<')) {
    cmds = parseXmlCommands(input);
  } else {
    cmds = [];
    if (input !== '' && !input.startsWith('#')) new LineParser(input).parseLine(cmds);
  }
  if (cmds.length !== 1) throw commandError('SINGLE_CMD');
  return cmds[0];
}
