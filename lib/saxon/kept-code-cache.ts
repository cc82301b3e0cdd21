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
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { FROM_SOURCE } from '../threads/launch';
import { codeCacheContext, keepSourceCacheFile, sourceCacheFile } from '../threads/source-cache';

/**
 * The code cache of the script whose text in Node's module wrapper `wrapped` gives: the kept one
 * when running from source and there is one, else `compile()`'s, which is then kept.
 */
export function keptCodeCache(wrapped: () => string, compile: () => SharedArrayBuffer | undefined): SharedArrayBuffer | undefined {
  if (!FROM_SOURCE) return compile();
  const file = keptCodeCacheFile(wrapped());
  try {
    const bytes = fs.readFileSync(file);
    if (bytes.length > 0) {
      const shared = new SharedArrayBuffer(bytes.length);
      new Uint8Array(shared).set(bytes);
      return shared;
    }
  } catch {
    // not kept yet
  }
  const shared = compile();
  if (shared !== undefined) keepSourceCacheFile(file, new Uint8Array(shared));
  return shared;
}

/** The file that keeps the code cache of `wrapped` in this process's Node and flags. */
export function keptCodeCacheFile(wrapped: string): string {
  const hash = createHash('sha256').update(codeCacheContext()).update('\0');
  return sourceCacheFile(`code-cache-${hash.update(wrapped).digest('hex')}.bin`);
}

/** Removes the kept code cache of `wrapped` (V8 rejected it), so that the next process compiles it again. */
export function forgetKeptCodeCache(wrapped: string): void {
  if (!FROM_SOURCE) return;
  try {
    fs.rmSync(keptCodeCacheFile(wrapped), { force: true });
  } catch {
    // left for V8 to reject again
  }
}
