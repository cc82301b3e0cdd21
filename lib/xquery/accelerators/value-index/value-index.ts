/**
 * The value indexes of stored documents (BaseX's text, attribute and token indexes), per
 * document, merged at read:
 *
 * - text: the text nodes of each string value;
 * - attribute: the attribute nodes of each value (namespace declarations are no attributes);
 * - token: the attribute nodes whose value holds each token (split at XML whitespace, as
 *   fn:contains-token splits its input).
 *
 * Each document's postings are built from its parsed tree in one walk on first use and kept in
 * a WeakMap keyed by the document node: a stored document version is one immutable tree
 * (parsed-documents.ts, keyed by its etag), so its postings live exactly as long as it and can
 * never describe another version. A write changes the etag of what it writes, so a database's
 * index is current after every write, of any kind, without work at write time: the next read
 * builds the postings of the documents that changed and reuses those of the others. Whether a
 * database has an index is its option (store/index-kinds.ts), read from the catalog of the run.
 *
 * Storage: per document, its numbering in BaseX's pre order (pre-numbering.ts: from the rows of
 * a compact tree, without making nodes), and per kind a Map from value to its one pre or to its
 * run of pres in one shared Int32Array (`Postings`). The keys are the strings of the tree; tokens
 * are strings of their own.
 *
 * Pre values of a database (db:node-pre, db:get-pre) number its XML documents in path order,
 * each starting after the nodes of those before it (the catalog's node counts).
 */
import { NodeKind, type XdmNode } from '../../../saxon';
import type { DomNode } from '../name-index/name-index';
import type { ValueIndexKind } from '../../../store';
import { compareCodepoints } from '../../functions/order-tuples';
import { preNumbering, type PreNumbering } from './pre-numbering';

/**
 * The postings of one kind. Most values occur once, so `keys` maps a value to its one pre (>= 0)
 * or, for a value that occurs more often, to `-(start + 1)`, where `lists[start]` is the count and
 * the pres follow in ascending order: one small integer per value instead of an array object.
 */
export interface Postings {
  readonly keys: ReadonlyMap<string, number>;
  readonly lists: Int32Array;
}

interface DocIndex {
  readonly numbering: PreNumbering;
  readonly postings: Partial<Record<ValueIndexKind, Postings>>;
  /** Keys of each kind's postings in codepoint order (range lookups), made on first use. */
  readonly sortedKeys: Partial<Record<ValueIndexKind, string[]>>;
  /** Per element name: whether every such element's string value is its one text child's (or ''). */
  readonly simpleLeaves: Map<string, boolean>;
}

const indexes = new WeakMap<object, DocIndex>();

/** How many posting lookups were made (one per document and value), for tests. */
let lookupCount = 0;

/** The number of posting lookups made in this thread so far. */
export function valueIndexLookups(): number {
  return lookupCount;
}

function docIndex(doc: XdmNode): DocIndex {
  let index = indexes.get(doc);
  if (!index) {
    index = { numbering: preNumbering(doc), postings: {}, sortedKeys: {}, simpleLeaves: new Map() };
    indexes.set(doc, index);
  }
  return index;
}

/** The XML whitespace fn:contains-token and fn:tokenize#1 split at. */
const WHITESPACE = /[ \t\r\n]+/;

/** The tokens of an attribute value, each once. */
export function tokensOf(value: string): string[] {
  return [...new Set(value.split(WHITESPACE).filter((t) => t !== ''))];
}

function buildPostings(index: DocIndex, kind: ValueIndexKind): Postings {
  const first = new Map<string, number | number[]>();
  const add = (key: string, pre: number): void => {
    const seen = first.get(key);
    if (seen === undefined) first.set(key, pre);
    else if (typeof seen === 'number') first.set(key, [seen, pre]);
    else seen.push(pre);
  };
  if (kind === 'token') index.numbering.forEachValue('attribute', (value, pre) => tokensOf(value).forEach((token) => add(token, pre)));
  else index.numbering.forEachValue(kind, add);
  const keys = new Map<string, number>();
  const lists: number[] = [];
  for (const [key, pres] of first) {
    if (typeof pres === 'number') keys.set(key, pres);
    else {
      keys.set(key, -(lists.length + 1));
      lists.push(pres.length, ...pres);
    }
  }
  return { keys, lists: Int32Array.from(lists) };
}

function postingsOf(index: DocIndex, kind: ValueIndexKind): Postings {
  return (index.postings[kind] ??= buildPostings(index, kind));
}

