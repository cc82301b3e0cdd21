/**
 * The embedded store: databases as folders of plain files under `dbPath`. On disk:
 *
 *   {dbPath}/users.json                    users (users/ module; reserved as a database name)
 *   {dbPath}/.store./commit.log            commit log: journals of recent commits (commit-log.ts)
 *   {dbPath}/{db}/{path}                   each resource, byte for byte, under its own path
 *   {dbPath}/{db}/.catalog./meta.json      options, created/modified, uid, generation, totals
 *   {dbPath}/{db}/.catalog./shard-XX.json  resource entries, sharded by path hash (catalog.ts)
 *   .{random}.tmp.                         temp files, beside their targets
 *   {dbPath}/.store./spares./              empty files made ahead for small writes (temp-pool.ts)
 *   {dbPath}/.stage-|.scratch-|.trash-{id}. work folders of a write or commit
 *   {dbPath}/.backups./{name}/             backups: copies of database folders (backups.ts)
 *   {dbPath}/.lock. and .lock-{token}.     the folder lock: its holder's record and socket (folder-lock.ts)
 *
 * Names ending in `.` are never resource paths and names starting with `.` never database names,
 * so internal files cannot collide with content. Reads and writes take the locks of the databases
 * they name; a write is staged and committed all or nothing when its function resolves.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { raise } from '../../xmldb-error';
import { isTempName, sweepTemps } from '../../atomic-files';
import { committedBackups } from './backups';
import { readMeta, type Catalog } from './catalog';
import { CommitFailure, commitDrafts } from './commit';
import { CommitLog, replayCommitLog } from './commit-log';
import { STORE_ERRORS } from '../store-errors';
import { InFlight } from '../in-flight';
import { ChangeListeners } from '../change-listeners';
import { replayJournals, STORE_DIR } from './journal';
import { SPARES_DIR, TempPool } from './temp-pool';
import { lockFolder, type FolderLock } from './folder-lock';
import { LockManager } from '../locks';
import { isValidDatabaseName } from '../resource-names';
import { databaseFolder } from './disk-paths';
import type { LockSet, ReadView, Store, WorkerReaderSpec, WriteView } from '../types';
import { DbRecord, StoreReadView, type DbResolver } from './views';
import { StoreWriteView } from './write-view';
import { SummaryLogs } from './summary-log';

/** Folders a write or commit creates in the data folder; left over only by a crash. */
const WORK_FOLDER = /^\.(stage|trash|scratch)-[A-Za-z0-9_-]+\.$/;

export interface FileStoreOptions {
  /**
   * Take the data folder's exclusive lock (folder-lock.ts) before touching anything, and release
   * it on close: a second opener fails. A server always does; tests that simulate a crash by
   * opening a folder again without closing it do not.
   */
  readonly exclusive?: boolean;
  /** Longest wait for the locks of a read or write, in ms (locks.ts); default: no limit. */
  readonly lockWaitMs?: number;
  /**
   * What to keep of each XML document put, beside it, for the queries that read it: the engine's
   * summary (accelerators/leaf-summaries/summary-record.ts), undefined for none. Kept in each
   * database's summary log (summary-log.ts), read by query workers (store/cache/sync-reader.ts).
   */
  readonly summarize?: (xml: Buffer) => Uint8Array | undefined;
}

/**
 * Opens the store in `dbPath` (created if missing): finishes interrupted commits, removes what
 * interrupted writes left, and reads every database's meta.
 */
export async function createFileStore(dbPath: string, options: FileStoreOptions = {}): Promise<FileStore> {
  return FileStore.open(dbPath, options);
}

export class FileStore implements Store {
  private readonly locks: LockManager;
  private readonly listeners = new ChangeListeners();
  private readonly inFlight = new InFlight();
  private failure: Error | undefined;
  private readonly log: CommitLog;
  private readonly summaryLogs: SummaryLogs;
  private readonly temps: TempPool;

  private constructor(
    /** The data folder, absolute. */
    readonly dbPath: string,
    private readonly committed: Map<string, DbRecord>,
    private readonly folderLock: FolderLock | undefined,
    private readonly options: FileStoreOptions,
  ) {
    this.locks = new LockManager(options.lockWaitMs);
    this.log = new CommitLog(dbPath);
    this.summaryLogs = new SummaryLogs(dbPath);
    this.temps = new TempPool(path.join(dbPath, STORE_DIR, SPARES_DIR));
  }

  /** See createFileStore. */
  static async open(dbPath: string, options: FileStoreOptions = {}): Promise<FileStore> {
    const root = path.resolve(dbPath);
    await fs.mkdir(root, { recursive: true });
    const lock = options.exclusive ? await lockFolder(root) : undefined;
    try {
      // Journal files come from data folders of earlier versions, older than any log record.
      await replayJournals(root);
      await replayCommitLog(root);
      await sweepDataFolder(root);
      return new FileStore(root, await loadDatabases(root), lock, options);
    } catch (error) {
      await lock?.release();
      throw error;
    }
  }

