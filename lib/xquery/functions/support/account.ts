/**
 * The account of the running query in a worker (update/user-changes.ts `QueryAccount`): set for
 * one run by worker/thread.ts from the task, read by the user: functions (functions/user.ts).
 * Outside a run, or for a run given none, no user is known.
 */
import type { QueryAccount } from '../../update/user-changes';

const NOBODY: QueryAccount = { name: '', users: [] };

let active: QueryAccount = NOBODY;

/** Runs `fn` with `account` as the running query's account. */
export function withAccount<T>(account: QueryAccount | undefined, fn: () => T): T {
  active = account ?? NOBODY;
  try {
    return fn();
  } finally {
    active = NOBODY;
  }
}

export function activeAccount(): QueryAccount {
  return active;
}
