/**
 * A database as a write view changes it: entries changed relative to its committed catalog
 * ('edit'), or a complete new content that replaces the database folder ('fresh': created,
 * copied, renamed into, or replaced). Nothing here touches the disk; commit.ts applies drafts.
 */
import type { Catalog, CatalogEntry, DatabaseMeta } from './catalog';
import { comparePaths } from './catalog';
import { randomId } from '../random-id';
import { ancestorsOf, isAtOrBelow } from '../resource-names';
import { resourceFile } from './disk-paths';
import type { DatabaseInfo } from '../types';
import { databaseInfo, type DbRecord, type DbView } from './views';

/** Where the bytes of a changed resource are. */
export interface FileSource {
  readonly file: string;
  /** A temp file this write created (as opposed to a file of a committed resource). */
  readonly owned: boolean;
  /** Digest of an owned file's content (see journal.ts: telling complete temps from torn ones). */
  readonly digest?: string;
  /** The content of a small owned file, logged with the commit instead of flushing the file. */
  readonly bytes?: Buffer;
}

export type DraftMode = 'edit' | 'fresh';

interface DraftState {
  changes: Map<string, CatalogEntry | null>;
  sources: Map<string, FileSource>;
  belowDelta: Map<string, number>;
  meta: DatabaseMeta;
  metaChanged: boolean;
}

function cloneState(state: DraftState): DraftState {
  return {
    changes: new Map(state.changes),
    sources: new Map(state.sources),
    belowDelta: new Map(state.belowDelta),
    meta: state.meta,
    metaChanged: state.metaChanged,
  };
}

/** Staged changes of one database. */
export class DbDraft implements DbView {
  private state: DraftState;

  private constructor(
    private readonly dbPath: string,
    readonly name: string,
    readonly mode: DraftMode,
    meta: DatabaseMeta,
    /** edit: the committed database and its loaded catalog. */
    readonly base?: { readonly record: DbRecord; readonly catalog: Catalog },
  ) {
    this.state = { changes: new Map(), sources: new Map(), belowDelta: new Map(), meta, metaChanged: false };
  }

  /** A draft of changes to a committed database. */
  static edit(dbPath: string, record: DbRecord, catalog: Catalog): DbDraft {
    return new DbDraft(dbPath, record.name, 'edit', record.meta, { record, catalog });
  }

  /** A draft of a new content for database `name`, starting empty. */
  static fresh(dbPath: string, name: string, meta: DatabaseMeta): DbDraft {
    const draft = new DbDraft(dbPath, name, 'fresh', meta);
    draft.state.metaChanged = true;
    return draft;
  }

  get meta(): DatabaseMeta {
    return this.state.meta;
  }

  /** Replaces the meta (options); marks it for writing. */
  set meta(meta: DatabaseMeta) {
    this.state.meta = meta;
    this.state.metaChanged = true;
  }

  get metaChanged(): boolean {
    return this.state.metaChanged;
  }

  /** Changed entries (null: removed); in a fresh draft, every entry. */
  get changes(): ReadonlyMap<string, CatalogEntry | null> {
    return this.state.changes;
  }

  /** Where the bytes of each changed entry are. */
  get sources(): ReadonlyMap<string, FileSource> {
    return this.state.sources;
  }

  /** Runs `fn`; if it throws, every change it made to this draft is undone. */
  atomically<T>(fn: () => T): T {
    const saved = cloneState(this.state);
    try {
      return fn();
    } catch (error) {
      this.state = saved;
      throw error;
    }
  }

  /** The entry at `p` as this draft sees it. */
  entryNow(p: string): CatalogEntry | undefined {
    const changed = this.state.changes.get(p);
    if (changed !== undefined) return changed ?? undefined;
    return this.base?.catalog.get(p);
  }

  async entry(p: string): Promise<CatalogEntry | undefined> {
    return this.entryNow(p);
  }

  /** Number of resources strictly below directory `dir`. */
  countBelow(dir: string): number {
    if (dir === '') return this.count;
    return (this.base?.catalog.countBelow(dir) ?? 0) + (this.state.belowDelta.get(dir) ?? 0);
  }

  /** Paths at `dir` or below it ('' = all), sorted. */
  pathsAtOrBelow(dir: string): string[] {
    const result = new Set<string>();
    if (this.base) {
      for (const p of this.base.catalog.pathsBelow(dir)) result.add(p);
      if (dir !== '' && this.base.catalog.get(dir)) result.add(dir);
    }
    for (const [p, entry] of this.state.changes) {
      if (!isAtOrBelow(p, dir)) continue;
      if (entry) result.add(p);
      else result.delete(p);
    }
    return [...result].sort(comparePaths);
  }

  async paths(): Promise<readonly string[]> {
    return this.state.changes.size === 0 && this.base ? this.base.catalog.paths() : this.pathsAtOrBelow('');
  }

  /** The nearest resource that is an ancestor directory of `p`, if any. */
  resourceAbove(p: string): string | undefined {
    return ancestorsOf(p).find((dir) => this.entryNow(dir) !== undefined);
  }

  /** Number of resources. */
  get count(): number {
    let count = this.base?.catalog.count ?? 0;
    for (const [p, entry] of this.state.changes) count += presence(entry) - presence(this.base?.catalog.get(p));
    return count;
  }

  /** Sum of the resources' bytes. */
  get bytes(): number {
    let bytes = this.base?.catalog.bytes ?? 0;
    for (const [p, entry] of this.state.changes) bytes += (entry?.bytes ?? 0) - (this.base?.catalog.get(p)?.bytes ?? 0);
    return bytes;
  }

  info(): DatabaseInfo {
    return databaseInfo(this.name, this.state.meta, this.count, this.bytes);
  }

  /**
   * Unchanged, the committed version; with staged changes, a version no committed state has,
   * new on every call (nothing may cache a state that is not committed yet).
   */
  version(): string {
    if (this.base && this.state.changes.size === 0 && !this.state.metaChanged) return this.base.record.version();
    return `draft:${randomId()}`;
  }

  file(p: string): string | undefined {
    const source = this.state.sources.get(p);
    if (source) return source.file;
    if (this.state.changes.has(p) || !this.base) return undefined;
    return resourceFile(this.dbPath, this.name, p);
  }

  /** Whether the bytes at `p` are a temp file owned by this draft. */
  owns(p: string): boolean {
    return this.state.sources.get(p)?.owned === true;
  }

  /** Sets the entry at `p`, with its bytes in `source`. */
  set(p: string, entry: CatalogEntry, source: FileSource): void {
    this.track(p, this.entryNow(p), entry);
    this.state.changes.set(p, entry);
    this.state.sources.set(p, source);
  }

  /** Removes the entry at `p` (if any). */
  remove(p: string): void {
    const before = this.entryNow(p);
    if (!before) return;
    this.track(p, before, undefined);
    this.state.sources.delete(p);
    if (this.base?.catalog.get(p)) this.state.changes.set(p, null);
    else this.state.changes.delete(p);
  }

  private track(p: string, before: CatalogEntry | undefined, after: CatalogEntry | undefined): void {
    const delta = presence(after) - presence(before);
    if (delta === 0) return;
    for (const dir of ancestorsOf(p)) {
      const n = (this.state.belowDelta.get(dir) ?? 0) + delta;
      if (n === 0) this.state.belowDelta.delete(dir);
      else this.state.belowDelta.set(dir, n);
    }
  }
}

function presence(entry: CatalogEntry | null | undefined): number {
  return entry ? 1 : 0;
}
