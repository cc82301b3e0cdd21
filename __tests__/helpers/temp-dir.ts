/**
 * Temporary folders for tests, in a module of their own: importing rest.ts also lowers the
 * password hash cost (fast-hashes.ts), which a test of users or hashing must not get by the way.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A fresh, empty folder in the system's temporary folder, named `prefix` and a unique suffix; the test removes it. */
export function tempDir(prefix = 'xmldb-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}
