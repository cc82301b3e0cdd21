/**
 * Text encoded as UTF-8 while it is written, into one block of memory that grows in place: for a
 * converted document that is stored as bytes (a PUT body). Kept as text and encoded at the end, a
 * 108 MB document was held three times over at once (its pieces, the joined string, the bytes).
 *
 * The block is a resizable ArrayBuffer (ES2024, Node 20): V8 reserves the address space of its
 * largest size when it is made and commits pages as it grows, so growing never copies what was
 * written. The last resize cuts it to what was written, so the bytes own their memory exactly and
 * can be moved to another thread (threads/transfer.ts). Past the reserved size (text that grew
 * beyond the expected bound, as escaping can make it), the block is moved once into a larger one.
 */

/** Bytes reserved beyond the expected size, and the least block. */
const SLACK = 1 << 20;

/** A UTF-8 character takes at most three bytes per UTF-16 code unit. */
const MAX_BYTES_PER_UNIT = 3;

export class Utf8Output {
  private memory: ArrayBuffer;
  private view: Buffer;
  private length = 0;

  /** `expectedBytes`: about what will be written (a converted document: its source's size). */
  constructor(expectedBytes: number) {
    this.memory = reserve(expectedBytes + SLACK, 2 * expectedBytes + SLACK);
    this.view = Buffer.from(this.memory, 0, this.memory.byteLength);
  }

  /** Appends `text`, encoded. */
  write(text: string): void {
    this.ensure(text.length * MAX_BYTES_PER_UNIT);
    this.length += this.view.write(text, this.length, 'utf8');
  }

  /** The bytes written: owns its memory; the output must not be written to afterwards. */
  bytes(): Buffer {
    this.memory.resize(this.length);
    return Buffer.from(this.memory, 0, this.length);
  }

  /** Room for `more` bytes after what was written. */
  private ensure(more: number): void {
    const needed = this.length + more;
    if (needed <= this.memory.byteLength) return;
    const size = Math.max(needed, Math.floor(this.memory.byteLength * 1.5));
    if (needed <= this.memory.maxByteLength) this.memory.resize(Math.min(size, this.memory.maxByteLength));
    else {
      const larger = reserve(size, 2 * size);
      new Uint8Array(larger).set(new Uint8Array(this.memory, 0, this.length));
      this.memory = larger;
    }
    this.view = Buffer.from(this.memory, 0, this.memory.byteLength);
  }
}

/** A resizable block of `size` bytes that may grow to `max`. */
function reserve(size: number, max: number): ArrayBuffer {
  return new ArrayBuffer(size, { maxByteLength: max });
}