/** Appends the pres of `value` to `out`. */
function collectPres(postings: Postings, value: string, out: number[]): void {
  const at = postings.keys.get(value);
  if (at === undefined) return;
  if (at >= 0) {
    out.push(at);
    return;
  }
  const start = -at - 1;
  const end = start + 1 + postings.lists[start];
  for (let i = start + 1; i < end; i++) out.push(postings.lists[i]);
}

/** The pres of document `doc` whose kind's value is one of `values`, ascending, each once. */
export function lookup(doc: XdmNode, kind: ValueIndexKind, values: readonly string[]): number[] {
  const postings = postingsOf(docIndex(doc), kind);
  const found: number[] = [];
  for (const value of new Set(values)) {
    lookupCount++;
    collectPres(postings, value, found);
  }
  return sortUnique(found);
}

/** The pres whose kind's value lies between `min` and `max` (codepoint order, both included). */
export function lookupRange(doc: XdmNode, kind: ValueIndexKind, min: string, max: string): number[] {
  const index = docIndex(doc);
  const postings = postingsOf(index, kind);
  const keys = (index.sortedKeys[kind] ??= sortedKeys(postings));
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareCodepoints(keys[mid], min) < 0) lo = mid + 1;
    else hi = mid;
  }
  lookupCount++;
  const found: number[] = [];
  for (let i = lo; i < keys.length && compareCodepoints(keys[i], max) <= 0; i++) collectPres(postings, keys[i], found);
  return sortUnique(found);
}

/**
 * The keys in codepoint order. UTF-16 code unit order (the default sort, much faster) is the
 * same unless a key holds a surrogate pair.
 */
function sortedKeys(postings: Postings): string[] {
  const keys = [...postings.keys.keys()];
  return keys.some((k) => /[\uD800-\uDFFF]/.test(k)) ? keys.sort(compareCodepoints) : keys.sort();
}

function sortUnique(pres: number[]): number[] {
  pres.sort((a, b) => a - b);
  return pres.filter((p, i) => i === 0 || pres[i - 1] !== p);
}

/** The parent pre of `pre` in `doc`. */
export function parentPre(doc: XdmNode, pre: number): number {
  return docIndex(doc).numbering.parent(pre);
}

/** The expanded name `Q{uri}local` of the node at `pre` (an element or attribute); '' for others. */
export function nameAt(doc: XdmNode, pre: number): string {
  return docIndex(doc).numbering.nameAt(pre);
}

/** The lexical (prefixed) name of the attribute at `pre`. */
export function attributeNameAt(doc: XdmNode, pre: number): string {
  return docIndex(doc).numbering.attributeNameAt(pre);
}

/** The node at `pre` of `doc` (an attribute as saxon-js's attribute axis gives it); undefined past the end. */
export function nodeAt(doc: XdmNode, pre: number): XdmNode | undefined {
  const { numbering } = docIndex(doc);
  return Number.isInteger(pre) && pre >= 0 && pre < numbering.size ? numbering.node(pre) : undefined;
}

/** The pre of `node` in its document `doc` (an attribute: found among its element's). */
export function preOf(doc: XdmNode, node: XdmNode): number | undefined {
  return docIndex(doc).numbering.preOf(node);
}

/**
 * Whether every element named `name` (`Q{uri}local`) of `doc` has no element child and at most
 * one text child, so that its string value is that text (or ''): then `name[. = v]` for a
 * non-empty v holds exactly for the parents named `name` of the text nodes of value v.
 */
export function leavesAreSimple(doc: XdmNode, name: string, elements: readonly XdmNode[]): boolean {
  const index = docIndex(doc);
  let simple = index.simpleLeaves.get(name);
  if (simple === undefined) {
    simple = elements.every((e) => {
      let texts = 0;
      for (let child = (e as DomNode).firstChild ?? null; child; child = child.nextSibling ?? null) {
        if (child.nodeType === NodeKind.element) return false;
        if (child.nodeType === NodeKind.text && ++texts > 1) return false;
      }
      return true;
    });
    index.simpleLeaves.set(name, simple);
  }
  return simple;
}

/** What V8 spends on one Map entry of a string key and a small integer, roughly (the strings themselves not counted). */
const MAP_ENTRY_BYTES = 32;

/** The bytes the index of `doc` holds beyond its tree (numbering, postings of the kinds built), roughly. */
export function indexBytes(doc: XdmNode): number {
  const index = docIndex(doc);
  let bytes = index.numbering.bytes;
  for (const postings of Object.values(index.postings)) bytes += postings.keys.size * MAP_ENTRY_BYTES + postings.lists.byteLength;
  return bytes;
}
