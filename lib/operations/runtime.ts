/**
 * What one router owns: its options, the store of its data folder and its users. Created once,
 * lazily, on the first request (opening the store and the users file is asynchronous).
 */
import fs from 'node:fs/promises';
import type { ResolvedOptions } from '../options';
import { createFileStore } from '../store';
import type { Store } from '../store/types';
import { ensureAdmin } from '../users/admin';
import { UserStore } from '../users/user-store';
import { createEngine, type Engine } from '../xquery/engine';
import { storeSourceSpec } from '../xquery/modules/store-source';

const MiB = 1024 * 1024;

export interface Runtime {
  readonly options: ResolvedOptions;
  readonly store: Store;
  readonly users: UserStore;
  /** Evaluates queries on worker threads (started on the first query). */
  readonly engine: Engine;
}

export async function openRuntime(options: ResolvedOptions): Promise<Runtime> {
  // The data folder holds every database and the password hashes: its owner's alone.
  await fs.mkdir(options.dbPath, { recursive: true, mode: 0o700 });
  // a request waits for its locks at most as long as a query may run (then 503, not a hang)
  const store = await createFileStore(options.dbPath, { exclusive: true, lockWaitMs: options.queryTimeout });
  let users: UserStore;
  try {
    users = await UserStore.open(options.dbPath);
    await ensureAdmin(users, options.dbPath, options.adminPassword, options.logger);
  } catch (error) {
    await store.close(); // releases the data folder, so that a later start can try again
    throw error;
  }
  const engine = createEngine({
    dbPath: options.dbPath,
    workers: options.workers,
    timeoutMs: options.queryTimeout,
    compiledCacheSize: options.compiledQueryCacheSize,
    maxQueued: options.maxQueuedQueries,
    workerHeapMb: Math.floor(options.workerMemory / MiB),
    maxResultBytes: options.maxResultBytes,
    // one budget for the whole router: each worker caches its share (README, documentCacheSize)
    documentSource: storeSourceSpec({ cacheBytes: Math.floor(options.documentCacheSize / options.workers) }),
    // fn:trace and saxon's messages: diagnostics for the host's logger, never the process's streams.
    output: (line, stream) => options.logger.debug({ stream }, line),
  });
  return { options, store, users, engine };
}

export async function closeRuntime(runtime: Runtime): Promise<void> {
  await runtime.store.close();
  await runtime.engine.close();
}
