/**
 * The full-text index of stored documents (BaseX's full-text index, docs.basex.org "Indexes"):
 * per document, the text nodes holding each token, tokenized by the one rule of `contains text`
 * (fulltext/tokens.ts) and folded by the options the index was created with (CASESENS,
 * DIACRITICS; STEMMING maps tokens to their stems at lookup).
 *
 * Like the value indexes (value-index.ts) it is derived from each stored document version, built
 * on first use and kept in a WeakMap keyed by the document node: a stored version is one
 * immutable tree (parsed-documents.ts, keyed by its etag), so its postings can never describe
 * another version, and every write (PUT, DELETE, updating queries, db: updates, RENAME, REPLACE,
 * …) is reflected by the next read without work at write time, and without a second copy on disk
 * that a crash could leave behind the documents. Its memory is that of the parsed-document cache
 * it hangs on (bounded there, parsed-documents.ts) plus what `fullTextIndexBytes` reports.
 *
 * A store that keeps the index itself (PostgreSQL, store/types.ts "The full-text index") answers
 * the lookups of fulltext-candidates.ts instead (fulltext-stored.ts), from postings made by
 * `textTokens` too.
 *
 * Storage: the text nodes with at least one token in document order, and a Map from each folded
 * token to the positions (in that array) of the text nodes holding it, ascending, each once (one
 * number when it occurs in one node), with the number of its occurrences.
 */
import { NodeKind, type XdmNode } from '../../saxon';
import type { DomNode } from './name-index';
import { NodeKind as Row } from '../../tree/compact-tree';
import { treeNode } from '../../tree/tree-dom';
import { words } from '../fulltext/tokens';
import { normalizeToken } from '../fulltext/terms';
import { stemmerFor } from '../fulltext/stemmers';

/** How tokens are folded: the index's CASESENS and DIACRITICS. */
export interface FoldOptions {
  readonly caseSensitive: boolean;
  readonly diacriticsSensitive: boolean;
}

interface Entry {
  /** Positions in `texts`: one, or ascending. */
  nodes: number | number[];
  /** Occurrences of the token in the document. */
  count: number;
}

interface DocFullText {
  /** The indexed text nodes by position: made on demand from rows for a compact tree. */
  readonly texts: { readonly length: number; at(position: number): DomNode };
  readonly entries: ReadonlyMap<string, Entry>;
  /** For a stemming index: folded tokens by their stem (language by key), made on first use. */
  readonly stems: Map<string, Map<string, string[]>>;
}

/** How many lookups were made (one per document and query word), for tests. */
let lookupCount = 0;

/** The number of full-text index lookups made in this thread so far. */
export function fullTextLookups(): number {
  return lookupCount;
}

/** Per document node, per fold (`c` case, `d` diacritics sensitive). */
const indexes = new WeakMap<object, Map<string, DocFullText>>();

function foldKey(o: FoldOptions): string {
  return `${o.caseSensitive ? 'c' : ''}${o.diacriticsSensitive ? 'd' : ''}`;
}

/** A token folded as the index stores it. */
export function foldToken(word: string, o: FoldOptions): string {
  return normalizeToken(word, { case: o.caseSensitive ? 'sensitive' : 'insensitive', diacritics: o.diacriticsSensitive ? 'sensitive' : 'insensitive' });
}

/** The tokens of a text node's value, in order, folded as the index stores them (also those a store keeps: fulltext-stored.ts). */
export function textTokens(value: string, o: FoldOptions): string[] {
  return words(value).map((w) => foldToken(w, o));
}

/** Adds the tokens of the text at position `at` to `entries`; false when it has none. */
function addText(entries: Map<string, Entry>, value: string, at: number, o: FoldOptions): boolean {
  const keys = textTokens(value, o);
  if (keys.length === 0) return false;
  for (const key of keys) {
    const e = entries.get(key);
    if (e === undefined) entries.set(key, { nodes: at, count: 1 });
    else {
      e.count++;
      if (typeof e.nodes === 'number') {
        if (e.nodes !== at) e.nodes = [e.nodes, at];
      } else if (e.nodes[e.nodes.length - 1] !== at) e.nodes.push(at);
    }
  }
  return true;
}

