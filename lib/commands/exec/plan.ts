/**
 * Planning (style: "Permission and locks come first"): before any command runs, the whole script,
 * nested EXECUTE and RUN scripts included, is walked once. The walk tracks the opened database the
 * way running will (OPEN, CLOSE, and whatever a nested script leaves opened), checks every
 * command's permission against the databases it touches, refuses unsupported commands, and
 * collects the union of read and write locks.
 *
 * Per-command data comes from `requirements()`; the walk sees into EXECUTE and RUN, follows
 * nested OPENs, and checks per-database grants command by command.
 *
 * Queries (XQUERY, query files run by RUN): the engine's static analysis (`analyzeQuery`) tells
 * which databases a query names and whether it updates (XQuery Update, db: write functions). It
 * locks those databases and the opened one (all of them when the names are computed), for
 * writing if it updates; an updating query needs the write permission on them (create for
 * db:create, db:drop, …). The engine limits the databases a query reads to the locked ones its
 * user may read.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { raise } from '../../errors';
import { STORE_ERRORS } from '../../store/errors';
import type { LockSet } from '../../store/types';
import { allows, allowsUpdate, rank, type Permission } from '../../users/permissions';
import { commandError } from '../messages';
import { requirements, type Requirements } from '../requirements';
import { parseScript } from '../script';
import type { Command, CommandKind, CommandOf } from '../types';
import { withDatabase } from '../../store/locks';
import type { CommandEnvironment, QueryNeeds } from './context';
import { execError, toCommandFailure } from './errors';

/** One command to run; EXECUTE and RUN of a `.bxs` file carry their planned script. */
export interface Step {
  readonly cmd: Command;
  readonly script?: readonly Step[];
  /** RUN: the resolved absolute file. */
  readonly file?: string;
}

export interface Plan {
  readonly steps: readonly Step[];
  /** Databases to lock; '*' = all. */
  readonly locks: LockSet;
  /** Whether the locks must be exclusive (some command writes). */
  readonly write: boolean;
}

/** How deep EXECUTE and RUN may nest (a script that runs itself stops here). */
export const MAX_SCRIPT_DEPTH = 16;

/** Commands that parse but that this server does not offer. */
const UNSUPPORTED_KINDS = [
  'check', 'infoIndex', 'infoStorage', 'inspect', 'test', 'kill',
  'jobsList', 'jobsStop', 'jobsResult', 'repoInstall', 'repoDelete', 'repoList',
] as const satisfies readonly CommandKind[];
const UNSUPPORTED: ReadonlySet<CommandKind> = new Set<CommandKind>(UNSUPPORTED_KINDS);

/** Whether this server does not offer the command (planning refuses it). */
export function isUnsupported(cmd: Command): cmd is CommandOf<(typeof UNSUPPORTED_KINDS)[number]> {
  return UNSUPPORTED.has(cmd.kind);
}

const LABEL: Record<Permission, string> = { none: 'None', read: 'Read', write: 'Write', create: 'Create', admin: 'Admin' };

function union(a: LockSet, b: LockSet): LockSet {
  return a === '*' || b === '*' ? '*' : [...a, ...b];
}

function normalise(set: LockSet): LockSet {
  return set === '*' ? '*' : [...new Set(set)].sort();
}

/**
 * The database a command leaves opened (nested scripts are handled by the walk). CREATE DB opens
 * the new database, as in the reference server (`CREATE DB x` then `ADD …`; spec §15.2 example).
 */
function openedAfter(cmd: Command, db: string | undefined): string | undefined {
  if (cmd.kind === 'open' || cmd.kind === 'createDb') return cmd.name;
  if (cmd.kind === 'close') return undefined;
  return db;
}

const QUERY_SUFFIX = /\.(?:bxs|xq|xqm|xqy|xql|xqu|xquery|xpath)$/i;

async function isFileInside(root: string, file: string): Promise<boolean> {
  try {
    const [realRoot, real] = await Promise.all([fs.realpath(root), fs.realpath(file)]);
    const rel = path.relative(realRoot, real);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return false;
    return (await fs.stat(real)).isFile();
  } catch {
    return false;
  }
}

/**
 * Resolves a RUN file against the REST path (spec §10): NAME, else NAME.xq, else NAME.bxs (only
 * for names without a query or script suffix). Absolute names, names leaving the folder, folders
 * and missing files are not found.
 */
export async function resolveRunFile(restPath: string, name: string): Promise<string> {
  const root = path.resolve(restPath);
  if (!path.isAbsolute(name)) {
    const candidates = QUERY_SUFFIX.test(name) ? [name] : [name, `${name}.xq`, `${name}.bxs`];
    for (const c of candidates) {
      const file = path.resolve(root, c);
      try {
        await fs.stat(file);
      } catch {
        continue;
      }
      if (await isFileInside(root, file)) return file;
      break;
    }
  }
  throw execError('FILE_NOT_FOUND_X', name);
}

