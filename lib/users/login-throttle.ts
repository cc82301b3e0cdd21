/**
 * Throttling of failed logins (spec §13.1 notes that the reference server slows repeated
 * failures down; we refuse them for a while instead, with 429 and Retry-After). Failures are
 * counted per key (a client address, a user name); after FREE_FAILURES consecutive failures the
 * key is blocked, for a time that doubles with each further failure up to MAX_BLOCK_MS. A
 * success resets the keys it used. Records are forgotten after FORGET_MS without failures.
 *
 * Attempts still being checked count too (at most MAX_PENDING per key), so a burst of guesses
 * sent at once cannot queue more than a few password hashes. An attempt that waits for the check
 * of the same name and password already running costs no hash, and is not counted so: a client
 * opening many connections at once with the same credentials is not refused.
 */
import { LRUCache } from 'lru-cache';

export const FREE_FAILURES = 10;
const BLOCK_MS = 1_000;
const MAX_BLOCK_MS = 60_000;
const FORGET_MS = 15 * 60_000;
const MAX_PENDING = 16;
/** Most keys remembered. */
const MAX_RECORDS = 50_000;

interface Attempts {
  failures: number;
  lastFailure: number;
  blockedUntil: number;
  pending: number;
}

export class LoginThrottle {
  /**
   * Bounded (MAX_RECORDS): under a flood of names, the oldest records go first. Bounded by size
   * rather than by `max`, which allocates the cache's tables for all of them up front (a
   * megabyte in every router, most of them never to see a failed login).
   */
  private readonly records = new LRUCache<string, Attempts>({ maxSize: MAX_RECORDS, sizeCalculation: () => 1 });

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Whole seconds before an attempt with these keys is accepted; 0 when it may go ahead.
   * `shared`: the attempt waits for a check already running (no new hash): only a block refuses it.
   */
  retryAfter(keys: readonly string[], shared = false): number {
    let wait = 0;
    const now = this.now();
    for (const key of keys) {
      const r = this.current(key, now);
      if (r === undefined) continue;
      if (r.blockedUntil > now) wait = Math.max(wait, Math.ceil((r.blockedUntil - now) / 1000));
      else if (!shared && r.pending >= MAX_PENDING) wait = Math.max(wait, 1);
    }
    return wait;
  }

  /** An attempt with these keys starts; call {@link finish} with its outcome. */
  start(keys: readonly string[]): void {
    const now = this.now();
    for (const key of keys) this.record(key, now).pending++;
  }

  /** An attempt ended; `started`: it was counted by {@link start} (a shared one is not). */
  finish(keys: readonly string[], succeeded: boolean, started = true): void {
    const now = this.now();
    for (const key of keys) {
      const r = this.record(key, now);
      if (started) r.pending = Math.max(0, r.pending - 1);
      if (succeeded) {
        r.failures = 0;
        r.blockedUntil = 0;
      } else {
        r.failures++;
        r.lastFailure = now;
        const over = r.failures - FREE_FAILURES;
        if (over >= 0) r.blockedUntil = now + Math.min(BLOCK_MS * 2 ** Math.min(over, 16), MAX_BLOCK_MS);
      }
    }
  }

  /** The record of a key, with failures older than FORGET_MS forgotten. */
  private current(key: string, now: number): Attempts | undefined {
    const r = this.records.get(key);
    if (r !== undefined && r.failures > 0 && now - r.lastFailure > FORGET_MS) {
      r.failures = 0;
      r.blockedUntil = 0;
    }
    return r;
  }

  private record(key: string, now: number): Attempts {
    let r = this.current(key, now);
    if (r === undefined) {
      r = { failures: 0, lastFailure: 0, blockedUntil: 0, pending: 0 };
      this.records.set(key, r);
    }
    return r;
  }
}
