/**
 * Files that a process running from source keeps for the next one (launch.ts `FROM_SOURCE`:
 * under jest, or a server run from its TypeScript): the source bootstrap's transpiled modules
 * (launch.ts `sourceLoader`), compiled SEFs (xquery/worker/sef-disk-cache.ts) and V8 code caches
 * (saxon/kept-code-cache.ts). They lie in one folder next to the `sucrase` package the
 * bootstrap uses, which a source-mode query host may read and write (host-flags.ts); each is
 * named by a digest of everything its content depends on, so a stale one is never read, and the
 * folder may be deleted at any time. A compiled package (dist/) keeps nothing.
 *
 * Every edit of a source file adds files under new names and the old ones are never read again,
 * so the folder only grows: 267 MB in two days of test runs, most of it code caches of 2.5 MB
 * each. Once a day, the first source-mode thread or process deletes the files neither read nor
 * written for PRUNE_AFTER_MS (`pruneSourceCache`). "Read" is the file's access time, which Linux
 * updates at least daily on a read unless the file system is mounted `noatime`; there a file in
 * use is deleted too, and written again by the next process that needs it (a transpilation or a
 * compilation, once).
 */
import fs from 'node:fs';
import path from 'node:path';
import { threadId } from 'node:worker_threads';

/** Files neither read nor written for this long are deleted (`pruneKeptFiles`). */
export const PRUNE_AFTER_MS = 7 * 24 * 3600 * 1000;
/** A folder is pruned at most once in this long: its marker file says when it was last. */
export const PRUNE_EVERY_MS = 24 * 3600 * 1000;
/** The marker file of the last pruning, in the folder. */
export const PRUNE_MARKER = '.pruned';

/** The folder of the kept files (next to the `sucrase` package the source bootstrap uses). */
export function transpileCacheDir(): string {
  return path.join(path.dirname(require.resolve('sucrase/package.json')), '..', '.cache', 'xmldb-rest-worker');
}

/**
 * What a V8 code cache kept here depends on besides its script, as one string: Node's version,
 * the architecture and the process's flags (`execArgv`, `NODE_OPTIONS`), which set V8's. Not the
 * script of `-e`/`--eval`/`-p`/`--print`, which sets none and may differ in every process (a
 * server started from source by a test has its data folder and port in it): with it, each such
 * process made caches under names no other process looks for. The source loader embeds its text
 * (launch.ts `sourceLoader`), so it is self-contained and written in syntax that every transform
 * leaves as it is (no `??` or `?.`, which a transform for older engines rewrites into helpers).
 */
export function codeCacheContext(execArgv: readonly string[] = process.execArgv, nodeOptions: string = process.env.NODE_OPTIONS || ''): string {
  const flags: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const flag = execArgv[i];
    if (flag === '-e' || flag === '--eval' || flag === '-p' || flag === '--print') i++;
    else if (!/^--(?:eval|print)=/.test(flag)) flags.push(flag);
  }
  return [process.version, process.arch, ...flags, nodeOptions].join('\0');
}

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

/**
 * Deletes the files of `folder` last read or written more than PRUNE_AFTER_MS before `now`, unless its
 * marker says it was pruned less than PRUNE_EVERY_MS before `now`; answers how many it deleted.
 * The marker is written first, so that processes starting together do not all walk the folder.
 * A file another process reads meanwhile is only missed by it, and made again. Failures are
 * ignored: the folder only saves time.
 */
export function pruneKeptFiles(folder: string, now: number): number {
  const marker = path.join(folder, PRUNE_MARKER);
  let deleted = 0;
  try {
    if (now - fs.statSync(marker).mtimeMs < PRUNE_EVERY_MS) return 0;
  } catch {
    // never pruned (or no folder yet)
  }
  try {
    fs.writeFileSync(marker, '');
    fs.utimesSync(marker, now / 1000, now / 1000);
    for (const name of fs.readdirSync(folder)) {
      if (name === PRUNE_MARKER) continue;
      const file = path.join(folder, name);
      try {
        const { atimeMs, mtimeMs } = fs.statSync(file);
        if (now - Math.max(atimeMs, mtimeMs) > PRUNE_AFTER_MS) {
          fs.rmSync(file, { force: true });
          deleted++;
        }
      } catch {
        // gone meanwhile
      }
    }
  } catch {
    // no folder, or not writable here
  }
  return deleted;
}

let pruned = false;

/** Prunes the folder of kept files (`pruneKeptFiles`), once per copy of this module (a process; under jest, a test file). */
export function pruneSourceCache(): void {
  if (pruned) return;
  pruned = true;
  pruneKeptFiles(transpileCacheDir(), Date.now());
}
