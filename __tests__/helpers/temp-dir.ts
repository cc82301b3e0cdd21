/**
 * Temporary folders for tests, in a module of their own: importing rest.ts also lowers the
 * password hash cost (fast-hashes.ts), which a test of users or hashing must not get by the way.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The global of a test file under which the suite's test environment (query-host-environment.ts)
 * collects the folders `tempDir` makes, to remove them once the file's tests and hooks are done.
 */
export const TEMP_DIRS = Symbol.for('xmldb-rest:test-temp-dirs');

/**
 * A fresh, empty folder in the system's temporary folder, named `prefix` and a unique suffix;
 * removed after the test file (by the test environment), and earlier by tests that remove it.
 */
export function tempDir(prefix = 'xmldb-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  ((globalThis as Record<symbol, unknown>)[TEMP_DIRS] as string[] | undefined)?.push(dir);
  return dir;
}
