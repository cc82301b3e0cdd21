/**
 * The write view: every change is staged in drafts (new bytes in temp files, entries in memory);
 * reads through the view see the staged state. commit.ts applies the drafts when the write's
 * function resolves; if it throws, the drafts and their temp files are dropped.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { raise } from '../../xmldb-error';
import type { TempPool } from './temp-pool';
import { contentDigestYielding, errorCode, flushFiles, linkOrCopy, writeTemp } from '../../atomic-files';
import { backupFolder, backupInfo, backupsFolder, type BackupRecord } from './backups';
import { backupOwner, checkBackupName } from '../backup-names';
import { INLINE_BYTES } from './commit-log';
import { Catalog, newMeta, readMeta, type CatalogEntry, type DatabaseMeta } from './catalog';
import { randomId } from '../random-id';
import { DbDraft } from './draft';
import { STORE_ERRORS } from '../store-errors';
import { contentTypeOf } from '../media-types';
import { checkDatabaseName, checkPath, checkResourcePath, movedPath } from '../resource-names';
import { databaseFolder, inside, resourceFile } from './disk-paths';
import type { DatabaseOptions, LockSet, PutConditions, ResourceInfo, ResourceInput, WriteView } from '../types';
import { resourceInfo, StoreReadView, type DbRecord, type DbView } from './views';
import { draftResolver, type BackupChanges, type Drafts } from './draft-resolver';
import { Leftovers, tempFolder } from './write-files';
import { logRecord } from './summary-log';

export { Leftovers, tempFolder } from './write-files';

/** What a write view needs of the store. */
export interface WriteContext {
  readonly dbPath: string;
  /** Empty files made ahead, for the writes of small content (temp-pool.ts). */
  readonly temps: TempPool;
  /** The committed databases (read only here). */
  readonly committed: ReadonlyMap<string, DbRecord>;
  /** The databases locked for writing. */
  readonly locked: LockSet;
  /** Commits the view's drafts so far (see `WriteView.checkpoint`). */
  readonly checkpoint?: (view: StoreWriteView) => Promise<void>;
  /** The summary of an XML document to keep beside it (FileStoreOptions `summarize`). */
  readonly summarize?: (xml: Buffer) => Uint8Array | undefined;
}

/** A file to link into a staged backup folder; `flush` for a temp file of this write. */
interface StagedFile {
  readonly p: string;
  readonly entry: CatalogEntry;
  readonly file: string;
  readonly flush: boolean;
}

/** A new etag: unique across writes and restarts. */
export function newEtag(): string {
  return randomId();
}

export class StoreWriteView extends StoreReadView implements WriteView {
  readonly leftovers = new Leftovers();
  /** Records of the summary logs (summary-log.ts) of the XML documents put since the last commit, by database. */
  private putSummaries = new Map<string, Buffer[]>();
  private scratch: string | undefined;
  private sealed = false;

  constructor(
    private readonly ctx: WriteContext,
    private readonly drafts: Drafts = new Map(),
    private readonly backups: BackupChanges = new Map(),
  ) {
    super(draftResolver(ctx.dbPath, ctx.committed, drafts, backups));
  }

  /** Refuses further changes: the write's function has ended. */
  seal(): void {
    this.sealed = true;
  }

  async checkpoint(): Promise<void> {
    if (this.sealed) throw new Error('This write view has ended: its write was committed or abandoned.');
    if ((this.drafts.size === 0 && this.backups.size === 0) || this.ctx.checkpoint === undefined) return;
    await this.ctx.checkpoint(this);
    // Committed: reads go to the committed state again, and later changes start new drafts.
    this.drafts.clear();
    this.backups.clear();
    this.scratch = undefined;
  }

  /** The summary records of the documents put since the last call, by database (appended once committed). */
  takeSummaries(): ReadonlyMap<string, readonly Buffer[]> {
    const taken = this.putSummaries;
    this.putSummaries = new Map();
    return taken;
  }

  /** The staged drafts by database name (null: dropped). */
  get staged(): ReadonlyMap<string, DbDraft | null> {
    return this.drafts;
  }

  /** The staged backup changes by name (null: dropped). */
  get stagedBackups(): ReadonlyMap<string, BackupRecord | null> {
    return this.backups;
  }

