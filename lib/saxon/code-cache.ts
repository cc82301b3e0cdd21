/**
 * saxon-js compiled from a V8 code cache, in query workers and in the main thread (load.ts
 * names the script; this module knows nothing of saxon-js).
 *
 * V8 compiles the top level of saxon-js's 2.4 MB script when it is loaded, and the compiler's
 * working memory (its zones) is malloc'ed: glibc keeps it in the thread's arena after the
 * compilation, fragmented, so every thread that loads saxon-js from source keeps about 34 MiB
 * resident for good (measured on Node 20: a worker that only loads saxon-js holds an arena of
 * 35 MiB; loaded from a code cache, 10 MiB). A code cache is deserialized instead of compiled.
 *
 * The main thread has the script compiled once (without running it) in a short-lived thread
 * (code-cache-thread.ts; in the main thread itself if that fails), before it loads saxon-js
 * itself or starts the first query worker, and publishes the cache as environment data
 * (`worker_threads.setEnvironmentData`), which every worker started afterwards receives; a
 * SharedArrayBuffer, so the threads share one copy; from source, the cache is kept on disk for the
 * next process (kept-code-cache.ts). A thread compiles with the cache and runs the
 * script as Node would (the same module wrapper, `require` relative to the package, registered
 * in `require.cache`, so that requiring the package again answers the same instance), except a
 * script run from a text other than its file's in the main thread: that instance stays the
 * caller's, and the application's own `require` of the file gets the file as shipped. V8 checks
 * that a cache matches the source, its own version and flags; a cache it rejects is ignored and
 * the script compiled as without one, so a cache can slow a thread's start at worst, never change
 * what it runs. Without a published cache (a worker started by other code) saxon-js is required
 * as usual.
 */
import { readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { Script } from 'node:vm';
import { getEnvironmentData, isMainThread, setEnvironmentData } from 'node:worker_threads';
import { codeCacheFromThread } from './code-cache-thread';
import { forgetKeptCodeCache, keepWarmCodeCache, keptCodeCache, type KeptCodeCache } from './kept-code-cache';

/** The environment data key of a published cache (a SharedArrayBuffer), per script file. */
function cacheKey(file: string): string {
  return `xmldb-rest:code-cache:${file}`;
}

/**
 * The environment data key of the files of a published cache (from source: `KeptCodeCache`
 * without its bytes), per script file: a worker forgets the file V8 rejects, and keeps a warm
 * cache where the main thread says (its own flags may differ, and V8's are the process's).
 */
function keptKey(file: string): string {
  return `xmldb-rest:code-cache-files:${file}`;
}

/**
 * The environment data key of a published script text (the UTF-8 bytes of a text other than the
 * file's, in a SharedArrayBuffer), per script file: a worker compiles the text the main thread
 * made instead of making it again (saxon-js's patched text takes about 20 ms to make, 1 to decode).
 */
function textKey(file: string): string {
  return `xmldb-rest:script-text:${file}`;
}

/** The script text the main thread published for `file`, if any. */
function publishedText(file: string): string | undefined {
  const shared = getEnvironmentData(textKey(file));
  return shared instanceof SharedArrayBuffer ? Buffer.from(shared).toString('utf8') : undefined;
}

/** Whether V8 took the cache of each script this thread compiled from one. */
const outcomes = new Map<string, 'accepted' | 'rejected'>();

/** Whether this thread compiled `file` from a published cache that V8 accepted (or rejected); undefined if not from a cache. */
export function codeCacheOutcome(file: string): 'accepted' | 'rejected' | undefined {
  return outcomes.get(file);
}

/** The script's text as it is to run, when it is not the file's own: made only when a thread compiles it. */
export type ScriptSource = () => string;

/** A CommonJS script, as Node's module loader compiles it: `text`, else the file's. */
function wrappedSource(file: string, text: string | undefined): string {
  return Module.wrap(text ?? readFileSync(file, 'utf8'));
}

/**
 * Main thread: publishes the code cache of the CommonJS script `file` for itself and the workers
 * started from now on (once per process; compiled in a short-lived thread, else here; nothing on
 * failure, the threads then compile as before). `source`: the script's text as it is to run, when
 * it is not the file's own (the threads that require it pass the same text); it is published
 * with the cache.
 */
export function publishCodeCache(file: string, source?: ScriptSource): void {
  if (!isMainThread || getEnvironmentData(cacheKey(file)) !== undefined) return;
  try {
    const text = source?.();
    const kept = keptCodeCache(
      () => wrappedSource(file, text),
      () => codeCacheFromThread(file, text) ?? compiledHere(file, text),
    );
    if (kept === undefined) return;
    setEnvironmentData(cacheKey(file), kept.shared);
    if (kept.file !== undefined) setEnvironmentData(keptKey(file), { file: kept.file, warmFile: kept.warmFile });
    if (text !== undefined) setEnvironmentData(textKey(file), sharedBytes(Buffer.from(text, 'utf8')));
  } catch {
    // without a cache
  }
}

/** The code cache of `file`, compiled in this thread. */
function compiledHere(file: string, text: string | undefined): SharedArrayBuffer {
  return sharedBytes(new Script(wrappedSource(file, text), { filename: file }).createCachedData());
}

/** `bytes` copied into memory that every thread shares. */
function sharedBytes(bytes: Uint8Array): SharedArrayBuffer {
  const shared = new SharedArrayBuffer(bytes.length);
  new Uint8Array(shared).set(bytes);
  return shared;
}

/** The scripts this worker compiled from a cache made without running them, by the file of their warm cache. */
const unwarmed = new Map<string, Script>();

/**
 * Worker: keeps the caches of the scripts it compiled from a cache made without running them,
 * made now from what the thread has run (kept-code-cache.ts, from source only, where none is kept
 * yet); the caller decides when the thread has run enough. Only the first call makes any: the
 * scripts are then dropped from the list.
 */
export function keepWarmCodeCaches(): void {
  for (const [warmFile, script] of unwarmed) keepWarmCodeCache(warmFile, () => script.createCachedData());
  unwarmed.clear();
}

/**
 * Whether this module was loaded by Node's own module loader, whose registry `require.cache` is
 * (a query worker always is: launch.ts). Under a loader with a registry and global context of its
 * own (a test runner's sandbox), a module run here would be a second instance, outside of both:
 * the main thread then requires it through that loader.
 */
function nodeRegistry(): boolean {
  return require.cache === createRequire(__filename).cache;
}

/**
 * The exports of the CommonJS script `file`, compiled from the published cache and run as Node
 * runs a module, in a thread that has a published cache (the main thread once it published one,
 * when Node's loader loaded this module; a worker started after that); undefined elsewhere (the
 * caller requires it). `source`: as given to `publishCodeCache`; a worker takes the text the main
 * thread published instead, when there is one.
 */
export function requireFromCodeCache(file: string, source?: ScriptSource): unknown {
  const shared = getEnvironmentData(cacheKey(file));
  if (!(shared instanceof SharedArrayBuffer) || (isMainThread && !nodeRegistry())) return undefined;
  // the module of Node's registry, unless it would run a text other than the file's where the application requires it too
  const registered = source === undefined || !isMainThread;
  const cached = registered ? require.cache[file] : undefined;
  if (cached?.loaded) return cached.exports;
  const wrapped = wrappedSource(file, (isMainThread ? undefined : publishedText(file)) ?? source?.());
  const script = new Script(wrapped, { filename: file, cachedData: new Uint8Array(shared) });
  outcomes.set(file, script.cachedDataRejected === true ? 'rejected' : 'accepted');
  const kept = getEnvironmentData(keptKey(file)) as Omit<KeptCodeCache, 'shared'> | undefined;
  if (script.cachedDataRejected === true && kept?.file !== undefined) forgetKeptCodeCache(kept.file);
  if (!isMainThread && kept?.warmFile !== undefined) unwarmed.set(kept.warmFile, script);
  const mod = new Module(file, module);
  mod.filename = file;
  const body = script.runInThisContext() as (exports: unknown, req: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
  if (registered) require.cache[file] = mod;
  try {
    body.call(mod.exports, mod.exports, createRequire(file), mod, file, path.dirname(file));
  } catch (e) {
    if (registered) delete require.cache[file];
    throw e;
  }
  mod.loaded = true;
  return mod.exports;
}
