/**
 * The per-database catalog on disk, in `{db}/.catalog./`:
 * - `meta.json`: format, incarnation id, generation (grows with every commit), created/modified,
 *   options, resource count and bytes; small, rewritten on every commit;
 * - `shard-XX.json`: the resource entries, spread by a hash of the path over SHARD_COUNT files, a
 *   count doubled whenever they would hold more than SHARD_ENTRIES each on average, so a write
 *   rewrites only the shards it touches, and they stay small whatever the database size.
 * Everything read is validated; in memory, a changed shard is a copy swapped in after its rename.
 */
import { readFileSync, readdirSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { errorCode, writeFileAtomic } from '../../atomic-files';
import {
  catalogFolder,
  emptyRecord,
  metaFile,
  parseMeta,
  parseShard,
  shardCountFor,
  shardFile,
  shardOf,
  type CatalogEntry,
  type DatabaseMeta,
  type EntryChanges,
  type EntryRecord,
  type ShardFile,
} from './catalog-format';
import { ancestorsOf } from '../resource-names';

export {
  CATALOG_DIR,
  META_FILE,
  SHARD_COUNT,
  SHARD_ENTRIES,
  FORMAT,
  shardCountFor,
  shardOf,
  catalogFolder,
  metaFile,
  shardFile,
  newMeta,
  metaVersion,
  parseMeta,
  parseShard,
  type CatalogEntry,
  type DatabaseMeta,
  type EntryRecord,
  type ShardFile,
  type EntryChanges,
} from './catalog-format';

// ---------------------------------------------------------------- reading

async function readText(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

function readTextSync(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** The meta of the database in `dbFolder`; undefined if there is none (not a database). */
export async function readMeta(dbFolder: string): Promise<DatabaseMeta | undefined> {
  const file = metaFile(dbFolder);
  const text = await readText(file);
  return text === undefined ? undefined : parseMeta(text, file);
}

/** readMeta, synchronously. */
export function readMetaSync(dbFolder: string): DatabaseMeta | undefined {
  const file = metaFile(dbFolder);
  const text = readTextSync(file);
  return text === undefined ? undefined : parseMeta(text, file);
}

/** All entries of a database, synchronously (for worker threads). */
export function readEntriesSync(dbFolder: string, meta: DatabaseMeta): Map<string, CatalogEntry> {
  const result = new Map<string, CatalogEntry>();
  const existing = new Set(readdirSync(catalogFolder(dbFolder)));
  for (let shard = 0; shard < meta.shards; shard++) {
    const file = shardFile(dbFolder, shard);
    if (!existing.has(path.basename(file))) continue;
    const text = readTextSync(file);
    if (text === undefined) continue;
    for (const [key, entry] of Object.entries(parseShard(text, file, shard, meta.shards).entries)) {
      result.set(key, entry);
    }
  }
  return result;
}

/** One shard file: validated when read, replaced atomically when written on its own. */
class ShardFileStore {
  constructor(
    private readonly file: string,
    private readonly shard: number,
    private readonly count: number,
  ) {}

  async read(): Promise<ShardFile | undefined> {
    const text = await readText(this.file);
    return text === undefined ? undefined : parseShard(text, this.file, this.shard, this.count);
  }

  async write(data: ShardFile): Promise<void> {
    await writeFileAtomic(this.file, serializeShard(data));
  }
}

/** The entries of one shard in memory; `data` is replaced (never changed) after a commit. */
interface Shard {
  data: ShardFile;
}

function serializeShard(data: ShardFile): string {
  return JSON.stringify(data);
}

// ---------------------------------------------------------------- the catalog

/** The new content of the shard files a commit changes, which the commit writes (commit.ts). */
export interface StagedShards {
  /** Shard file and its new content. */
  readonly files: ReadonlyArray<{ readonly file: string; readonly text: string }>;
  /** The database's shard count after the commit (its meta's `shards`). */
  readonly count: number;
  /** Bytes of the new shards. */
  readonly bytes: number;
  /** Swaps the new shard contents in; call once the files are written. */
  apply(): void;
}

/**
 * The resource entries of one database, all in memory after the first load, with the number of
 * resources below each directory and (once asked for) the sorted list of paths, both kept up to
 * date change by change so that a write costs the same in a large database as in a small one.
 */
export class Catalog {
  private sorted: string[] | undefined;
  private readonly below = new Map<string, number>();
  private total = { count: 0, bytes: 0 };

  private constructor(
    private readonly dbFolder: string,
    /** Replaced whole when a commit doubles the shards (`stage`). */
    private shards: readonly Shard[],
  ) {
    for (const shard of shards) {
      for (const [key, entry] of Object.entries(shard.data.entries)) this.count1(key, entry, 1);
    }
  }

  /** Loads the catalog of the database in `dbFolder`, which has `count` shards. */
  static async load(dbFolder: string, count: number): Promise<Catalog> {
    const shards = await Promise.all(
      Array.from({ length: count }, async (_, shard): Promise<Shard> => {
        const data = await new ShardFileStore(shardFile(dbFolder, shard), shard, count).read();
        return { data: data ?? { entries: emptyRecord() } };
      }),
    );
    return new Catalog(dbFolder, shards);
  }

  /** A catalog for `dbFolder` holding `entries`, without touching the disk (see write()). */
  static of(dbFolder: string, entries: ReadonlyMap<string, CatalogEntry>, count: number): Catalog {
    const records = Array.from({ length: count }, emptyRecord);
    for (const [key, entry] of entries) records[shardOf(key, count)][key] = entry;
    return new Catalog(dbFolder, records.map((entries) => ({ data: { entries } })));
  }

  /**
   * Writes this catalog's non-empty shards and `meta` into the database folder `target`, a new
   * folder nobody reads yet (a staging folder that a commit renames into place).
   */
  async write(target: string, meta: DatabaseMeta): Promise<void> {
    await fs.mkdir(catalogFolder(target), { recursive: true });
    await Promise.all(
      this.shards.map(async (shard, i) => {
        if (Object.keys(shard.data.entries).length === 0) return;
        await new ShardFileStore(shardFile(target, i), i, this.shards.length).write(shard.data);
      }),
    );
    await writeFileAtomic(metaFile(target), JSON.stringify(meta));
  }

  /** Number of resources. */
  get count(): number {
    return this.total.count;
  }

  /** Sum of the resources' bytes. */
  get bytes(): number {
    return this.total.bytes;
  }

  /** The entry at `p`, if any. */
  get(p: string): CatalogEntry | undefined {
    const entries = this.shards[shardOf(p, this.shards.length)].data.entries;
    return Object.hasOwn(entries, p) ? entries[p] : undefined;
  }

  /** Number of resources strictly below directory `dir` ('' = all). */
  countBelow(dir: string): number {
    return dir === '' ? this.total.count : (this.below.get(dir) ?? 0);
  }

  /** All paths, sorted by code units. */
  paths(): readonly string[] {
    if (!this.sorted) {
      const all: string[] = [];
      for (const shard of this.shards) all.push(...Object.keys(shard.data.entries));
      this.sorted = all.sort(comparePaths);
    }
    return this.sorted;
  }

  /** Paths strictly below directory `dir`, sorted. */
  pathsBelow(dir: string): string[] {
    if (dir === '') return [...this.paths()];
    if (this.countBelow(dir) === 0) return [];
    const all = this.paths();
    // Every path starting with `dir/` sorts in [`dir/`, `dir0`): '0' follows '/' in code units.
    return all.slice(lowerBound(all, `${dir}/`), lowerBound(all, `${dir}0`));
  }

  /**
   * The new content of every shard touched by `changes`, or of every shard of a doubled count when
   * the resources after `changes` call for it (shardCountFor). Nothing changes in memory until
   * the answer's `apply()` is called (after the commit wrote the files).
   */
  stage(changes: EntryChanges): StagedShards {
    const count = shardCountFor(this.countAfter(changes), this.shards.length);
    if (count !== this.shards.length) return this.stageAll(changes, count);
    const touched = new Map<number, EntryRecord>();
    for (const [key, entry] of changes) {
      const shard = shardOf(key, this.shards.length);
      let next = touched.get(shard);
      if (!next) {
        next = Object.assign(emptyRecord(), this.shards[shard].data.entries);
        touched.set(shard, next);
      }
      if (entry) next[key] = entry;
      else delete next[key];
    }
    return this.staged(touched, count, changes, () => {
      for (const [shard, entries] of touched) this.shards[shard].data = { entries };
    });
  }

  /** The number of resources once `changes` are made. */
  private countAfter(changes: EntryChanges): number {
    let count = this.total.count;
    for (const [key, entry] of changes) {
      const had = this.get(key) !== undefined;
      if (entry && !had) count++;
      else if (!entry && had) count--;
    }
    return count;
  }

  /**
   * Every shard of `count` (more than now), `changes` made: each resource's shard depends on the
   * count, so every file is written, the empty ones too (a file of the old layout may hold
   * entries that moved).
   */
  private stageAll(changes: EntryChanges, count: number): StagedShards {
    const records = Array.from({ length: count }, emptyRecord);
    for (const shard of this.shards) {
      for (const [key, entry] of Object.entries(shard.data.entries)) records[shardOf(key, count)][key] = entry;
    }
    for (const [key, entry] of changes) {
      const record = records[shardOf(key, count)];
      if (entry) record[key] = entry;
      else delete record[key];
    }
    return this.staged(records.entries(), count, changes, () => {
      this.shards = records.map((entries) => ({ data: { entries } }));
    });
  }

  /** The files of `records` (shard, entries) for a commit; applying them runs `install`. */
  private staged(records: Iterable<[number, EntryRecord]>, count: number, changes: EntryChanges, install: () => void): StagedShards {
    let bytes = 0;
    const files = [...records].map(([shard, entries]) => {
      const text = serializeShard({ entries });
      bytes += Buffer.byteLength(text);
      return { file: shardFile(this.dbFolder, shard), text };
    });
    return { files, bytes, count, apply: () => this.swap(changes, install) };
  }

  /** Installs staged shards (`install`), keeping the counts and the sorted paths up to date with `changes`. */
  private swap(changes: EntryChanges, install: () => void): void {
    const before = [...changes.keys()].map((key) => [key, this.get(key)] as const);
    install();
    for (const [key, was] of before) {
      const after = this.get(key);
      if (was) this.count1(key, was, -1);
      if (after) this.count1(key, after, 1);
      if (this.sorted && !was !== !after) {
        const at = lowerBound(this.sorted, key);
        if (after) this.sorted.splice(at, 0, key);
        else this.sorted.splice(at, 1);
      }
    }
  }

  private count1(key: string, entry: CatalogEntry, delta: 1 | -1): void {
    this.total = { count: this.total.count + delta, bytes: this.total.bytes + delta * entry.bytes };
    for (const dir of ancestorsOf(key)) {
      const n = (this.below.get(dir) ?? 0) + delta;
      if (n === 0) this.below.delete(dir);
      else this.below.set(dir, n);
    }
  }
}

/** The first index in sorted `list` whose value is not below `key`. */
export function lowerBound(list: readonly string[], key: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Orders paths by UTF-16 code units. */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
