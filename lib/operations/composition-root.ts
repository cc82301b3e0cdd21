/**
 * The composition root of one router: what it owns, its options, its store, its users and its
 * query engine. Created once, lazily, on the first request (opening the store and the users is
 * asynchronous). The store is the data folder's, or with `storeUrl` the PostgreSQL store shared
 * with other servers, which keeps the users too.
 */
import fs from 'node:fs/promises';
import type { Logger, ResolvedOptions } from '../router-options';
import { createFileStore } from '../store/file/file-store';
import { isPostgresStore, pgStoreModule } from '../store/postgres/load-pg-store';
import type { Store } from '../store/types';
import { ensureAdmin } from '../users/admin';
import { PgUsers } from '../users/pg-users';
import { UserStore } from '../users/user-store';
import { createEngine, type Engine } from '../xquery/engine/engine';
import { storeSourceSpec } from '../xquery/worker/documents/store-source';
import { fullTextPostings } from '../xquery/accelerators/fulltext-index/fulltext-store-rows';
import { summaryRecord } from '../xquery/accelerators/leaf-summaries/summary-record';
import type { WorkerOutput } from '../xquery/host/launch';
import { ResourceBytes } from './resource-bytes';

const MiB = 1024 * 1024;

export interface Runtime {
  readonly options: ResolvedOptions;
  readonly store: Store;
  readonly users: UserStore;
  /** Evaluates queries on worker threads (started on the first query). */
  readonly engine: Engine;
  /** The bytes of small resources GET answers with, kept by version (resource-bytes.ts). */
  readonly resourceBytes: ResourceBytes;
}

export async function openRuntime(options: ResolvedOptions): Promise<Runtime> {
  // The data folder holds every database and the password hashes: its owner's alone.
  await fs.mkdir(options.dbPath, { recursive: true, mode: 0o700 });
  const { store, users } = await openStore(options);
  const engine = createEngine({
    workers: options.workers,
    timeoutMs: options.queryTimeout,
    compiledCacheSize: options.compiledQueryCacheSize,
    maxQueued: options.maxQueuedQueries,
    workerHeapMb: Math.floor(options.workerMemory / MiB),
    maxResultBytes: options.maxResultBytes,
    fileAccess: options.allowFileAccess,
    ownHost: options.ownQueryHost,
    // one budget for the whole router, across its workers (README, documentCacheSize), and for the
    // routers that share its query host (xquery/engine/shared-hosts.ts)
    // the query host reads the store through the request's view only (xquery/engine/query-host.ts)
    documentSource: storeSourceSpec({ cacheBytes: options.documentCacheSize, reader: { kind: 'channel' } }),
    output: workerOutput(options.logger),
  });
  return { options, store, users, engine, resourceBytes: new ResourceBytes() };
}

/** The worker output function of each logger: routers with one logger may share a query host (xquery/engine/shared-hosts.ts). */
const outputs = new WeakMap<Logger, WorkerOutput>();

/** fn:trace and saxon's messages: diagnostics for the host's logger, never the process's streams. */
function workerOutput(logger: Logger): WorkerOutput {
  let output = outputs.get(logger);
  if (!output) outputs.set(logger, (output = (line, stream) => logger.debug({ stream }, line)));
  return output;
}

/** The store and its users, with `admin` created on a store without it. */
async function openStore(options: ResolvedOptions): Promise<{ store: Store; users: UserStore }> {
  // A request waits for its locks a bounded time (then 503, not a hang): twice the time a query
  // may run, so that a request queued behind one query that runs to its limit (and the stop and
  // the release that follow) still gets its turn.
  const lockWaitMs = 2 * options.queryTimeout;
  const store =
    options.storeUrl === undefined
      ? await createFileStore(options.dbPath, { exclusive: true, lockWaitMs, summarize: summaryRecord })
      : await pgStoreModule().createPostgresStore(options.storeUrl, { lockWaitMs, fullText: fullTextPostings, summarize: summaryRecord });
  let users: UserStore | undefined;
  try {
    users = isPostgresStore(store) ? await UserStore.on(new PgUsers(store.controlPool)) : await UserStore.open(options.dbPath);
    await ensureAdmin(users, options.dbPath, options.adminPassword, options.logger);
    return { store, users };
  } catch (error) {
    await users?.close();
    await store.close(); // releases the data folder, so that a later start can try again
    throw error;
  }
}

export async function closeRuntime(runtime: Runtime): Promise<void> {
  await runtime.users.close();
  await runtime.store.close();
  await runtime.engine.close();
}
