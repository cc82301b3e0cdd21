/**
 * From source only (threads/source-cache.ts), the V8 code cache that a process publishes for its
 * query workers (code-cache.ts) is kept on disk, so that the next process reads it instead of
 * compiling saxon-js's 2.4 MB script again: about 0.3 s of CPU a process (measured on Node 20:
 * 270-310 ms to compile it in a thread, 13-16 ms to read the kept file), and the test suite starts
 * dozens of query hosts and servers.
 *
 * A file is named by a digest of the script's text as it runs (the patched saxon-js) and of what
 * else V8 checks a cache against: Node's version, the architecture and the process's flags
 * (threads/source-cache.ts `codeCacheContext`). V8 checks a cache against the length of
 * the source, not its text, so the text's digest is what keeps a patched script from running with
 * the code of another. A cache V8 still rejects costs time only (the threads compile as before),
 * and the thread that finds it rejected removes it, so the next process compiles it again.
 *
 * A cache compiled without running the script holds the code of its top level only; every
 * function a thread then calls is compiled in that thread: the XSLT compiler and the transform
 * code in every query worker's first queries. So the first query worker that has compiled a
 * stylesheet and run one keeps a second cache, made from its script after that (`warmFile`), and the
 * processes started afterwards publish that one: a new worker's first compilation took 57-62 ms
 * of CPU instead of 74-89 and its first run 0.3 ms instead of 1.0 (measured on Node 20, a 3.1 MB
 * cache against 2.6 MB). A built package keeps no files, and its workers compile their first
 * queries' code as before.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { FROM_SOURCE } from '../threads/launch';
import { codeCacheContext, keepSourceCacheFile, sourceCacheFile } from '../threads/source-cache';

/** A code cache as `keptCodeCache` answers it. */
export interface KeptCodeCache {
  readonly shared: SharedArrayBuffer;
  /** The file it was read from or kept in (from source). */
  readonly file?: string;
  /** Where a thread that ran the script keeps the cache it makes then (from source, when the cache is not that one already). */
  readonly warmFile?: string;
}

/**
 * The code cache of the script whose text in Node's module wrapper `wrapped` gives: when running
 * from source, the kept one, a warm one first; else `compile()`'s, which is then kept.
 */
export function keptCodeCache(wrapped: () => string, compile: () => SharedArrayBuffer | undefined): KeptCodeCache | undefined {
  if (!FROM_SOURCE) {
    const shared = compile();
    return shared === undefined ? undefined : { shared };
  }
  const digest = cacheDigest(wrapped());
  const [warmFile, coldFile] = [cacheFile(digest, true), cacheFile(digest, false)];
  for (const file of [warmFile, coldFile]) {
    try {
      const bytes = fs.readFileSync(file);
      if (bytes.length > 0) {
        const shared = new SharedArrayBuffer(bytes.length);
        new Uint8Array(shared).set(bytes);
        return { shared, file, warmFile: file === warmFile ? undefined : warmFile };
      }
    } catch {
      // not kept yet
    }
  }
  const shared = compile();
  if (shared === undefined) return undefined;
  keepSourceCacheFile(coldFile, new Uint8Array(shared));
  return { shared, file: coldFile, warmFile };
}

/**
 * The file that keeps the code cache of `wrapped` in this process's Node and flags; `warm`: the
 * one made after running the script.
 */
export function keptCodeCacheFile(wrapped: string, warm = false): string {
  return cacheFile(cacheDigest(wrapped), warm);
}

/** The digest that names the kept caches of `wrapped` in this process's Node and flags (2.4 MB of saxon-js: hashed once for both files). */
function cacheDigest(wrapped: string): string {
  return createHash('sha256').update(codeCacheContext()).update('\0').update(wrapped).digest('hex');
}

function cacheFile(digest: string, warm: boolean): string {
  return sourceCacheFile(`code-cache-${warm ? 'warm-' : ''}${digest}.bin`);
}

/**
 * Keeps `data()`, a cache made after running its script, as `warmFile` (`KeptCodeCache`) unless
 * another thread kept it meanwhile.
 */
export function keepWarmCodeCache(warmFile: string, data: () => Uint8Array): void {
  if (!fs.existsSync(warmFile)) keepSourceCacheFile(warmFile, data());
}

/** Removes a kept code cache `file` that V8 rejected, so that the next process compiles it again. */
export function forgetKeptCodeCache(file: string): void {
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // left for V8 to reject again
  }
}
