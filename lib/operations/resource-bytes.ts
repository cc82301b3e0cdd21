/**
 * The bytes of small stored resources, kept in memory for GET (spec §4): a resource is answered
 * from here when the version the request's read view sees (its etag, store/types.ts) is the one
 * kept. Every write gives a resource a new etag (random, never reused), so a kept copy is either
 * the bytes of that version or not used; a changed resource is read from the store again and
 * replaces it. Bounded by the bytes kept; the least recently served go first.
 */
import { LRUCache } from 'lru-cache';
import type { ReadView } from '../store/types';

/** Resources up to this size are kept ... */
export const KEPT_RESOURCE_BYTES = 256 * 1024;
/** ... up to this many bytes in all, per router. */
const KEPT_BYTES = 16 * 1024 * 1024;

interface Kept {
  readonly etag: string;
  readonly bytes: Buffer;
}

/** The bytes in a buffer of their own: a view into a larger buffer would keep all of it. */
function own(bytes: Buffer): Buffer {
  return bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length ? bytes : Buffer.from(bytes);
}

export class ResourceBytes {
  private readonly kept = new LRUCache<string, Kept>({ maxSize: KEPT_BYTES, sizeCalculation: (k) => Math.max(1, k.bytes.length) });

  /** The bytes of `db`/`path` at version `etag`, read through `view` (which holds the read lock) unless kept. */
  async read(view: ReadView, db: string, path: string, etag: string, size: number): Promise<Buffer> {
    const key = `${db}\u0000${path}`;
    const kept = this.kept.get(key);
    if (kept !== undefined && kept.etag === etag) return kept.bytes;
    const bytes = await view.readBytes(db, path);
    if (size <= KEPT_RESOURCE_BYTES && bytes.length <= KEPT_RESOURCE_BYTES) this.kept.set(key, { etag, bytes: own(bytes) });
    return bytes;
  }
}
