/**
 * The counts and child values of a DocumentSummary (leaf-summaries.ts) read from stored XML text
 * in one pass over its characters, for the form most stored documents have: no namespace
 * declaration and no prefixed element name, and no comment, processing instruction or CDATA
 * section inside the root element. It builds what SummarySink builds from the events of the
 * stored-text scanner (convert/stored-xml-scanner.ts), without the events: an end tag makes no
 * string, and a leaf's value is read from the text in place (a string is made only for a number
 * too long to read exactly here, or for text with references). At 2,000 stored documents of 25
 * items each, the scan is what a first `count(//item[price > 500])` spends most of its time on.
 *
 * Answers undefined as soon as the text leaves that form; the caller then summarises it as
 * before, so the summary is the same either way.
 */
import { decodeReferences, isS, spaceOnly } from '../../../convert/stored-xml-scanner';
import { plainNumber } from '../leaf-columns/leaf-values';
import { ownCopy } from '../../../xml/own-copy';

/** The values of one pair of element names (parent, child) in one document, as a scan collects them. */
export interface PairValues {
  owners: number[];
  values: number[];
  /** False once one such child is not a plain number (or holds an element). */
  plain: boolean;
}

/** What a scan collects: the number of elements of each name, and per pair of names (parent, child) the child values. */
export interface ScannedSummary {
  readonly counts: Map<string, number>;
  readonly pairs: Map<string, Map<string, PairValues>>;
}

/** The one pair whose values a scan keeps (`child` undefined: none); names are local names in no namespace. */
export interface OnlyPair {
  readonly parent: string;
  readonly child: string | undefined;
}

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
const EQUALS = 0x3d;
const COLON = 0x3a;
const AMPERSAND = 0x26;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;

/** The value of a leaf whose text is `text[from, to)` (from < 0: no text), or undefined when it is not a plain number. */
function leafValue(text: string, from: number, to: number): number | undefined {
  if (from < 0) return undefined;
  const value = plainNumber(text, from, to);
  if (value !== undefined) return value;
  let amp = from;
  while (amp < to && text.charCodeAt(amp) !== AMPERSAND) amp++;
  if (amp === to) return undefined;
  // references were checked up front (`referencesReadable`)
  return plainNumber(decodeReferences(text.slice(from, to))!);
}

/**
 * Whether every reference in `text` is one the stored-text scanner reads (the five predefined
 * entities, character references to characters XML allows); where one is not, the general
 * summary leaves the text to the parser, and so does this scan.
 */
function referencesReadable(text: string): boolean {
  for (let amp = text.indexOf('&'); amp !== -1; amp = text.indexOf('&', amp + 1)) {
    const semi = text.indexOf(';', amp);
    if (semi === -1 || decodeReferences(text.slice(amp, semi + 1)) === undefined) return false;
  }
  return true;
}

/**
 * The child values of pairs of names as a scan meets them, kept while they are all plain
 * numbers: the one place that decides what a pair keeps (this scan's and SummarySink's).
 */
export class SummaryPairs {
  readonly map = new Map<string, Map<string, PairValues>>();

  /** `only`: the one pair whose values to keep. */
  constructor(private readonly only: OnlyPair | undefined) {}

  /**
   * The values of children `child` of elements `parent`, when they are kept and all plain numbers
   * so far; undefined when the next one's value need not be read.
   */
  open(parent: string, child: string): PairValues | undefined {
    if (this.only !== undefined && (parent !== this.only.parent || child !== this.only.child)) return undefined;
    let row = this.map.get(parent);
    if (row === undefined) this.map.set(ownCopy(parent), (row = new Map()));
    let pair = row.get(child);
    if (pair === undefined) row.set(ownCopy(child), (pair = { owners: [], values: [], plain: true }));
    return pair.plain ? pair : undefined;
  }

  /** Records the value of a child of element number `owner` in `pair` (`open`); undefined (a branch, or no plain number) ends the pair's values. */
  static record(pair: PairValues, owner: number, value: number | undefined): void {
    if (value !== undefined) {
      pair.values.push(value);
      pair.owners.push(owner);
    } else {
      pair.plain = false;
      pair.owners = [];
      pair.values = [];
    }
  }
}

/**
 * Counts one more element named `key` in `counts` and answers its number among the elements of
 * that name (from 0). A summary is kept for as long as its document's version is: its keys are
 * copies, as the scanners' names are slices of the whole stored text (own-copy.ts), which a
 * kept slice would keep alive (at XMark factor 1, 108 MB in every worker that counted).
 */
