/**
 * Large stored files crossing from the server to the query host in parts (host-protocol.ts
 * `ReadPart`), so that neither process holds more than the file once.
 *
 * Sent whole, a 108 MB document was the file read into the server, copied by the IPC channel's
 * serializer (which grows its buffer by doubling), gathered by the host from 64 KB pipe reads
 * into one more buffer, and copied again into the worker that parses it: after one query the
 * server kept 217 MB and the host several hundred more of these copies until their next garbage
 * collection, which in an idle process may not come for a long time.
 *
 * In parts: the server streams the file (`openStream`, under the job's view like any read) and
 * sends its size, then its bytes in parts of about PART_BYTES, each part only once the one before
 * has been written to the channel, then the end. The host copies each part into one buffer of the
 * announced size, and hands that buffer to the worker by transfer, not by copy (store-channel.ts
 * `transferable`). Smaller files keep the one-message answer: for them the parts would only add
 * messages.
 */
import type { ReadView } from '../../store/types';
import { transferable } from './store-channel';

/** Files of at least this many bytes are sent in parts; each part is about this large. */
export const PART_BYTES = 1 << 20;

/** What a view must offer for its files to be sent in parts. */
export type PartsView = Pick<ReadView, 'resource' | 'openStream'>;

/** `view` as a view whose files can be sent in parts, if it is one (the request's views are; a view that only answers a worker's reads is not). */
export function partsView(view: object): PartsView | undefined {
  const v = view as Partial<PartsView>;
  return typeof v.resource === 'function' && typeof v.openStream === 'function' ? (v as PartsView) : undefined;
}

/** What the server sends of a file in parts, in this order: its size, its parts, the end. */
export type ReadPart = { readonly size: number } | { readonly part: Uint8Array } | { readonly end: true };

/**
 * Sends the bytes of `path` in parts through `send` (which resolves once its message is
 * written) when the file has at least PART_BYTES; false, sending nothing, when it is smaller or
 * not there (the caller then answers with `readBytes`, which raises the store's error).
 */
export async function sendBytesInParts(view: PartsView, db: string, path: string, send: (message: ReadPart) => Promise<void>): Promise<boolean> {
  const info = await view.resource(db, path);
  if (info === undefined || info.bytes < PART_BYTES) return false;
  const stream = view.openStream(db, path);
  try {
    await send({ size: info.bytes });
    let gathered: Buffer[] = [];
    let length = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      gathered.push(chunk);
      length += chunk.length;
      if (length < PART_BYTES) continue;
      const part = gathered.length === 1 ? gathered[0] : Buffer.concat(gathered, length);
      gathered = [];
      length = 0;
      await send({ part });
    }
    if (length > 0) await send({ part: gathered.length === 1 ? gathered[0] : Buffer.concat(gathered, length) });
    await send({ end: true });
    return true;
  } finally {
    stream.destroy();
  }
}

/** The host's side: the parts of one file gathered into one buffer that is handed on by transfer. */
export class BytesInParts {
  private bytes: Uint8Array;
  private filled = 0;

  /** `size`: the size the server announced. */
  constructor(size: number) {
    this.bytes = new Uint8Array(size);
  }

  add(part: Uint8Array): void {
    if (this.filled + part.length > this.bytes.length) {
      // more than announced (the size and the stream are read under the job's locks, so this
      // should not happen): keep what the stream delivers
      const grown = new Uint8Array(Math.max(this.filled + part.length, this.bytes.length * 2));
      grown.set(this.bytes.subarray(0, this.filled));
      this.bytes = grown;
    }
    this.bytes.set(part, this.filled);
    this.filled += part.length;
  }

  /** The file, in a buffer of its own that may be transferred. */
  done(): Buffer {
    const whole = this.filled === this.bytes.length ? this.bytes : this.bytes.slice(0, this.filled);
    return transferable(Buffer.from(whole.buffer, whole.byteOffset, whole.byteLength));
  }
}
