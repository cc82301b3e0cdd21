/**
 * ZIP archives for the archive: module (functions/archive.ts), bounded against zip bombs.
 *
 * Reading walks the central directory (APPNOTE 6.3.x §4.3.12, end record §4.3.16) and checks
 * every entry's declared size before one byte is inflated: more entries than `maxEntries`, more
 * declared bytes in all than `maxTotalBytes`, or an entry larger than 1 MiB that would grow more
 * than `maxRatio` times its compressed size is refused as a whole. Inflating writes into a buffer
 * one byte longer than the declared size, so an entry that lies about its size stops there and
 * is refused too (as is a wrong CRC-32): memory is bounded by the declared sizes, which are
 * bounded by the limits. ZIP64, encrypted entries and methods other than stored (0) and deflate
 * (8) are refused. Writing uses fflate's streaming Zip, so entries keep the order given.
 */
import { crc32 } from 'node:zlib';
import type * as FflateModule from 'fflate';

let fflateLoaded: typeof FflateModule | undefined;

/** fflate, loaded with the first archive read or written: most query workers never meet one. */
function fflate(): typeof FflateModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (fflateLoaded ??= require('fflate') as typeof FflateModule);
}

export interface ZipLimits {
  readonly maxEntries: number;
  readonly maxTotalBytes: number;
  readonly maxRatio: number;
}

/** An entry as its central directory record describes it. */
export interface ZipEntry {
  readonly name: string;
  /** 0 stored, 8 deflate. */
  readonly method: number;
  readonly size: number;
  readonly compressedSize: number;
  /** The MS-DOS date and time fields (local time, two-second steps). */
  readonly modified: DosDateTime;
  readonly directory: boolean;
  readonly crc: number;
  readonly localOffset: number;
}

export interface DosDateTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

/** An archive that is not a ZIP archive this reader handles (the message says why). */
export class ZipError extends Error {}

const END_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const RATIO_FLOOR = 1024 * 1024;

function endRecord(bytes: Buffer): number {
  // the end record is 22 bytes plus a comment of at most 65535
  const stop = Math.max(0, bytes.length - 22 - 0xffff);
  for (let i = bytes.length - 22; i >= stop; i--) if (bytes.readUInt32LE(i) === END_SIGNATURE) return i;
  throw new ZipError('no ZIP archive');
}

/** The entries of a ZIP archive, checked against `limits`. */
export function readZipEntries(bytes: Buffer, limits: ZipLimits): ZipEntry[] {
  const end = endRecord(bytes);
  const count = bytes.readUInt16LE(end + 10);
  const offset = bytes.readUInt32LE(end + 16);
  if (count === 0xffff || offset === 0xffffffff) throw new ZipError('ZIP64 archives are not supported');
  if (count > limits.maxEntries) throw new ZipError(`the archive has more than ${limits.maxEntries} entries`);
  const entries: ZipEntry[] = [];
  let total = 0;
  let p = offset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > bytes.length || bytes.readUInt32LE(p) !== CENTRAL_SIGNATURE) throw new ZipError('the central directory is damaged');
    const flags = bytes.readUInt16LE(p + 8);
    const method = bytes.readUInt16LE(p + 10);
    const time = bytes.readUInt16LE(p + 12);
    const date = bytes.readUInt16LE(p + 14);
    const compressedSize = bytes.readUInt32LE(p + 20);
    const size = bytes.readUInt32LE(p + 24);
    const nameLength = bytes.readUInt16LE(p + 28);
    const skip = nameLength + bytes.readUInt16LE(p + 30) + bytes.readUInt16LE(p + 32);
    const raw = bytes.subarray(p + 46, p + 46 + nameLength);
    // bit 11: the name is UTF-8; otherwise code page 437, read here as Latin-1 (alike for ASCII)
    const name = raw.toString(flags & 0x800 ? 'utf8' : 'latin1');
    if (flags & 1) throw new ZipError(`entry '${name}' is encrypted`);
    if (method !== 0 && method !== 8) throw new ZipError(`entry '${name}' uses compression method ${method}`);
    total += size;
    if (total > limits.maxTotalBytes) throw new ZipError(`the entries would expand to more than ${limits.maxTotalBytes} bytes`);
    if (size > RATIO_FLOOR && size > compressedSize * limits.maxRatio) {
      throw new ZipError(`entry '${name}' would expand more than ${limits.maxRatio} times`);
    }
    entries.push({
      name,
      method,
      size,
      compressedSize,
      modified: { year: 1980 + (date >> 9), month: (date >> 5) & 15, day: date & 31, hour: time >> 11, minute: (time >> 5) & 63, second: (time & 31) * 2 },
      directory: name.endsWith('/'),
      crc: bytes.readUInt32LE(p + 16),
      localOffset: bytes.readUInt32LE(p + 42),
    });
    p += 46 + skip;
  }
  return entries;
}

/** The uncompressed bytes of an entry (see the file comment for the bounds). */
export function entryBytes(bytes: Buffer, entry: ZipEntry): Buffer {
  const at = entry.localOffset;
  if (at + 30 > bytes.length || bytes.readUInt32LE(at) !== LOCAL_SIGNATURE) throw new ZipError(`entry '${entry.name}' is damaged`);
  const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
  const data = bytes.subarray(start, start + entry.compressedSize);
  if (data.length !== entry.compressedSize) throw new ZipError(`entry '${entry.name}' is truncated`);
  let out: Buffer;
  if (entry.method === 0) out = Buffer.from(data);
  else {
    try {
      const inflated = fflate().inflateSync(data, { out: new Uint8Array(entry.size + 1) });
      out = Buffer.from(inflated.buffer, inflated.byteOffset, inflated.byteLength);
    } catch {
      throw new ZipError(`entry '${entry.name}' is damaged`);
    }
  }
  if (out.length !== entry.size) throw new ZipError(`entry '${entry.name}' is not of its declared size`);
  if (crc32(out) >>> 0 !== entry.crc >>> 0) throw new ZipError(`entry '${entry.name}' fails its CRC-32 check`);
  return out;
}

/** An entry to write: `level` 0 stores it, 1 to 9 deflate it. */
export interface NewEntry {
  readonly name: string;
  readonly data: Uint8Array;
  readonly level: number;
  readonly modified: Date;
}

/** A ZIP archive of these entries, in this order. */
export function writeZip(entries: readonly NewEntry[]): Buffer {
  const chunks: Uint8Array[] = [];
  let failure: Error | null = null;
  const { Zip, ZipDeflate, ZipPassThrough } = fflate();
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else chunks.push(chunk);
  });
  for (const e of entries) {
    const file = e.level === 0 ? new ZipPassThrough(e.name) : new ZipDeflate(e.name, { level: e.level as 1 });
    file.mtime = e.modified;
    zip.add(file);
    file.push(e.data, true);
  }
  zip.end();
  if (failure) throw failure;
  return Buffer.concat(chunks);
}
