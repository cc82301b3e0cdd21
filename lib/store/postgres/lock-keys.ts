/**
 * Database locks across servers as PostgreSQL advisory locks (two-key form: a class and an
 * object). PostgreSQL has shared and exclusive advisory locks only, so the file store's
 * intention modes (locks.ts) map onto them as follows:
 * - read of named databases: global shared, then each name shared;
 * - write of named databases: global shared, then each name exclusive;
 * - read of all (`'*'`): global shared;
 * - write of all: global exclusive.
 * A read of all therefore does not wait for writers of single databases; it needs no lock of
 * them, since every statement it runs reads one committed state (and the listing is one statement).
 *
 * The locks are session locks taken before the transaction and released after it, so that a
 * transaction never starts on a snapshot older than the lock (a write waiting for another one
 * sees that one's changes). A server that dies loses its connections, and PostgreSQL releases
 * their locks. Locks are taken in one order (global first, then by key), and PostgreSQL detects
 * any deadlock among them anyway.
 */
import crypto from 'node:crypto';
import type { LockSet } from '../types';

/** Classes (first keys) of the store's advisory locks: 'xmld' and the numbers after it. */
export const LOCK_CLASS = {
  global: 0x786d6c64,
  database: 0x786d6c65,
  /** Migrations (object 0) and blob collection (object 1). */
  maintenance: 0x786d6c66,
} as const;

/** A signed 32-bit key of a database name (a collision only makes two names share a lock). */
export function nameKey(name: string): number {
  return crypto.createHash('sha256').update(name, 'utf8').digest().readInt32BE(0);
}

interface Lock {
  readonly cls: number;
  readonly key: number;
  readonly exclusive: boolean;
}

/** The locks a read or write of `dbs` takes, in order. */
export function lockPlan(dbs: LockSet, exclusive: boolean): Lock[] {
  if (dbs === '*') return [{ cls: LOCK_CLASS.global, key: 0, exclusive }];
  const keys = [...new Set(dbs.map(nameKey))].sort((a, b) => a - b);
  return [
    { cls: LOCK_CLASS.global, key: 0, exclusive: false },
    ...keys.map((key) => ({ cls: LOCK_CLASS.database, key, exclusive })),
  ];
}

/** One statement taking the locks of a plan in order (integers only: safe to inline). */
export function lockStatement(plan: readonly Lock[]): string {
  const calls = plan.map((l) => `pg_advisory_lock${l.exclusive ? '' : '_shared'}(${l.cls}, ${l.key})`);
  return `SELECT ${calls.join(', ')}`;
}