  async createDatabase(name: string, options: DatabaseOptions = {}): Promise<void> {
    this.writable(name);
    this.drafts.set(name, DbDraft.fresh(this.ctx.dbPath, name, newMeta(options, Date.now())));
  }

  async dropDatabase(name: string): Promise<boolean> {
    this.writable(name);
    const existed = this.resolver.get(name) !== undefined;
    if (existed) this.drafts.set(name, null);
    return existed;
  }

  async renameDatabase(from: string, to: string): Promise<void> {
    this.writable(from);
    this.writable(to);
    const source = this.require(from);
    if (this.resolver.get(to)) throw raise(STORE_ERRORS, 'DB_EXISTS_X', to);
    const meta = { ...newMeta(source.info().options, Date.now()), created: source.info().created };
    await this.copyInto(source, DbDraft.fresh(this.ctx.dbPath, to, meta));
    this.drafts.set(from, null);
  }

  async copyDatabase(from: string, to: string): Promise<void> {
    this.writable(to);
    const source = this.require(from);
    if (from === to) return;
    await this.copyInto(source, DbDraft.fresh(this.ctx.dbPath, to, newMeta(source.info().options, Date.now())));
  }

  async setOptions(db: string, options: DatabaseOptions): Promise<void> {
    const draft = await this.draft(db);
    const merged: DatabaseOptions = { ...draft.meta.options };
    for (const [name, value] of Object.entries(options)) {
      if (value === undefined) delete merged[name];
      else merged[name] = value;
    }
    draft.meta = { ...draft.meta, options: merged };
  }

  /**
   * Stores a resource. The store keeps what it is given: which type an upload takes (spec §8.3:
   * XML onto a binary stays binary) is the caller's decision. A binary put removes the resources
   * below its path (spec §8.3). Otherwise a resource cannot lie below another one, nor another
   * one below it (PATH_CONFLICT_XX): in a file tree a name is either a file or a folder.
   */
  async putResource(
    db: string,
    path: string,
    input: ResourceInput,
    conditions: PutConditions = {},
  ): Promise<ResourceInfo | undefined> {
    const draft = await this.draft(db);
    const p = checkResourcePath(path);
    if (!this.allowed(draft, p, conditions)) return undefined;
    const data = typeof input.data === 'string' ? Buffer.from(input.data, 'utf8') : input.data;
    // Small content is logged with the commit (commit-log.ts); a larger file is flushed instead.
    const inline = data.length <= INLINE_BYTES;
    const digest = inline ? undefined : await contentDigestYielding(data);
    const temp = await this.writeStaged(draft, p, data, inline);
    if (this.drafts.get(db) !== draft) return this.putResource(db, path, input, conditions);
    if (!this.allowed(draft, p, conditions)) return undefined;
    const entry: CatalogEntry = {
      type: input.type,
      contentType: contentTypeOf(input.type, p),
      size: input.type === 'xml' ? (input.nodes ?? 0) : data.length,
      bytes: data.length,
      modified: Date.now(),
      etag: newEtag(),
    };
    const above = draft.resourceAbove(p);
    if (above !== undefined) throw raise(STORE_ERRORS, 'PATH_CONFLICT_XX', p, above);
    const below = draft.countBelow(p) > 0 ? draft.pathsAtOrBelow(p).filter((b) => b !== p) : [];
    if (below.length > 0 && input.type !== 'binary') throw raise(STORE_ERRORS, 'PATH_CONFLICT_XX', p, below[0]);
    for (const b of below) draft.remove(b);
    draft.set(p, entry, { file: temp, owned: true, ...(inline ? { bytes: data } : { digest }) });
    const summary = input.type === 'xml' ? this.ctx.summarize?.(data) : undefined;
    if (summary !== undefined) {
      const records = this.putSummaries.get(db) ?? [];
      records.push(logRecord(entry.etag, summary));
      this.putSummaries.set(db, records);
    }
    return resourceInfo(p, entry);
  }

  async deleteResources(db: string, path: string): Promise<number> {
    const draft = await this.draft(db);
    const paths = draft.pathsAtOrBelow(checkPath(path));
    for (const p of paths) draft.remove(p);
    return paths.length;
  }

