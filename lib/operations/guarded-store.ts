/**
 * The permission decision made where the data is read and changed: a session's store is the
 * router's store seen through its user's permissions. Every path (REST, commands, scripts, `run`
 * files, queries and the store changes they compute, xquery:eval) reads and writes through the
 * views this store hands out, so a database name computed at run time is judged like a literal
 * one, by the database it reaches. Checks made earlier (planning a script, analysing a query,
 * a REST operation before it reads the body) may refuse early; they never approve anything.
 *
 * The rules (README, Security, "Permissions"):
 * - reading a database needs `read` on it: a database the user may not read is not listed, its
 *   resources and backups are not found, and it is the source of no copy, rename or restore;
 * - storing, deleting and renaming resources and setting options need `write` on the database;
 * - creating, dropping, renaming, copying, backing up and restoring databases need the global
 *   `create`, and on top `read` on every database they read (a copy's source, a backed-up
 *   database, a restored backup's database) and `write` on every database they change or
 *   replace (a created, dropped or renamed one, a copy's or restore's target, a backup's
 *   database whose backups are renamed or dropped).
 * Admins may do everything: their sessions use the store as it is.
 */
import type { Readable } from 'node:stream';
import { raise } from '../xmldb-error';
import { backupOwner } from '../store/backup-names';
import { STORE_ERRORS } from '../store/store-errors';
import type {
  BackupInfo,
  DatabaseInfo,
  DatabaseOptions,
  FullTextFound,
  FullTextLookup,
  LockSet,
  PutConditions,
  ReadView,
  ResourceInfo,
  ResourceInput,
  Store,
  WriteView,
} from '../store/types';
import { allows, permissionNeeded, type PermissionHolder } from '../users/permissions';
import type { Runtime } from './composition-root';

/** The runtime as `user`'s requests use it: its store seen through the user's permissions. */
export function runtimeOfUser(runtime: Runtime, user: PermissionHolder): Runtime {
  return user.perm === 'admin' ? runtime : { ...runtime, store: new GuardedStore(runtime.store, user) };
}

/**
 * `workerReader` and `ping` are not offered: the engine takes its reader from the router's store
 * when it starts (query workers read only the databases a request names as readable), and the
 * health probe asks the router's store.
 */
class GuardedStore implements Store {
  constructor(
    private readonly store: Store,
    private readonly user: PermissionHolder,
  ) {}

  read<T>(dbs: LockSet, fn: (view: ReadView) => Promise<T>): Promise<T> {
    return this.store.read(dbs, (view) => fn(new GuardedView(view, this.user)));
  }

  write<T>(dbs: LockSet, fn: (view: WriteView) => Promise<T>): Promise<T> {
    return this.store.write(dbs, (view) => fn(new GuardedWriteView(view, this.user)));
  }

  subscribe(fn: (db: string) => void): () => void {
    return this.store.subscribe(fn);
  }

  close(): Promise<void> {
    return this.store.close();
  }
}

class GuardedView implements ReadView {
  constructor(
    protected readonly view: ReadView,
    protected readonly user: PermissionHolder,
  ) {}

  protected readable(db: string): boolean {
    return allows(this.user, 'read', db);
  }

  /** A database the user may not read does not exist for them. */
  protected needRead(db: string): void {
    if (!this.readable(db)) throw raise(STORE_ERRORS, 'DB_NOT_FOUND_X', db);
  }

  async listDatabases(): Promise<DatabaseInfo[]> {
    return (await this.view.listDatabases()).filter((d) => this.readable(d.name));
  }

  async database(name: string): Promise<DatabaseInfo | undefined> {
    return this.readable(name) ? this.view.database(name) : undefined;
  }

  async listResources(db: string, path?: string): Promise<ResourceInfo[]> {
    this.needRead(db);
    return this.view.listResources(db, path);
  }

  async resource(db: string, path: string): Promise<ResourceInfo | undefined> {
    this.needRead(db);
    return this.view.resource(db, path);
  }

  async readBytes(db: string, path: string): Promise<Buffer> {
    this.needRead(db);
    return this.view.readBytes(db, path);
  }