export function countElement(counts: Map<string, number>, key: string): number {
  const ordinal = counts.get(key);
  if (ordinal === undefined) {
    counts.set(ownCopy(key), 1);
    return 0;
  }
  counts.set(key, ordinal + 1);
  return ordinal;
}

/** The summary of stored XML `text` (see the file comment); undefined to summarise it the general way. */
export function scanSummary(text: string, only?: OnlyPair): ScannedSummary | undefined {
  if (text.charCodeAt(0) === 0xfeff || text.indexOf('\r') !== -1 || text.indexOf('xmlns') !== -1 || !referencesReadable(text)) return undefined;
  const counts = new Map<string, number>();
  const pairs = new SummaryPairs(only);
  // per open element: its name, its number among the elements of its name, whether it has an
  // element child, and where its first text starts and ends (-1: none)
  const names: string[] = [];
  const ordinals: number[] = [];
  const branches: boolean[] = [];
  const textFrom: number[] = [];
  const textTo: number[] = [];
  let depth = 0;
  let rooted = false;
  let pos = 0;
  const n = text.length;
  for (;;) {
    const lt = text.indexOf('<', pos);
    const to = lt === -1 ? n : lt;
    if (to > pos) {
      if (depth === 0) {
        if (!spaceOnly(text, pos, to)) return undefined;
      } else if (textFrom[depth - 1] < 0) {
        textFrom[depth - 1] = pos;
        textTo[depth - 1] = to;
      }
      // a later run of text is one after an element child: its element is a branch, whose text is no value
    }
    if (lt === -1) return rooted && depth === 0 ? { counts, pairs: pairs.map } : undefined;
    const c = text.charCodeAt(lt + 1);
    if (c === SLASH) {
      if (depth === 0) return undefined;
      const name = names[depth - 1];
      if (!text.startsWith(name, lt + 2)) return undefined;
      let p = lt + 2 + name.length;
      while (isS(text.charCodeAt(p))) p++;
      if (text.charCodeAt(p) !== GT) return undefined;
      depth--;
      const pair = depth > 0 ? pairs.open(names[depth - 1], name) : undefined;
      // a value is read only while its pair keeps values: after the first that is no plain number, none is
      if (pair !== undefined) SummaryPairs.record(pair, ordinals[depth - 1], branches[depth] ? undefined : leafValue(text, textFrom[depth], textTo[depth]));
      pos = p + 1;
    } else if (c === BANG || c === QUESTION) {
      // before or after the root element only
      if (depth > 0) return undefined;
      const close = c === BANG ? (text.startsWith('<!--', lt) ? '-->' : undefined) : '?>';
      if (close === undefined) return undefined;
      const end = text.indexOf(close, lt + 2);
      if (end === -1) return undefined;
      pos = end + close.length;
    } else {
      if (depth === 0 && rooted) return undefined;
      let p = lt + 1;
      for (; p < n; p++) {
        const ch = text.charCodeAt(p);
        if (isS(ch) || ch === GT || ch === SLASH) break;
        if (ch === COLON || ch === EQUALS || ch === LT || ch === AMPERSAND) return undefined;
      }
      if (p === lt + 1 || p >= n) return undefined;
      const name = text.slice(lt + 1, p);
      // attributes (their values may hold `>`), up to the tag's end
      for (;;) {
        const spaced = p;
        while (isS(text.charCodeAt(p))) p++;
        const ch = text.charCodeAt(p);
        if (ch === GT || ch === SLASH) break;
        if (p === spaced || p >= n) return undefined;
        const eq = text.indexOf('=', p);
        if (eq === -1) return undefined;
        const quote = text.charCodeAt(eq + 1);
        if (quote !== DOUBLE_QUOTE && quote !== SINGLE_QUOTE) return undefined;
        const close = text.indexOf(quote === DOUBLE_QUOTE ? '"' : "'", eq + 2);
        if (close === -1) return undefined;
        p = close + 1;
      }
      const empty = text.charCodeAt(p) === SLASH;
      if (empty && text.charCodeAt(p + 1) !== GT) return undefined;
      if (depth > 0) branches[depth - 1] = true;
      const ordinal = countElement(counts, name);
      rooted = true;
      if (empty) {
        // no text: no value
        const pair = depth > 0 ? pairs.open(names[depth - 1], name) : undefined;
        if (pair !== undefined) SummaryPairs.record(pair, ordinals[depth - 1], undefined);
        pos = p + 2;
      } else {
        names[depth] = name;
        ordinals[depth] = ordinal;
        branches[depth] = false;
        textFrom[depth] = -1;
        depth++;
        pos = p + 1;
      }
    }
  }
}