class Planner {
  private reads: LockSet = [];
  private writes: LockSet = [];
  /** An updating query is planned: the script needs a write view, even without named databases. */
  private updates = false;

  constructor(private readonly env: CommandEnvironment) {}

  async plan(cmds: readonly Command[], db: string | undefined): Promise<Plan> {
    const { steps } = await this.walk(cmds, db, 0);
    const write = this.updates || this.writes === '*' || this.writes.length > 0;
    return { steps, locks: normalise(write ? union(this.reads, this.writes) : this.reads), write };
  }

  /** Plans a list of commands with `db` opened; answers the steps and the database left opened. */
  private async walk(cmds: readonly Command[], db: string | undefined, depth: number) {
    if (depth > MAX_SCRIPT_DEPTH) throw execError('SCRIPT_DEPTH_X', MAX_SCRIPT_DEPTH);
    const steps: Step[] = [];
    for (const cmd of cmds) {
      const r = requirements(cmd, db, this.env.user.name);
      this.check(cmd, r);
      if (isUnsupported(cmd)) throw commandError('NOT_SUPPORTED_X', commandName(cmd));
      this.reads = union(this.reads, r.reads);
      this.writes = union(this.writes, r.writes);
      if (cmd.kind === 'xquery') {
        this.query(cmd.query, db);
        steps.push({ cmd });
      } else if (cmd.kind === 'execute') {
        const nested = await this.walk(parseScript(cmd.script), db, depth + 1);
        steps.push({ cmd, script: nested.steps });
        db = nested.db;
        continue;
      } else if (cmd.kind === 'run') {
        const file = await resolveRunFile(this.env.restPath, cmd.file);
        const text = await fs.readFile(file, 'utf8');
        if (/\.bxs$/i.test(file)) {
          const nested = await this.walk(parseScript(text), db, depth + 1);
          steps.push({ cmd, file, script: nested.steps });
          db = nested.db;
          continue;
        }
        this.query(text, db);
        steps.push({ cmd, file });
      } else {
        steps.push({ cmd });
      }
      db = openedAfter(cmd, db);
    }
    return { steps, db };
  }

  /**
   * Locks and permission of a query, from the engine's analysis: the databases it names and the
   * opened one (every database when the names are not known). An updating query needs the write
   * permission on each of them (on the opened one, or globally, when they are not known), or the
   * global create permission.
   */
  private query(query: string, db: string | undefined): void {
    let needs: QueryNeeds = { permission: 'none', databases: '*' };
    try {
      needs = this.env.analyzeQuery?.(query) ?? needs;
    } catch {
      // A query that does not parse fails when it runs, after the commands before it.
    }
    const locks = withDatabase(needs.databases, db);
    const perm = needs.permission;
    if (perm === 'none') {
      this.reads = union(this.reads, locks);
      return;
    }
    this.writes = union(this.writes, locks);
    this.updates = true;
    if (!allowsUpdate(this.env.user, perm, locks, db)) throw commandError('PERM_REQUIRED_X', LABEL[perm]);
  }

  /**
   * Checks a command's permission: read and write on each database it names (grants may decide),
   * globally when it names none or all; create and admin globally. Refusing OPEN or LIST of a
   * database answers "not found", as for a database that does not exist (spec §13.2).
   */
  private check(cmd: Command, r: Requirements): void {
    const perm = r.perm;
    if (perm === 'none') return;
    const named = r.reads === '*' || r.writes === '*' ? [] : [...r.reads, ...r.writes];
    const ok =
      rank(perm) > rank('write') || named.length === 0
        ? allows(this.env.user, perm)
        : named.every((d) => allows(this.env.user, perm, d));
    if (ok) return;
    if (cmd.kind === 'open') throw raise(STORE_ERRORS, 'DB_NOT_FOUND_X', cmd.name);
    if (cmd.kind === 'list' && cmd.name !== undefined) {
      throw toCommandFailure(raise(STORE_ERRORS, 'DB_NOT_FOUND_X', cmd.name));
    }
    throw commandError('PERM_REQUIRED_X', LABEL[perm]);
  }
}

/** A command's name for messages: its keywords in upper case. */
export function commandName(cmd: Command): string {
  return cmd.kind.replace(/[A-Z]/g, (c) => ` ${c}`).toUpperCase();
}

/** Plans a script run with `currentDb` opened; throws before anything runs. */
export function planCommands(commands: readonly Command[], env: CommandEnvironment, currentDb?: string): Promise<Plan> {
  return new Planner(env).plan(commands, currentDb);
}
