/**
 * A document's summary (leaf-summaries.ts `DocumentSummary`) as bytes, made when the document is
 * stored: the stores keep it with the document (their `summarize` option, given by the
 * composition root: store/file/summary-log.ts, the PostgreSQL store's `summary` column), so that
 * a query counting over a database reads these records instead of every document's text
 * (worker/documents/store-source.ts `leafSummaries`, through `storedSummaries`). A record holds
 * what a whole-document summary holds, so a count answers the same from either; documents over
 * WHOLE_DOCUMENT_CHARS get none (their pairs are summarised one at a time when asked, as before).
 *
 * Format, little-endian: u8 FORMAT; u8 plain (0, 1); u32 names, then per name its key (u16 byte
 * length, UTF-8) and u32 count; u32 pairs, then per pair the parent's and the child's keys, i32
 * values n (-1: a pair whose values are not all plain numbers), n × i32 owners, n × f64 values.
 * A record of another format is not read (the document is read as text).
 */
import type { ResourceInfo, SyncStoreReader } from '../../../store/types';
import { DocumentSummary, nameKey, WHOLE_DOCUMENT_CHARS, type KeptSummary, type LeafSummary, type LeafSummaryCache } from './leaf-summaries';
import { scanSummary } from './summary-scan';

const FORMAT = 1;

/** The values of one pair as a record is written from them; null: not all plain numbers. */
type PairColumns = { readonly owners: ArrayLike<number>; readonly values: ArrayLike<number> } | null;

/** The record of stored XML `xml`; undefined for a document too large, or one that does not parse. */
export function summaryRecord(xml: Buffer): Uint8Array | undefined {
  // bytes at least as many as characters: a document within the bound in bytes is within it in characters
  if (xml.length > WHOLE_DOCUMENT_CHARS) return undefined;
  const text = xml.toString('utf8');
  // the scan's own maps where it reads the text (most stored documents), else DocumentSummary's
  const scanned = scanSummary(text);
  if (scanned !== undefined) return encode(true, scanned.counts, scanned.pairs, (v) => (v.plain ? v : null));
  let summary: DocumentSummary;
  try {
    summary = DocumentSummary.of(text);
  } catch {
    return undefined;
  }
  const { plain, counts, pairs } = summary.parts;
  return encode(plain, counts, pairs, (v) => v);
}

function encode<V>(plain: boolean, counts: ReadonlyMap<string, number>, pairs: ReadonlyMap<string, ReadonlyMap<string, V>>, columns: (v: V) => PairColumns): Uint8Array {
  let size = 2 + 4 + 4;
  let pairCount = 0;
  for (const k of counts.keys()) size += 2 + bytesOf(k).length + 4;
  for (const [parent, children] of pairs) {
    for (const [child, v] of children) {
      const c = columns(v);
      size += 2 + bytesOf(parent).length + 2 + bytesOf(child).length + 4 + (c ? 12 * c.values.length : 0);
      pairCount++;
    }
  }
  const out = Buffer.allocUnsafe(size);
  let at = out.writeUInt8(FORMAT, 0);
  at = out.writeUInt8(plain ? 1 : 0, at);
  const writeKey = (k: string): void => {
    const bytes = bytesOf(k);
    at = out.writeUInt16LE(bytes.length, at);
    at += bytes.copy(out, at);
  };
  at = out.writeUInt32LE(counts.size, at);
  for (const [k, n] of counts) {
    writeKey(k);
    at = out.writeUInt32LE(n, at);
  }
  at = out.writeUInt32LE(pairCount, at);
  for (const [parent, children] of pairs) {
    for (const [child, v] of children) {
      const c = columns(v);
      writeKey(parent);
      writeKey(child);
      at = out.writeInt32LE(c ? c.values.length : -1, at);
      if (!c) continue;
      for (let k = 0; k < c.owners.length; k++) at = out.writeInt32LE(c.owners[k], at);
      for (let k = 0; k < c.values.length; k++) at = out.writeDoubleLE(c.values[k], at);
    }
  }
  return out;
}

/** Summaries asked in one reader call (a few hundred bytes each: about 1 MB). */
const SUMMARY_BATCH = 2048;

/**
 * The summaries the store kept for the versions of `infos` that `cache` has none of, asked of
 * `reader` SUMMARY_BATCH at a time, by etag: the pair `name`/`child` of each (null: no summary
 * for that pair). Each is kept in `cache` too, by `versionOf`; the map holds them while the
 * caller needs them, as the bounded cache may let some go before.
 */
export function storedSummaries(
  reader: Pick<SyncStoreReader, 'summaries'>,
  cache: LeafSummaryCache,
  db: string,
  infos: readonly ResourceInfo[],
  versionOf: (info: ResourceInfo) => string,
  name: string,
  child: string,
): Map<string, LeafSummary | null> {
  const stored = new Map<string, LeafSummary | null>();
  if (!reader.summaries) return stored;
  const missing = infos.filter((info) => cache.get(versionOf(info), name, child) === undefined);
  for (let from = 0; from < missing.length; from += SUMMARY_BATCH) {
    const batch = missing.slice(from, from + SUMMARY_BATCH);
    reader.summaries(db, batch.map((info) => info.etag)).forEach((record, k) => {
      const summary = record && summaryOfRecord(record);
      if (summary) stored.set(batch[k].etag, cache.keep(versionOf(batch[k]), summary, name, child));
    });
  }
  return stored;
}

