/**
 * One budget for the parsed documents of all workers of a pool (README, `documentCacheSize`).
 *
 * Each worker parses the stored documents its queries read and keeps them (parsed-documents.ts);
 * it tells the pool what it holds, as summed source bytes per database, with the reply to a task
 * when that changed. The pool adds up every worker's holdings: when the total passes the budget,
 * the (worker, database) pairs used least recently are dropped until it fits again, whichever
 * worker holds them. The pair a task has just used stays, so a database larger than the whole
 * budget is held by one worker at a time (store/cache/doc-cache.ts keeps such a document alone).
 *
 * Where a query runs (affinity): a task whose context is a database goes to an idle worker that
 * holds it; when its holders are busy, it goes to another idle worker only if one more copy fits
 * in the budget, else it waits for a holder (a parse of the database would cost more than the
 * wait, and a second copy would push another database out). Tasks without a database context
 * take any idle worker, and so does a task that has waited half its time limit for a busy
 * holder while another worker was free (`anyWorker`, pool.ts): a second copy costs memory for a
 * while; a refusal with 503 would cost the client its answer.
 */
import { DEFAULT_DOC_CACHE_BYTES } from '../../store/cache';
import type { RunTask, Task } from '../protocol/protocol';

interface Holding {
  bytes: number;
  /** When a task of this worker last used the database (a counter, larger is later). */
  used: number;
}

export class DocumentBudget<S> {
  private readonly held = new Map<S, Map<string, Holding>>();
  private clock = 0;

  /** `maxBytes`: the budget, summed source bytes of every worker's parsed documents. */
  constructor(readonly maxBytes = DEFAULT_DOC_CACHE_BYTES) {}

  /** Summed source bytes held by all workers. */
  get total(): number {
    let sum = 0;
    for (const dbs of this.held.values()) for (const h of dbs.values()) sum += h.bytes;
    return sum;
  }

  /** Whether `slot` holds documents of `db`. */
  holds(slot: S, db: string): boolean {
    return this.held.get(slot)?.has(db) ?? false;
  }

  /** Summed source bytes `slot` holds. */
  bytesOf(slot: S): number {
    let sum = 0;
    for (const h of this.held.get(slot)?.values() ?? []) sum += h.bytes;
    return sum;
  }

  /** Whether some worker holds documents of `db`. */
  heldAnywhere(db: string): boolean {
    for (const dbs of this.held.values()) if (dbs.has(db)) return true;
    return false;
  }

  /**
   * Whether one more copy of `db` (as large as the largest held) fits in the budget; not while
   * its size is unknown (a worker is loading it for the first time).
   */
  roomFor(db: string): boolean {
    let copy = 0;
    for (const dbs of this.held.values()) {
      const h = dbs.get(db);
      if (h?.bytes === 0) return false;
      copy = Math.max(copy, h?.bytes ?? 0);
    }
    return this.total + copy <= this.maxBytes;
  }

  /** `slot` starts a task reading `db`: it counts as a holder (of unknown size) until it reports. */
  expect(slot: S, db: string | undefined): void {
    if (db === undefined) return;
    const dbs = this.held.get(slot) ?? new Map<string, Holding>();
    this.held.set(slot, dbs);
    if (!dbs.has(db)) dbs.set(db, { bytes: 0, used: ++this.clock });
  }

  /**
   * A worker finished a task: `held` is what it holds now (absent: unchanged), `db` the database
   * the task used. Answers the pairs to drop so that the total fits, least recently used first.
   */
  report(slot: S, held: readonly (readonly [string, number])[] | undefined, db: string | undefined): [S, string][] {
    const now = ++this.clock;
    if (held) {
      const before = this.held.get(slot);
      this.held.set(slot, new Map(held.map(([name, bytes]) => [name, { bytes, used: before?.get(name)?.used ?? now }])));
    }
    const mine = this.held.get(slot);
    for (const [name, h] of mine ?? []) if (h.bytes === 0) mine?.delete(name); // expected, not loaded
    const used = db === undefined ? undefined : mine?.get(db);
    if (used) used.used = now;
    // a task that read no database (a compilation, a query without one) keeps the pair used
    // last: otherwise a database larger than the budget would be dropped by the next such task
    // and parsed again by the next query that reads it
    return this.overflow(used ?? this.newest());
  }

