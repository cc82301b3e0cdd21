/**
 * The postings of the full-text index of one document (fulltext-index.ts): every occurrence of
 * every folded token, as the indexed text it is in and its token position there, kept in typed
 * arrays (no object per posting or per token):
 *
 *   ids     folded token → its id
 *   start   the occurrences of token `id` are `start[id]` to `start[id + 1]` (excluded)
 *   text    per occurrence, the position of its text among the document's indexed texts
 *   pos     per occurrence, its token position in that text: the `pos` of fulltext/tokens.ts
 *           `tokenize` (the same scan), 16 bits when no text has more than 65,536 tokens
 *
 * Occurrences of a token are in document order (text, then position), as they are added. So a
 * phrase is the placements where each word's token sits at the next position of the same text
 * (`phraseTexts`), found by one merge over the words' occurrences: a phrase never spans two text
 * nodes, as the index's unit, like the matcher's over a text node, is one text node.
 */
import { scanTokens } from '../../fulltext/tokens';

export interface Postings {
  readonly ids: ReadonlyMap<string, number>;
  readonly start: Int32Array;
  readonly text: Int32Array;
  readonly pos: Uint16Array | Int32Array;
}

/** An int32 list that grows by doubling. */
class IntList {
  items = new Int32Array(1024);
  length = 0;

  push(v: number): void {
    if (this.length === this.items.length) {
      const more = new Int32Array(this.items.length * 2);
      more.set(this.items);
      this.items = more;
    }
    this.items[this.length++] = v;
  }
}

/** Collects the tokens of a document's texts, in document order; `finish` lays them out as postings. */
export class PostingsBuilder {
  private readonly ids = new Map<string, number>();
  /** Token ids by the word as written: most words recur, and folding is then skipped (dropped at `finish`). */
  private written: Map<string, number> | undefined = new Map();
  /** The token id of every occurrence, texts one after the other. */
  private readonly tokens = new IntList();
  /** Where each text's occurrences end in `tokens`. */
  private readonly textEnds = new IntList();
  private longest = 0;

  constructor(private readonly fold: (word: string) => string) {}

  /** The number of texts added (with a token). */
  get texts(): number {
    return this.textEnds.length;
  }

  /** Adds the tokens of the next text; false (and nothing added) when it has none. */
  add(value: string): boolean {
    const first = this.tokens.length;
    scanTokens(value, (start, end) => this.addToken(value.slice(start, end)));
    const count = this.tokens.length - first;
    if (count === 0) return false;
    this.textEnds.push(this.tokens.length);
    if (count > this.longest) this.longest = count;
    return true;
  }

  private addToken(word: string): void {
    const written = this.written as Map<string, number>;
    let id = written.get(word);
    if (id === undefined) {
      const key = this.fold(word);
      id = this.ids.get(key);
      if (id === undefined) {
        id = this.ids.size;
        this.ids.set(key, id);
      }
      written.set(word, id);
    }
    this.tokens.push(id);
  }

  finish(): Postings {
    this.written = undefined;
    const tokens = this.tokens.items;
    const n = this.tokens.length;
    const start = new Int32Array(this.ids.size + 1);
    for (let i = 0; i < n; i++) start[tokens[i] + 1]++;
    for (let id = 0; id < this.ids.size; id++) start[id + 1] += start[id];
    const next = start.slice(0, this.ids.size);
    const text = new Int32Array(n);
    const pos = this.longest <= 0x10000 ? new Uint16Array(n) : new Int32Array(n);
    const ends = this.textEnds.items;
    for (let t = 0, o = 0; t < this.textEnds.length; t++) {
      const first = o;
      for (; o < ends[t]; o++) {
        const k = next[tokens[o]]++;
        text[k] = t;
        pos[k] = o - first;
      }
    }
    return { ids: this.ids, start, text, pos };
  }
}

/** The number of occurrences of token `id`. */
export function occurrenceCount(p: Postings, id: number): number {
  return p.start[id + 1] - p.start[id];
}

/** The texts holding one of the tokens `ids`, ascending, each once. */
export function textsOf(p: Postings, ids: readonly number[]): number[] {
  const out: number[] = [];
  for (const id of ids) for (let k = p.start[id], last = -1; k < p.start[id + 1]; k++) if (p.text[k] !== last) out.push((last = p.text[k]));
  if (ids.length > 1) {
    out.sort((a, b) => a - b);
    return out.filter((t, i) => i === 0 || out[i - 1] !== t);
  }
  return out;
}

/** Occurrences in document order: parallel text and position arrays. */
interface Occurrences {
  readonly text: ArrayLike<number>;
  readonly pos: ArrayLike<number>;
  readonly length: number;
}

/** The occurrences of any of the tokens `ids`, in document order (views of the postings for one token). */
function occurrencesOf(p: Postings, ids: readonly number[]): Occurrences {
  if (ids.length === 1) {
    const [from, to] = [p.start[ids[0]], p.start[ids[0] + 1]];
    return { text: p.text.subarray(from, to), pos: p.pos.subarray(from, to), length: to - from };
  }
  const order: number[] = [];
  for (const id of ids) for (let k = p.start[id]; k < p.start[id + 1]; k++) order.push(k);
  order.sort((a, b) => p.text[a] - p.text[b] || p.pos[a] - p.pos[b]);
  return { text: order.map((k) => p.text[k]), pos: order.map((k) => p.pos[k]), length: order.length };
}

/**
 * The texts where the words stand one after the other: word `i` is one of the tokens
 * `words[i]`, or any token when undefined (then not checked: the answer holds the texts where
 * the other words stand so, a superset when such a word may fall outside the text). At least
 * one word must be given tokens. Ascending, each once.
 *
 * The rarest word's occurrences anchor the placements; every other word is looked up at its
 * offset from the anchor by a cursor that only moves forward, as anchors come in document order.
 */
export function phraseTexts(p: Postings, words: readonly (readonly number[] | undefined)[]): number[] {
  const lists: { offset: number; occ: Occurrences }[] = [];
  for (let i = 0; i < words.length; i++) {
    const ids = words[i];
    if (ids === undefined) continue;
    if (ids.length === 0) return [];
    lists.push({ offset: i, occ: occurrencesOf(p, ids) });
  }
  lists.sort((a, b) => a.occ.length - b.occ.length);
  const [anchor, ...rest] = lists;
  const cursors = new Int32Array(rest.length);
  const out: number[] = [];
  for (let a = 0; a < anchor.occ.length; a++) {
    const t = anchor.occ.text[a];
    const first = anchor.occ.pos[a] - anchor.offset;
    if (first < 0 || (out.length > 0 && out[out.length - 1] === t)) continue;
    let placed = true;
    for (let j = 0; j < rest.length && placed; j++) {
      const { offset, occ } = rest[j];
      const want = first + offset;
      let c = cursors[j];
      while (c < occ.length && (occ.text[c] < t || (occ.text[c] === t && occ.pos[c] < want))) c++;
      cursors[j] = c;
      placed = c < occ.length && occ.text[c] === t && occ.pos[c] === want;
    }
    if (placed) out.push(t);
  }
  return out;
}

/** The bytes the typed arrays of the postings hold. */
export function postingsArrayBytes(p: Postings): number {
  return p.start.byteLength + p.text.byteLength + p.pos.byteLength;
}