/**
 * The summary a record holds, read from its bytes when asked: only the count and the pair asked
 * for are decoded (a count over 2,000 stored documents asks 2,000 records one pair each);
 * undefined for a record of another format or one that does not hold whole entries.
 *
 * Records are read byte by byte (`u16`, `u32`, `i32` below) rather than with Buffer's read
 * methods: a count over a database decodes each record once, on the first query, in a worker
 * whose JIT has not warmed up to those methods yet (2,000 records of 25 items, the first pass
 * in a fresh process: 24 ms instead of 31, medians of five).
 */
export function summaryOfRecord(record: Uint8Array): KeptSummary | undefined {
  const end = record.length;
  if (end < 6 || record[0] !== FORMAT) return undefined;
  // one pass over the lengths: every entry lies within the record, which ends with the last
  let at = 2;
  const names = u32(record, at);
  at += 4;
  const countsAt = at;
  for (let i = 0; i < names; i++) {
    if (at + 2 > end) return undefined;
    at += 2 + u16(record, at) + 4;
  }
  if (at + 4 > end) return undefined;
  const pairs = u32(record, at);
  at += 4;
  const pairsAt = at;
  for (let i = 0; i < pairs; i++) {
    if (at + 2 > end) return undefined;
    at += 2 + u16(record, at);
    if (at + 2 > end) return undefined;
    at += 2 + u16(record, at);
    if (at + 4 > end) return undefined;
    const n = i32(record, at);
    at += 4 + (n > 0 ? 12 * n : 0);
  }
  // a copy: the record may be a view of a block of many, which it would keep alive in the cache
  return at === end ? new StoredSummary(new Uint8Array(record), names, countsAt, pairs, pairsAt) : undefined;
}

/** The unsigned 16-bit integer at `at` of `b`, little-endian (within bounds: the caller checked). */
function u16(b: Uint8Array, at: number): number {
  return b[at] | (b[at + 1] << 8);
}

/** The unsigned 32-bit integer at `at` of `b`, little-endian. */
function u32(b: Uint8Array, at: number): number {
  return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16)) + b[at + 3] * 0x1000000;
}

/** The signed 32-bit integer at `at` of `b`, little-endian. */
function i32(b: Uint8Array, at: number): number {
  return b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24);
}

const NO_VALUES = new Float64Array(0);
const NO_OWNERS = new Int32Array(0);

/**
 * The UTF-8 bytes of the keys written and asked for last (the documents of a database mostly
 * share their names, and a count asks the same pair of every document).
 */
const keyBytes = new Map<string, Buffer>();

function bytesOf(key: string): Buffer {
  let bytes = keyBytes.get(key);
  if (bytes === undefined) {
    if (keyBytes.size >= 256) keyBytes.clear();
    keyBytes.set(key, (bytes = Buffer.from(key, 'utf8')));
  }
  return bytes;
}

/** Whether the key written at `at` of `record` (u16 length, bytes) is `key`. */
function keyIs(record: Uint8Array, at: number, key: Buffer): boolean {
  const length = u16(record, at);
  if (length !== key.length) return false;
  for (let i = 0; i < length; i++) if (record[at + 2 + i] !== key[i]) return false;
  return true;
}

/** A stored record (see the file comment), its structure checked by `summaryOfRecord`. */
class StoredSummary implements KeptSummary {
  readonly size: number;

  constructor(
    private readonly record: Uint8Array,
    private readonly names: number,
    private readonly countsAt: number,
    private readonly pairs: number,
    private readonly pairsAt: number,
  ) {
    this.size = 16 + Math.ceil(record.length / 8);
  }

  summary(name: string, child: string): LeafSummary | null {
    const { record } = this;
    if (record[1] !== 1) return null;
    const key = bytesOf(nameKey(name));
    let count = 0;
    for (let i = 0, at = this.countsAt; i < this.names; i++) {
      const end = at + 2 + u16(record, at);
      if (keyIs(record, at, key)) {
        count = u32(record, end);
        break;
      }
      at = end + 4;
    }
    if (child === '') return { count, owners: NO_OWNERS, values: NO_VALUES };
    const childKey = bytesOf(nameKey(child));
    for (let i = 0, at = this.pairsAt; i < this.pairs; i++) {
      const parentAt = at;
      at += 2 + u16(record, at);
      const childAt = at;
      at += 2 + u16(record, at);
      const n = i32(record, at);
      at += 4;
      if (keyIs(record, parentAt, key) && keyIs(record, childAt, childKey)) {
        if (n < 0) return null;
        const owners = new Int32Array(n);
        const values = new Float64Array(n);
        for (let k = 0; k < n; k++) owners[k] = i32(record, at + 4 * k);
        const doubles = new DataView(record.buffer, record.byteOffset + at + 4 * n, 8 * n);
        for (let k = 0; k < n; k++) values[k] = doubles.getFloat64(8 * k, true);
        return { count, owners, values };
      }
      at += n > 0 ? 12 * n : 0;
    }
    return { count, owners: NO_OWNERS, values: NO_VALUES };
  }
}
