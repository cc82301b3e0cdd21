/**
 * Planning (BaseX checks a command's permission and takes its locks before it runs): before any
 * command runs, the whole script, nested EXECUTE and RUN scripts included, is walked once. The
 * walk tracks the opened database the way running will (each command's `opens`, and whatever a
 * nested script leaves opened), checks every command's permission against the databases it
 * touches, refuses unsupported commands, and collects the union of read and write locks. All it
 * knows of a command comes from the command's entry in the table (registry.ts).
 *
 * Queries (XQUERY, query files run by RUN) take the locks and need the permission that
 * query-access.ts decides from the engine's static analysis (`analyzeQuery`), with the database
 * opened and the options set (MIXUPDATES; each command's `records`) at that point of the script.
 */
import type { OptionValue } from '../../store/database-options';
import type { LockSet } from '../../store/types';
import { allows, permissionNeeded, rank, type PermissionHolder } from '../../users/permissions';
import type { UpdateAnalysis } from '../../xquery/language/analysis/updating';
import type { AnyCommandDef, Requirements, Step } from '../definition';
import { commandError } from '../messages';
import { commandDef, commandName } from '../registry';
import { parseScript } from '../script';
import type { Command } from '../types';
import type { CommandEnvironment, CommandState } from './context';
import { execError } from './exec-errors';
import { queryAccess } from './query-access';
import { mixesUpdates } from './session-options';

export interface Plan {
  readonly steps: readonly Step[];
  /** Databases to lock; '*' = all. */
  readonly locks: LockSet;
  /** Whether the locks must be exclusive (some command writes). */
  readonly write: boolean;
}

/** How deep EXECUTE and RUN may nest (a script that runs itself stops here). */
export const MAX_SCRIPT_DEPTH = 16;

/** Whether this server does not offer the command: it has no run, nor a script to run. */
function isUnsupported(def: AnyCommandDef): boolean {
  return def.run === undefined && def.expand === undefined;
}

/** What planning knows of the session at a point of the script. */
interface PlannedSession {
  readonly db: string | undefined;
  readonly options: ReadonlyMap<string, OptionValue>;
}

/** A query whose analysis is not known: it reads every database. */
const UNKNOWN_QUERY: UpdateAnalysis = { updating: false, permission: 'none', databases: '*' };

function union(a: LockSet, b: LockSet): LockSet {
  return a === '*' || b === '*' ? '*' : [...a, ...b];
}

function normalise(set: LockSet): LockSet {
  return set === '*' ? '*' : [...new Set(set)].sort();
}

class Planner {
  private reads: LockSet = [];
  private writes: LockSet = [];
  /** An updating query is planned: the script needs a write view, even without named databases. */
  private updates = false;

  constructor(private readonly env: CommandEnvironment) {}

  async plan(cmds: readonly Command[], db: string | undefined, options: ReadonlyMap<string, OptionValue>): Promise<Plan> {
    const { steps } = await this.walk(cmds, { db, options }, 0);
    const write = this.updates || this.writes === '*' || this.writes.length > 0;
    return { steps, locks: normalise(write ? union(this.reads, this.writes) : this.reads), write };
  }

  /**
   * Plans a list of commands with `session` (the opened database, the options) as it will be when
   * they run; answers the steps and the session they leave.
   */
  private async walk(cmds: readonly Command[], session: PlannedSession, depth: number): Promise<{ steps: Step[] } & PlannedSession> {
    if (depth > MAX_SCRIPT_DEPTH) throw execError('SCRIPT_DEPTH_X', MAX_SCRIPT_DEPTH);
    const steps: Step[] = [];
    let { db, options } = session;
    for (const cmd of cmds) {
      const def = commandDef(cmd);
      const r: Requirements = def.needs(cmd, db, this.env.user.name);
      checkRequirements(this.env.user, cmd, def, r);
      if (isUnsupported(def)) throw commandError('NOT_SUPPORTED_X', commandName(cmd));
      this.reads = union(this.reads, r.reads);
      this.writes = union(this.writes, r.writes);
      const inside = def.expand === undefined ? undefined : await def.expand(cmd, this.env);
      if (inside !== undefined && 'script' in inside) {
        const nested = await this.walk(parseScript(inside.script), { db, options }, depth + 1);
        steps.push({ cmd, script: nested.steps, ...(inside.file !== undefined ? { file: inside.file } : {}) });
        ({ db, options } = nested);
        continue;
      }
      if (inside !== undefined) this.query(inside.query, db, options);
      steps.push({ cmd, ...(inside?.file !== undefined ? { file: inside.file, query: inside.query } : {}) });
      db = def.opens === undefined ? db : def.opens(cmd, db);
      options = def.records === undefined ? options : def.records(cmd, options);
    }
    return { steps, db, options };
  }

  /** Locks and permission of a query (query-access.ts), with `db` opened and `options` set. */
  private query(query: string, db: string | undefined, options: ReadonlyMap<string, OptionValue>): void {
    let analysis: UpdateAnalysis = UNKNOWN_QUERY;
    try {
      analysis = this.env.analyzeQuery?.(query, mixesUpdates({ options })) ?? analysis;
    } catch {
      // A query that does not parse fails when it runs, after the commands before it.
    }
    const access = queryAccess(this.env.user, analysis, db);
    if (!access.write) {
      this.reads = union(this.reads, access.locks);
      return;
    }
    this.writes = union(this.writes, access.locks);
    this.updates = true;
  }
}

/**
 * Checks a command's permission: read and write on each database it names (grants may decide),
 * globally when it names none or all; create and admin globally. A command may answer its own
 * error instead of the 403 (OPEN and LIST of a database: "not found", spec §13.2).
 */
function checkRequirements(user: PermissionHolder, cmd: Command, def: AnyCommandDef, r: Requirements): void {
  const perm = r.perm;
  if (perm === 'none') return;
  const named = r.reads === '*' || r.writes === '*' ? [] : [...r.reads, ...r.writes];
  const ok = rank(perm) > rank('write') || named.length === 0 ? allows(user, perm) : named.every((d) => allows(user, perm, d));
  if (ok) return;
  throw def.refused?.(cmd) ?? permissionNeeded(perm);
}

/**
 * Throws the refusal planning answers if `user` may not run `cmd` with `db` opened: the check
 * of a REST operation that is a command in the reference server (PUT and DELETE, spec §8, §17),
 * made before its body is read.
 */
export function checkPermission(user: PermissionHolder & { readonly name?: string }, cmd: Command, db: string | undefined): void {
  const def = commandDef(cmd);
  checkRequirements(user, cmd, def, def.needs(cmd, db, user.name));
}

/** Plans a script run in session `state` (the opened database, the options); throws before anything runs. */
export function planCommands(commands: readonly Command[], env: CommandEnvironment, state: CommandState): Promise<Plan> {
  return new Planner(env).plan(commands, state.currentDb, state.options);
}
