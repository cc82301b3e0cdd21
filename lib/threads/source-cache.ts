/**
 * Files that a process running from source keeps for the next one (launch.ts `FROM_SOURCE`:
 * under jest, or a server run from its TypeScript): compiled SEFs (xquery/worker/sef-disk-cache.ts)
 * and V8 code caches (saxon/kept-code-cache.ts). They lie in the folder of the source bootstrap's
 * transpiled files (launch.ts `transpileCacheDir`), which a source-mode query host may read and
 * write (host-flags.ts); each is named by a digest of everything its content depends on, so a
 * stale one is never read, and the folder may be deleted at any time. A compiled package (dist/)
 * keeps nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { transpileCacheDir } from './launch';

/** The path of the kept file `name`. */
export function sourceCacheFile(name: string): string {
  return path.join(transpileCacheDir(), name);
}

/**
 * Writes `data` to `file` through a temp name and a rename, so that processes starting together
 * never read half a file. Where it cannot be written, nothing is kept: the cache only saves time.
 */
export function keepSourceCacheFile(file: string, data: string | Uint8Array): void {
  const temp = `${file}.${process.pid}.${threadId}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(temp, data);
    fs.renameSync(temp, file);
  } catch {
    fs.rmSync(temp, { force: true });
  }
}
