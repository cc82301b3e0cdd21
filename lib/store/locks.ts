/**
 * Readers/writer locks per database, under one global lock (`'*'`), with intention modes so that
 * work on one database excludes work on all of them and vice versa:
 * - read of named databases: global IS, then S on each name;
 * - write of named databases: global IX, then X on each name;
 * - read of all (`'*'`): global S; write of all: global X.
 * Locks are always taken in one order (global first, then names sorted), so requests never
 * deadlock. Each lock is FIFO-fair: a request waits behind any earlier waiter it conflicts with,
 * so a stream of readers cannot starve a writer.
 *
 * Waits are bounded: a request not granted within the manager's `waitMs` gives up its place
 * (which may let those behind it through), releases what it took, and fails with
 * `LOCK_TIMEOUT_X` (503) instead of hanging behind a holder that never finishes.
 */
import { raise } from '../xmldb-error';
import { STORE_ERRORS } from './store-errors';
import type { LockSet } from './types';

/** Lock modes: intention shared/exclusive, shared, exclusive. */
export type LockMode = 'IS' | 'IX' | 'S' | 'X';

const COMPATIBLE: Readonly<Record<LockMode, ReadonlySet<LockMode>>> = {
  IS: new Set<LockMode>(['IS', 'IX', 'S']),
  IX: new Set<LockMode>(['IS', 'IX']),
  S: new Set<LockMode>(['IS', 'S']),
  X: new Set<LockMode>(),
};

/** Whether two modes may be held at once. */
export function compatible(a: LockMode, b: LockMode): boolean {
  return COMPATIBLE[a].has(b);
}

interface Waiter {
  readonly mode: LockMode;
  readonly grant: () => void;
}

/** One lock with several modes and a FIFO queue. */
export class ModeLock {
  private readonly held = new Map<LockMode, number>();
  private queue: Waiter[] = [];

  /** Whether nobody holds or waits for this lock. */
  get idle(): boolean {
    return this.held.size === 0 && this.queue.length === 0;
  }

  /** Resolves once the lock is held in `mode`; rejects with `timeout()` after `waitMs` of waiting. */
  acquire(mode: LockMode, waitMs?: number, timeout?: () => Error): Promise<void> {
    if (this.fitsHolders(mode) && this.queue.every((w) => compatible(w.mode, mode))) {
      this.take(mode);
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const waiter: Waiter = {
        mode,
        grant: () => {
          if (timer) clearTimeout(timer);
          resolve();
        },
      };
      this.queue.push(waiter);
      if (waitMs === undefined) return;
      timer = setTimeout(() => {
        this.queue = this.queue.filter((w) => w !== waiter);
        this.grantWaiters(); // a waiter behind this one may fit now
        reject(timeout?.() ?? new Error('lock wait timed out'));
      }, waitMs);
    });
  }

  /** Releases one hold in `mode` and grants whatever may run now. */
  release(mode: LockMode): void {
    const count = this.held.get(mode);
    if (count === undefined) throw new Error(`Lock is not held in mode ${mode}.`);
    if (count === 1) this.held.delete(mode);
    else this.held.set(mode, count - 1);
    this.grantWaiters();
  }

  private fitsHolders(mode: LockMode): boolean {
    for (const heldMode of this.held.keys()) if (!compatible(mode, heldMode)) return false;
    return true;
  }

  private take(mode: LockMode): void {
    this.held.set(mode, (this.held.get(mode) ?? 0) + 1);
  }

  /** Grants each waiter compatible with the holders and with every waiter still ahead of it. */
  private grantWaiters(): void {
    const ahead: LockMode[] = [];
    const remaining: Waiter[] = [];
    for (const waiter of this.queue) {
      if (this.fitsHolders(waiter.mode) && ahead.every((m) => compatible(m, waiter.mode))) {
        this.take(waiter.mode);
        waiter.grant();
      } else {
        ahead.push(waiter.mode);
        remaining.push(waiter);
      }
    }
    this.queue = remaining;
  }
}

/** The name of the global lock. */
export const GLOBAL_LOCK = '*';

/** A lock set with one more database (the URL's, or a script's opened one), kept sorted. */
export function withDatabase(set: LockSet, db: string | undefined): LockSet {
  if (set === '*' || db === undefined || set.includes(db)) return set;
  return [...set, db].sort();
}

/** One lock to take: a name and a mode. */
export interface LockRequest {
  readonly name: string;
  readonly mode: LockMode;
}

/** The locks a read or write of `dbs` needs, in the order they must be taken. */
export function lockPlan(dbs: LockSet, exclusive: boolean): LockRequest[] {
  if (dbs === '*') return [{ name: GLOBAL_LOCK, mode: exclusive ? 'X' : 'S' }];
  const names = [...new Set(dbs)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const mode: LockMode = exclusive ? 'X' : 'S';
  return [
    { name: GLOBAL_LOCK, mode: exclusive ? 'IX' : 'IS' },
    ...names.map((name) => ({ name: `db:${name}`, mode })),
  ];
}

/** Named locks, created on demand and dropped when idle. */
export class LockManager {
  private readonly locks = new Map<string, ModeLock>();

  /** `waitMs`: longest wait for a lock set; absent: no limit. */
  constructor(private readonly waitMs?: number) {}

  /** Takes the locks a read (shared) or write (exclusive) of `dbs` needs; answers the release. */
  async acquire(dbs: LockSet, exclusive: boolean): Promise<() => void> {
    const plan = lockPlan(dbs, exclusive);
    const taken: LockRequest[] = [];
    const deadline = this.waitMs === undefined ? undefined : Date.now() + this.waitMs;
    const timeout = () => raise(STORE_ERRORS, 'LOCK_TIMEOUT_X', this.waitMs);
    for (const request of plan) {
      try {
        await this.lock(request.name).acquire(request.mode, deadline === undefined ? undefined : Math.max(0, deadline - Date.now()), timeout);
      } catch (error) {
        for (const held of taken.reverse()) this.release(held);
        this.dropIfIdle(request.name);
        throw error;
      }
      taken.push(request);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const request of taken.reverse()) this.release(request);
    };
  }

  /** Runs `fn` while holding the locks for `dbs`. */
  async run<T>(dbs: LockSet, exclusive: boolean, fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire(dbs, exclusive);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  /** Number of locks currently in use (held or awaited). */
  get size(): number {
    return this.locks.size;
  }

  private lock(name: string): ModeLock {
    let lock = this.locks.get(name);
    if (!lock) {
      lock = new ModeLock();
      this.locks.set(name, lock);
    }
    return lock;
  }

  private release(request: LockRequest): void {
    const lock = this.locks.get(request.name);
    if (!lock) return;
    lock.release(request.mode);
    this.dropIfIdle(request.name);
  }

  private dropIfIdle(name: string): void {
    if (this.locks.get(name)?.idle) this.locks.delete(name);
  }
}