  read<T>(dbs: LockSet, fn: (view: ReadView) => Promise<T>): Promise<T> {
    return this.track(async () => {
      const release = await this.locks.acquire(dbs, false);
      try {
        this.checkUsable();
        return await fn(new StoreReadView(this.resolver()));
      } finally {
        release();
      }
    });
  }

  write<T>(dbs: LockSet, fn: (view: WriteView) => Promise<T>): Promise<T> {
    return this.track(async () => {
      let changed: string[];
      let result: T;
      const release = await this.locks.acquire(dbs, true);
      try {
        this.checkUsable();
        ({ result, changed } = await this.commitWrite(dbs, fn));
      } finally {
        release();
      }
      this.listeners.notify(changed);
      return result;
    });
  }

  /** Workers read the folder directly (cache/sync-reader.ts) while the request holds the locks. */
  workerReader(): WorkerReaderSpec {
    return { kind: 'files', dbPath: this.dbPath };
  }

  subscribe(fn: (db: string) => void): () => void {
    return this.listeners.add(fn);
  }

  async close(): Promise<void> {
    await this.inFlight.close();
    this.summaryLogs.close();
    await this.log.close();
    await this.temps.close();
    await this.folderLock?.release();
  }

  /** Runs a write's function on a new write view and commits what it staged. */
  private async commitWrite<T>(
    dbs: LockSet,
    fn: (view: WriteView) => Promise<T>,
  ): Promise<{ result: T; changed: string[] }> {
    const changed = new Set<string>();
    const commit = async (view: StoreWriteView): Promise<void> => {
      const names = await commitDrafts(
        { dbPath: this.dbPath, committed: this.committed, leftovers: view.leftovers, log: this.log },
        view.staged,
        view.stagedBackups,
      );
      names.forEach((n) => changed.add(n));
      await view.leftovers.clean();
      // a database dropped or given a new folder (created, replaced, renamed to) has a new log
      for (const [db, draft] of view.staged) if (draft === null || draft.mode === 'fresh') this.summaryLogs.forget(db);
      for (const [db, records] of view.takeSummaries()) {
        const catalog = () => this.committed.get(db)?.catalog();
        await this.summaryLogs.append(db, records, async () => liveEtags(await catalog()));
      }
    };
    const view = new StoreWriteView({ dbPath: this.dbPath, temps: this.temps, committed: this.committed, locked: dbs, checkpoint: commit, summarize: this.options.summarize });
    try {
      const result = await fn(view);
      view.seal();
      await commit(view);
      return { result, changed: [...changed] };
    } catch (error) {
      view.seal();
      if (error instanceof CommitFailure) {
        // The journal stays for the next start; its temp files must stay too.
        this.failure = error;
        throw raise(STORE_ERRORS, 'STORE_FAILED_X', error.message);
      }
      await view.leftovers.clean();
      if (changed.size > 0) this.listeners.notify([...changed]);
      throw error;
    }
  }

  private resolver(): DbResolver {
    return {
      names: () => [...this.committed.keys()],
      get: (name) => this.committed.get(name),
      backups: () => committedBackups(this.dbPath),
    };
  }

  private checkUsable(): void {
    if (this.failure) throw raise(STORE_ERRORS, 'STORE_FAILED_X', this.failure.message);
  }

  private track<T>(run: () => Promise<T>): Promise<T> {
    return this.inFlight.track(run);
  }
}

/** The etags of the versions a catalog holds (none for a database that is gone). */
function liveEtags(catalog: Catalog | undefined): ReadonlySet<string> {
  const etags = new Set<string>();
  if (catalog) for (const p of catalog.paths()) etags.add(catalog.get(p)!.etag);
  return etags;
}

/** Removes staging, scratch and trash folders, temp files and spare files left in the data folder by a crash. */
async function sweepDataFolder(root: string): Promise<void> {
  await fs.rm(path.join(root, STORE_DIR, SPARES_DIR), { recursive: true, force: true });
  for (const entry of await fs.readdir(root, { withFileTypes: true })) {
    if (WORK_FOLDER.test(entry.name) || isTempName(entry.name)) {
      await fs.rm(path.join(root, entry.name), { recursive: true, force: true });
    }
  }
  await sweepTemps(path.join(root, STORE_DIR));
}

/** Every folder with a valid database name and a catalog; temp files in it are swept. */
async function loadDatabases(root: string): Promise<Map<string, DbRecord>> {
  const result = new Map<string, DbRecord>();
  for (const entry of await fs.readdir(root, { withFileTypes: true })) {
    if (!entry.isDirectory() || !isValidDatabaseName(entry.name)) continue;
    const folder = databaseFolder(root, entry.name);
    const meta = await readMeta(folder);
    if (!meta) continue;
    await sweepTemps(folder);
    result.set(entry.name, new DbRecord(root, entry.name, folder, meta));
  }
  return result;
}
