/**
 * Text written as many pieces and joined in chunks: a serialized result (markup, names, escaped
 * values: xquery/serialization) and the characters of a compact tree's strings
 * (tree/build-tree.ts). Concatenating into a string per element makes a rope object per piece,
 * and pieces kept as strings of their own until the end, tens of thousands of them, are copied
 * by every young-generation collection meanwhile (a query worker's young generation is small:
 * xquery/host/launch.ts). Pieces joined every thousand leave only flat chunks alive; one array
 * of every piece, joined at the end, takes longer to join than the chunks do.
 */

/** Pieces per chunk. */
const CHUNK = 1024;

export class TextPieces {
  /**
   * The pieces since the last chunk: writers push to it, and take it from here again after each
   * `settle`, which may start a new array. A new one rather than the old one emptied: emptying
   * gives its store back, which the next thousand pieces then grow again step by step (50,000
   * elements written in pieces: 28.7 ms that way, 18.4 with a new array, best of 14 runs).
   */
  out: string[] = [];
  private readonly chunks: string[] = [];

  /** Between items (never inside one, which may take back what it pushed): joins the pieces into a chunk once they are many. */
  settle(): void {
    if (this.out.length < CHUNK) return;
    this.chunks.push(this.out.join(''));
    this.out = [];
  }

  /** The whole text. */
  text(): string {
    if (this.chunks.length === 0) return this.out.join('');
    this.chunks.push(this.out.join(''));
    this.out = [];
    return this.chunks.join('');
  }
}
