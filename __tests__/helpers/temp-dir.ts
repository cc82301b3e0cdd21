/** A fresh, empty folder under the system's temporary folder; the test that makes it removes it. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Makes the folder, named `prefix` and a unique suffix (kept apart from rest.ts, which tunes password hashing). */
export function tempDir(prefix = 'xmldb-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}