  async readMany(db: string, paths: readonly string[], maxBytes: number): Promise<(Buffer | null)[]> {
    this.needRead(db);
    return this.view.readMany ? this.view.readMany(db, paths, maxBytes) : paths.map(() => null);
  }

  openStream(db: string, path: string, range?: { start: number; end: number }): Readable {
    this.needRead(db);
    return this.view.openStream(db, path, range);
  }

  async versions(dbs: LockSet): Promise<ReadonlyMap<string, string>> {
    const all = await this.view.versions(dbs);
    return new Map([...all].filter(([db]) => this.readable(db)));
  }

  async listBackups(): Promise<BackupInfo[]> {
    return (await this.view.listBackups()).filter((b) => this.readable(backupOwner(b.name)));
  }

  async fullText(db: string, lookup: FullTextLookup): Promise<FullTextFound | undefined> {
    this.needRead(db);
    return this.view.fullText?.(db, lookup);
  }

  async summaries(db: string, etags: readonly string[]): Promise<(Uint8Array | null)[]> {
    this.needRead(db);
    return this.view.summaries ? this.view.summaries(db, etags) : etags.map(() => null);
  }
}

class GuardedWriteView extends GuardedView implements WriteView {
  constructor(
    private readonly writer: WriteView,
    user: PermissionHolder,
  ) {
    super(writer, user);
  }

  private needWrite(db: string): void {
    if (!allows(this.user, 'write', db)) throw permissionNeeded('write');
  }

  private needCreate(): void {
    if (!allows(this.user, 'create')) throw permissionNeeded('create');
  }

  /** A backup of a database the user may not read does not exist for them. */
  private needBackup(name: string): void {
    if (!this.readable(backupOwner(name))) throw raise(STORE_ERRORS, 'BACKUP_NOT_FOUND_X', name);
  }

  async createDatabase(name: string, options?: DatabaseOptions): Promise<void> {
    this.needCreate();
    this.needWrite(name);
    return this.writer.createDatabase(name, options);
  }

  async dropDatabase(name: string): Promise<boolean> {
    this.needCreate();
    this.needRead(name);
    this.needWrite(name);
    return this.writer.dropDatabase(name);
  }

  async renameDatabase(from: string, to: string): Promise<void> {
    this.needCreate();
    this.needRead(from);
    this.needWrite(from);
    this.needWrite(to);
    return this.writer.renameDatabase(from, to);
  }

  async copyDatabase(from: string, to: string): Promise<void> {
    this.needCreate();
    this.needRead(from);
    this.needWrite(to);
    return this.writer.copyDatabase(from, to);
  }

  async setOptions(db: string, options: DatabaseOptions): Promise<void> {
    this.needWrite(db);
    return this.writer.setOptions(db, options);
  }

  async putResource(db: string, path: string, input: ResourceInput, conditions?: PutConditions): Promise<ResourceInfo | undefined> {
    this.needWrite(db);
    return this.writer.putResource(db, path, input, conditions);
  }

  async deleteResources(db: string, path: string): Promise<number> {
    this.needWrite(db);
    return this.writer.deleteResources(db, path);
  }

  async renameResources(db: string, from: string, to: string): Promise<number> {
    this.needWrite(db);
    return this.writer.renameResources(db, from, to);
  }

  async createBackup(db: string, name: string): Promise<void> {
    this.needCreate();
    this.needRead(db);
    return this.writer.createBackup(db, name);
  }

  async restoreBackup(name: string, db: string): Promise<void> {
    this.needCreate();
    this.needBackup(name);
    this.needWrite(db);
    return this.writer.restoreBackup(name, db);
  }

  async dropBackup(name: string): Promise<boolean> {
    this.needCreate();
    this.needBackup(name);
    this.needWrite(backupOwner(name));
    return this.writer.dropBackup(name);
  }

  async renameBackup(from: string, to: string): Promise<void> {
    this.needCreate();
    this.needBackup(from);
    this.needWrite(backupOwner(from));
    this.needWrite(backupOwner(to));
    return this.writer.renameBackup(from, to);
  }

  checkpoint(): Promise<void> {
    return this.writer.checkpoint();
  }
}