  /** The pair used last, if any. */
  private newest(): Holding | undefined {
    let best: Holding | undefined;
    for (const dbs of this.held.values()) for (const h of dbs.values()) if (!best || h.used > best.used) best = h;
    return best;
  }

  /** A worker that is gone: its documents went with it. */
  forget(slot: S): void {
    this.held.delete(slot);
  }

  private overflow(keep: Holding | undefined): [S, string][] {
    const pairs: { slot: S; db: string; h: Holding }[] = [];
    for (const [slot, dbs] of this.held) for (const [db, h] of dbs) if (h !== keep) pairs.push({ slot, db, h });
    pairs.sort((a, b) => a.h.used - b.h.used);
    let total = this.total;
    const out: [S, string][] = [];
    for (const { slot, db, h } of pairs) {
      if (total <= this.maxBytes) break;
      total -= h.bytes;
      this.held.get(slot)?.delete(db);
      out.push([slot, db]);
    }
    return out;
  }
}

/** A queued task as placement sees it: `anyWorker`, it no longer waits for a holder of its database. */
export interface Queued {
  readonly task: Task;
  readonly anyWorker?: boolean;
}

/** The database a task's context reads, if any (the one worth running it next to). */
export function databaseOf(task: Task | undefined): string | undefined {
  if (task?.kind !== 'run') return undefined;
  const ctx: RunTask['context'] = task.context;
  if (ctx && 'kind' in ctx) return ctx.db;
  return task.database?.db;
}

/**
 * The next task to run and the worker to run it on (see the file comment), or undefined when no
 * queued task can start now; the worker counts as a holder of the task's database from now on.
 * `idle`: the idle workers, in the pool's order.
 */
export function choose<S, P extends Queued>(
  budget: DocumentBudget<S>,
  queue: readonly P[],
  idle: readonly S[],
): { index: number; slot: S } | undefined {
  if (idle.length === 0) return undefined;
  for (let index = 0; index < queue.length; index++) {
    const { task, anyWorker } = queue[index];
    const slot = placement(budget, task, idle, anyWorker);
    if (slot === undefined) continue;
    budget.expect(slot, databaseOf(task));
    return { index, slot };
  }
  return undefined;
}

/** The worker of `idle` where `task` may run (see the file comment), or undefined: it waits for a holder. */
export function placement<S>(budget: DocumentBudget<S>, task: Task, idle: readonly S[], anyWorker = false): S | undefined {
  if (idle.length === 0) return undefined;
  const db = databaseOf(task);
  if (db === undefined) return idle[0];
  return idle.find((s) => budget.holds(s, db)) ?? (anyWorker || mayRunElsewhere(budget, db) ? lightest(budget, idle) : undefined);
}

/** Whether a task reading `db` may run on a worker that does not hold it (see the file comment). */
function mayRunElsewhere<S>(budget: DocumentBudget<S>, db: string | undefined): boolean {
  return db === undefined || !budget.heldAnywhere(db) || budget.roomFor(db);
}

/**
 * Whether some task of `queue` may run on a worker that holds nothing: only then is a worker
 * worth starting for the queue. The others wait for a busy holder of their database, and a new
 * worker would stay idle, a thread with saxon-js loaded (about 25 MB), for nothing.
 */
export function newWorkerWanted<S>(budget: DocumentBudget<S>, queue: readonly Queued[]): boolean {
  return queue.some(({ task, anyWorker }) => anyWorker || mayRunElsewhere(budget, databaseOf(task)));
}

/** The idle worker holding the fewest bytes (the first of them): where a new database goes. */
function lightest<S>(budget: DocumentBudget<S>, idle: readonly S[]): S {
  let best = idle[0];
  let bytes = budget.bytesOf(best);
  for (const s of idle.slice(1)) {
    const b = budget.bytesOf(s);
    if (b < bytes) [best, bytes] = [s, b];
  }
  return best;
}
