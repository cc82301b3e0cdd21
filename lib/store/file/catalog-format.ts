/**
 * The on-disk format of a database catalog (see catalog.ts): folder and file names, the shard of
 * a path, the entry and meta records, and the validation of everything read from those files.
 */
import path from 'node:path';
import { raise } from '../../xmldb-error';
import { STORE_ERRORS } from '../store-errors';
import { randomId } from '../random-id';
import { normalizePath } from '../resource-names';
import type { DatabaseOptions, ResourceInfo, ResourceType } from '../types';

/** The catalog folder inside a database folder (ends in `.`: never a resource name). */
export const CATALOG_DIR = '.catalog.';
export const META_FILE = 'meta.json';
/** Number of shard files of a new database. */
export const SHARD_COUNT = 64;
/**
 * Resources a shard file holds on average, at most: a commit that would put more in them doubles
 * the shard files (catalog.ts `stage`). A write rewrites each shard file it touches whole, and
 * logs it with its commit (commit-log.ts), so with a fixed count the cost of a put grew with the
 * database: at 43,000 documents the shard's serialization, copy and digest took 0.6 ms of each
 * put's 1.7 ms of CPU, and sequential puts of 1 KB documents ran at 296-325 a second between
 * 35,000 and 40,000 documents, against 468-478 with the count doubled as here.
 */
export const SHARD_ENTRIES = 128;
/** Version of the on-disk format. */
export const FORMAT = 1;

/** What the catalog keeps about one resource: its ResourceInfo without the path (the key). */
export type CatalogEntry = Omit<ResourceInfo, 'path'>;

/** The contents of `meta.json`. */
export interface DatabaseMeta {
  readonly format: number;
  /** Random id of this incarnation of the database (a replaced database gets a new one). */
  readonly uid: string;
  /** Grows with every commit that touches the database. */
  readonly generation: number;
  readonly created: number;
  readonly modified: number;
  readonly options: Readonly<DatabaseOptions>;
  readonly resources: number;
  readonly size: number;
  readonly shards: number;
}

/** Entries by path, in a prototype-free object (paths such as `__proto__` are plain keys). */
export type EntryRecord = Record<string, CatalogEntry>;

/** The contents of one shard file. */
export interface ShardFile {
  entries: EntryRecord;
}

/** Changes to entries: a new entry, or null for a removed one. */
export type EntryChanges = ReadonlyMap<string, CatalogEntry | null>;

/**
 * The version of a database (types.ts `ReadView.versions`): incarnation and generation, so a
 * replaced database never repeats the version of the one before it.
 */
export function metaVersion(meta: DatabaseMeta): string {
  return `${meta.uid}:${meta.generation}`;
}

/** The shard of a path: FNV-1a over its UTF-16 code units. */
export function shardOf(p: string, count: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < p.length; i++) {
    hash ^= p.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % count;
}

/**
 * The shard count of a database of `resources` resources whose count is `current`: doubled until
 * they hold SHARD_ENTRIES or fewer on average; never fewer than `current` (a shrinking database
 * keeps its files).
 */
export function shardCountFor(resources: number, current: number): number {
  let count = current;
  while (resources > count * SHARD_ENTRIES) count *= 2;
  return count;
}

export function catalogFolder(dbFolder: string): string {
  return path.join(dbFolder, CATALOG_DIR);
}

export function metaFile(dbFolder: string): string {
  return path.join(dbFolder, CATALOG_DIR, META_FILE);
}

export function shardFile(dbFolder: string, shard: number): string {
  return path.join(dbFolder, CATALOG_DIR, `shard-${shard.toString(16).padStart(2, '0')}.json`);
}

/** A new, empty entry record (prototype-free). */
export function emptyRecord(): EntryRecord {
  return Object.create(null) as EntryRecord;
}

/** A new meta for an empty database. */
export function newMeta(options: DatabaseOptions, now: number): DatabaseMeta {
  return {
    format: FORMAT,
    uid: randomId(),
    generation: 1,
    created: now,
    modified: now,
    options: { ...options },
    resources: 0,
    size: 0,
    shards: SHARD_COUNT,
  };
}

// ---------------------------------------------------------------- validation

type Json = unknown;

function isObject(value: Json): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: Json): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function parseJson(text: string, file: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch (error) {
    throw raise(STORE_ERRORS, 'CATALOG_CORRUPT_XX', file, (error as Error).message);
  }
}

function corrupt(file: string, reason: string): Error {
  return raise(STORE_ERRORS, 'CATALOG_CORRUPT_XX', file, reason);
}

function checkOptions(value: Json, file: string): DatabaseOptions {
  if (!isObject(value)) throw corrupt(file, 'options must be an object');
  const options: DatabaseOptions = {};
  for (const [name, v] of Object.entries(value)) {
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') {
      throw corrupt(file, `option ${name} has an invalid value`);
    }
    options[name] = v;
  }
  return options;
}

/** Parses and validates the text of a meta file. */
export function parseMeta(text: string, file: string): DatabaseMeta {
  const json = parseJson(text, file);
  if (!isObject(json)) throw corrupt(file, 'not an object');
  if (json.format !== FORMAT) throw corrupt(file, `unknown format ${String(json.format)}`);
  if (typeof json.uid !== 'string' || json.uid === '') throw corrupt(file, 'uid missing');
  for (const key of ['generation', 'created', 'modified', 'resources', 'size', 'shards'] as const) {
    if (!isCount(json[key])) throw corrupt(file, `${key} must be a non-negative integer`);
  }
  if ((json.shards as number) < 1) throw corrupt(file, 'shards must be positive');
  return {
    format: FORMAT,
    uid: json.uid,
    generation: json.generation as number,
    created: json.created as number,
    modified: json.modified as number,
    options: checkOptions(json.options, file),
    resources: json.resources as number,
    size: json.size as number,
    shards: json.shards as number,
  };
}

const TYPES: ReadonlySet<Json> = new Set<ResourceType>(['xml', 'binary', 'value']);

function checkEntry(value: Json, key: string, file: string): CatalogEntry {
  if (!isObject(value)) throw corrupt(file, `entry '${key}' is not an object`);
  const { type, contentType, size, bytes, modified, etag } = value;
  if (!TYPES.has(type)) throw corrupt(file, `entry '${key}' has an invalid type`);
  if (typeof contentType !== 'string' || typeof etag !== 'string' || etag === '') {
    throw corrupt(file, `entry '${key}' lacks its content type or etag`);
  }
  if (!isCount(size) || !isCount(bytes) || !isCount(modified)) {
    throw corrupt(file, `entry '${key}' has an invalid size, bytes or modified`);
  }
  return { type: type as ResourceType, contentType, size, bytes, modified, etag };
}

/** Parses and validates the text of shard `shard` of `count`. */
export function parseShard(text: string, file: string, shard: number, count: number): ShardFile {
  const json = parseJson(text, file);
  if (!isObject(json) || !isObject(json.entries)) throw corrupt(file, 'entries missing');
  const entries = emptyRecord();
  for (const [key, value] of Object.entries(json.entries)) {
    if (key === '' || normalizePath(key) !== key) throw corrupt(file, `invalid path '${key}'`);
    if (shardOf(key, count) !== shard) throw corrupt(file, `path '${key}' belongs to another shard`);
    entries[key] = checkEntry(value, key, file);
  }
  return { entries };
}
