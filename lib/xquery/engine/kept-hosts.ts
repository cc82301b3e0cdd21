/** Host processes kept for later hosts (query-host.ts `kept`). */
import type { ChildProcess } from 'node:child_process';

/**
 * Host processes that outlive their hosts (test harnesses: one jest worker runs many test files,
 * each with its own instance of this module), by their settings (a host's `settings` key).
 */
export interface KeptHosts {
  /** A kept process started with `settings`, ready and idle, now the caller's; undefined if none. */
  take(settings: string): ChildProcess | undefined;
  /** Keeps `process` (ready, idle, no listener of the host left on it) for a later host with `settings`. */
  keep(settings: string, process: ChildProcess): void;
}