  async renameResources(db: string, from: string, to: string): Promise<number> {
    const draft = await this.draft(db);
    const source = checkPath(from);
    const target = checkPath(to);
    const moves = draft.pathsAtOrBelow(source).map((p) => {
      const dest = movedPath(target, source === '' ? p : p.slice(source.length + 1), to);
      const entry = draft.entryNow(p) as CatalogEntry;
      return { p, dest, entry, file: draft.file(p) as string, owned: draft.owns(p) };
    });
    draft.atomically(() => {
      for (const move of moves) draft.remove(move.p);
      for (const move of moves) {
        const above = draft.resourceAbove(move.dest);
        if (above !== undefined) throw raise(STORE_ERRORS, 'PATH_CONFLICT_XX', move.dest, above);
        if (draft.countBelow(move.dest) > 0) {
          throw raise(STORE_ERRORS, 'PATH_CONFLICT_XX', move.dest, draft.pathsAtOrBelow(move.dest)[0]);
        }
        draft.set(move.dest, move.entry, { file: move.file, owned: move.owned });
      }
    });
    return moves.length;
  }

  /**
   * Stages a backup: a new folder holding hard links to the resource files of `db` as this view
   * sees them (copies where links are impossible) and a catalog of their entries. The commit
   * swaps it into `.backups./{name}` (backups.ts).
   */
  async createBackup(db: string, name: string): Promise<void> {
    this.writable(db);
    checkBackupName(name);
    const source = this.require(db);
    const files: StagedFile[] = [];
    for (const p of await source.paths()) {
      const entry = await source.entry(p);
      const file = source.file(p);
      // A temp file of this write was never flushed: the backup must not depend on the commit.
      if (entry && file) files.push({ p, entry, file, flush: source instanceof DbDraft && source.owns(p) });
    }
    const info = source.info();
    const meta: DatabaseMeta = { ...newMeta(info.options, info.created), modified: info.modified };
    await this.stageBackup(name, files, meta);
  }

  /** Stages a fresh draft of `db` whose files are those of the backup (linked by the commit). */
  async restoreBackup(name: string, db: string): Promise<void> {
    this.writable(db);
    const backup = (await this.resolver.backups()).get(checkBackupName(name));
    const meta = backup && (await readMeta(backup.folder));
    if (!backup || !meta) throw raise(STORE_ERRORS, 'BACKUP_NOT_FOUND_X', name);
    const catalog = await Catalog.load(backup.folder, meta.shards);
    const draft = DbDraft.fresh(this.ctx.dbPath, db, { ...meta, uid: randomId() });
    for (const p of catalog.paths()) {
      const entry = catalog.get(p);
      if (entry) draft.set(p, entry, { file: inside(backup.folder, p), owned: false });
    }
    this.drafts.set(db, draft);
  }

  async dropBackup(name: string): Promise<boolean> {
    this.writable(backupOwner(checkBackupName(name)));
    const existed = (await this.resolver.backups()).has(name);
    if (existed) this.backups.set(name, null);
    return existed;
  }

  async renameBackup(from: string, to: string): Promise<void> {
    this.writable(backupOwner(checkBackupName(from)));
    this.writable(backupOwner(checkBackupName(to)));
    const source = (await this.resolver.backups()).get(from);
    const meta = source && (await readMeta(source.folder));
    if (!source || !meta) throw raise(STORE_ERRORS, 'BACKUP_NOT_FOUND_X', from);
    if (from === to) return;
    // A new staged copy (links) rather than a move: every folder the commit swaps in is then one
    // of this write's own, so replaying its journal can never move a folder twice.
    const catalog = await Catalog.load(source.folder, meta.shards);
    const files: StagedFile[] = [];
    for (const p of catalog.paths()) {
      const entry = catalog.get(p);
      if (entry) files.push({ p, entry, file: inside(source.folder, p), flush: false });
    }
    await this.stageBackup(to, files, meta);
    this.backups.set(from, null);
  }