function build(doc: DomNode, o: FoldOptions): DocFullText {
  const entries = new Map<string, Entry>();
  const tree = treeNode(doc);
  if (tree !== undefined) {
    // a compact tree: its text rows in document order, no node made until a lookup answers one
    const { kind, value, strings, size } = tree.v.tree;
    const rows: number[] = [];
    for (let pre = 1; pre < size; pre++) if (kind[pre] === Row.text && addText(entries, strings[value[pre]], rows.length, o)) rows.push(pre);
    const pres = Int32Array.from(rows);
    return { texts: { length: pres.length, at: (i) => tree.v.node(pres[i]) as unknown as DomNode }, entries, stems: new Map() };
  }
  const texts: DomNode[] = [];
  const visit = (node: DomNode): void => {
    for (let child = node.firstChild ?? null; child; child = child.nextSibling ?? null) {
      if (child.nodeType === NodeKind.text) {
        if (addText(entries, (child as unknown as { nodeValue: string }).nodeValue, texts.length, o)) texts.push(child);
      } else if (child.nodeType === NodeKind.element) visit(child);
    }
  };
  visit(doc);
  return { texts: { length: texts.length, at: (i) => texts[i] }, entries, stems: new Map() };
}

function docFullText(doc: XdmNode, o: FoldOptions): DocFullText {
  let byFold = indexes.get(doc);
  if (!byFold) {
    byFold = new Map();
    indexes.set(doc, byFold);
  }
  const key = foldKey(o);
  let index = byFold.get(key);
  if (!index) {
    index = build(doc as unknown as DomNode, o);
    byFold.set(key, index);
  }
  return index;
}

/** The folded tokens of `doc` that share the stem of each, for `language`. */
function stemGroups(index: DocFullText, language: string | undefined, stem: (w: string) => string): Map<string, string[]> {
  const lang = language ?? '';
  let groups = index.stems.get(lang);
  if (!groups) {
    groups = new Map();
    for (const token of index.entries.keys()) {
      const s = stem(token.toLowerCase());
      const list = groups.get(s);
      if (list) list.push(token);
      else groups.set(s, [token]);
    }
    index.stems.set(lang, groups);
  }
  return groups;
}

/** Which folded tokens a query token selects. */
export type TokenSelector =
  | { readonly exact: string }
  | { readonly stem: string; readonly language: string | undefined }
  | { readonly test: (foldedToken: string) => boolean };

function selectedTokens(index: DocFullText, selector: TokenSelector): string[] {
  if ('exact' in selector) return index.entries.has(selector.exact) ? [selector.exact] : [];
  if ('stem' in selector) {
    const stem = stemmerFor(selector.language);
    return stem ? (stemGroups(index, selector.language, stem).get(selector.stem) ?? []) : [];
  }
  return [...index.entries.keys()].filter(selector.test);
}

/** The positions of the text nodes of `doc` holding a token `selector` selects, ascending. */
export function lookupTexts(doc: XdmNode, o: FoldOptions, selector: TokenSelector): number[] {
  const index = docFullText(doc, o);
  lookupCount++;
  const out: number[] = [];
  for (const token of selectedTokens(index, selector)) {
    const nodes = (index.entries.get(token) as Entry).nodes;
    if (typeof nodes === 'number') out.push(nodes);
    else out.push(...nodes);
  }
  out.sort((a, b) => a - b);
  return out.filter((p, i) => i === 0 || out[i - 1] !== p);
}

/** The number of indexed text nodes of `doc` (positions are 0 to this, excluded). */
export function textCount(doc: XdmNode, o: FoldOptions): number {
  return docFullText(doc, o).texts.length;
}

/** The text node at a position. */
export function textAt(doc: XdmNode, o: FoldOptions, position: number): XdmNode {
  return docFullText(doc, o).texts.at(position) as unknown as XdmNode;
}

/** Each folded token of `doc` with its number of occurrences. */
export function tokenCounts(doc: XdmNode, o: FoldOptions): Iterable<[string, number]> {
  const entries = docFullText(doc, o).entries;
  return (function* () {
    for (const [token, e] of entries) yield [token, e.count] as [string, number];
  })();
}

/** What V8 spends on one Map entry of a string key and a small object, roughly (the strings not counted). */
const ENTRY_BYTES = 64;

/** The bytes the full-text index of `doc` holds beyond its tree, roughly (measured in tests). */
export function fullTextIndexBytes(doc: XdmNode, o: FoldOptions): number {
  const index = docFullText(doc, o);
  let bytes = index.texts.length * (treeNode(doc) !== undefined ? 4 : 8);
  for (const [token, e] of index.entries) bytes += ENTRY_BYTES + token.length * 2 + (typeof e.nodes === 'number' ? 0 : e.nodes.length * 8);
  return bytes;
}