  /** Builds a backup folder from `files` in a staging folder and stages it as backup `name`. */
  private async stageBackup(name: string, files: readonly StagedFile[], base: DatabaseMeta): Promise<void> {
    const stage = path.join(this.ctx.dbPath, `.stage-${randomId()}.`);
    await fs.mkdir(stage);
    this.leftovers.addDir(stage);
    const entries = new Map<string, CatalogEntry>();
    const unflushed: string[] = [];
    let bytes = 0;
    for (const { p, entry, file, flush } of files) {
      const target = inside(stage, p);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await linkOrCopy(file, target);
      if (flush) unflushed.push(target);
      entries.set(p, entry);
      bytes += entry.bytes;
    }
    await flushFiles(unflushed);
    const meta: DatabaseMeta = { ...base, uid: randomId(), resources: entries.size, size: bytes };
    const catalog = Catalog.of(backupFolder(this.ctx.dbPath, name), entries, meta.shards);
    await catalog.write(stage, meta);
    await fs.mkdir(backupsFolder(this.ctx.dbPath), { recursive: true });
    this.backups.set(name, { info: backupInfo(name, meta), folder: stage });
  }

  /** The draft of a database, created on first change; DB_NOT_FOUND_X if there is none. */
  private async draft(name: string): Promise<DbDraft> {
    this.writable(name);
    const existing = this.drafts.get(name);
    if (existing) return existing;
    const record = this.drafts.has(name) ? undefined : this.ctx.committed.get(name);
    if (!record) throw raise(STORE_ERRORS, 'DB_NOT_FOUND_X', name);
    const catalog = await record.catalog();
    if (this.drafts.has(name)) return this.draft(name);
    const draft = DbDraft.edit(this.ctx.dbPath, record, catalog);
    this.drafts.set(name, draft);
    return draft;
  }

  /** Checks the name and that the write holds its lock (a bug above the store otherwise). */
  private writable(name: string): void {
    if (this.sealed) throw new Error('This write view has ended: its write was committed or abandoned.');
    checkDatabaseName(name);
    const { locked } = this.ctx;
    if (locked !== '*' && !locked.includes(name)) throw raise(STORE_ERRORS, 'NOT_LOCKED_X', name);
  }

  private allowed(draft: DbDraft, p: string, conditions: PutConditions): boolean {
    const current = draft.entryNow(p);
    if (conditions.ifNoneMatch && current) return false;
    return conditions.ifMatch === undefined || current?.etag === conditions.ifMatch;
  }

  /**
   * Writes new bytes to a temp file beside the resource's file, or in the write's scratch folder.
   * The commit flushes it, with the catalog files, before its journal is written.
   */
  /** Writes the bytes of `p` to a temp file (not flushed); `inline` content goes synchronously (writeTempSync). */
  private async writeStaged(draft: DbDraft, p: string, data: Buffer, inline: boolean): Promise<string> {
    const write = (dir: string) => (inline ? this.ctx.temps.writeTempSync(dir, data) : writeTemp(dir, data, false));
    if (draft.mode === 'fresh') {
      const scratch = await this.scratchDir();
      const temp = await write(scratch);
      this.leftovers.addFile(temp, scratch);
      return temp;
    }
    const root = databaseFolder(this.ctx.dbPath, draft.name);
    const file = resourceFile(this.ctx.dbPath, draft.name, p);
    let temp: string;
    try {
      temp = await write(path.dirname(file));
    } catch (error) {
      // The resource's folder does not exist yet (or a file is in its way): make or fall back.
      if (errorCode(error) !== 'ENOENT' && errorCode(error) !== 'ENOTDIR') throw error;
      temp = await write(await tempFolder(file, root));
    }
    this.leftovers.addFile(temp, root);
    return temp;
  }

  private async scratchDir(): Promise<string> {
    if (!this.scratch) {
      const dir = path.join(this.ctx.dbPath, `.scratch-${randomId()}.`);
      await fs.mkdir(dir);
      this.leftovers.addDir(dir);
      this.scratch = dir;
    }
    return this.scratch;
  }

  private async copyInto(source: DbView, draft: DbDraft): Promise<void> {
    for (const p of await source.paths()) {
      const entry = await source.entry(p);
      const file = source.file(p);
      if (entry && file) draft.set(p, entry, { file, owned: false });
    }
    this.drafts.set(draft.name, draft);
  }
}
