/**
 * The full-text index of stored documents (BaseX's full-text index, docs.basex.org "Indexes"):
 * per document, the text nodes holding each token, tokenized and folded as folded-tokens.ts says
 * (STEMMING maps tokens to their stems at lookup).
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
 * `textTokens` (folded-tokens.ts) too.
 *
 * Storage: the text nodes with at least one token in document order, and the postings of their
 * tokens with positions (fulltext-postings.ts).
 */
import { NodeKind, type XdmNode } from '../../../saxon';
import type { DomNode } from '../name-index/name-index';
import { NodeKind as Row } from '../../../tree/compact-tree';
import { treeNode } from '../../../tree/tree-dom';
import { foldToken, type FoldOptions } from './folded-tokens';
import { stemmerFor } from '../../fulltext/stemmers';
import { occurrenceCount, phraseTexts, postingsArrayBytes, PostingsBuilder, textsOf, type Postings } from './fulltext-postings';

interface DocFullText {
  /** The indexed text nodes by position: made on demand from rows for a compact tree. */
  readonly texts: { readonly length: number; at(position: number): DomNode };
  /** For a compact tree: the rows of the indexed text nodes by position. */
  readonly rows?: Int32Array;
  readonly postings: Postings;
  /** For a stemming index: token ids by stem (language by key), made on first use. */
  readonly stems: Map<string, Map<string, number[]>>;
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

function build(doc: DomNode, o: FoldOptions): DocFullText {
  const postings = new PostingsBuilder((w) => foldToken(w, o));
  const tree = treeNode(doc);
  if (tree !== undefined) {
    // a compact tree: its text rows in document order, no node made until a lookup answers one
    const { kind, ref, strings, size } = tree.v.tree;
    const rows: number[] = [];
    for (let pre = 1; pre < size; pre++) if (kind[pre] === Row.text && postings.add(strings.at(ref[pre]))) rows.push(pre);
    const pres = Int32Array.from(rows);
    return { texts: { length: pres.length, at: (i) => tree.v.node(pres[i]) as unknown as DomNode }, rows: pres, postings: postings.finish(), stems: new Map() };
  }
  const texts: DomNode[] = [];
  const visit = (node: DomNode): void => {
    for (let child = node.firstChild ?? null; child; child = child.nextSibling ?? null) {
      if (child.nodeType === NodeKind.text) {
        if (postings.add((child as unknown as { nodeValue: string }).nodeValue)) texts.push(child);
      } else if (child.nodeType === NodeKind.element) visit(child);
    }
  };
  visit(doc);
  return { texts: { length: texts.length, at: (i) => texts[i] }, postings: postings.finish(), stems: new Map() };
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

/** The ids of the folded tokens of `doc` that share the stem of each, for `language`. */
function stemGroups(index: DocFullText, language: string | undefined, stem: (w: string) => string): Map<string, number[]> {
  const lang = language ?? '';
  let groups = index.stems.get(lang);
  if (!groups) index.stems.set(lang, (groups = groupByStem(index.postings.ids, stem)));
  return groups;
}

/** Per stem (of the lowercased token, as `tokenSelected` stems), the values of the tokens that have it. */
export function groupByStem<T>(tokens: Iterable<readonly [string, T]>, stem: (w: string) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const [token, value] of tokens) {
    const s = stem(token.toLowerCase());
    const list = groups.get(s);
    if (list) list.push(value);
    else groups.set(s, [value]);
  }
  return groups;
}

/** Which folded tokens a query token selects. */
export type TokenSelector =
  | { readonly exact: string }
  | { readonly stem: string; readonly language: string | undefined }
  | { readonly test: (foldedToken: string) => boolean };

/** Whether `selector` selects a folded token (as `selectedTokens` selects the index's tokens). */
export function tokenSelected(selector: TokenSelector, token: string): boolean {
  if ('exact' in selector) return token === selector.exact;
  if ('test' in selector) return selector.test(token);
  const stem = stemmerFor(selector.language);
  return stem !== undefined && stem(token.toLowerCase()) === selector.stem;
}

/** The ids of the tokens `selector` selects. */
function selectedTokens(index: DocFullText, selector: TokenSelector): number[] {
  const { ids } = index.postings;
  if ('exact' in selector) {
    const id = ids.get(selector.exact);
    return id === undefined ? [] : [id];
  }
  if ('stem' in selector) {
    const stem = stemmerFor(selector.language);
    return stem ? (stemGroups(index, selector.language, stem).get(selector.stem) ?? []) : [];
  }
  const out: number[] = [];
  for (const [token, id] of ids) if (selector.test(token)) out.push(id);
  return out;
}

/** The positions of the text nodes of `doc` holding a token `selector` selects, ascending. */
export function lookupTexts(doc: XdmNode, o: FoldOptions, selector: TokenSelector): number[] {
  const index = docFullText(doc, o);
  lookupCount++;
  return textsOf(index.postings, selectedTokens(index, selector));
}

/**
 * The positions of the text nodes of `doc` where tokens the selectors select stand one after the
 * other, ascending: word `i` at the `i`-th position of a placement, any token when its selector
 * is undefined (not checked, so the answer may be a superset where such a word would lie beyond
 * the text's tokens). At least one selector must be given.
 */
export function lookupPhrase(doc: XdmNode, o: FoldOptions, selectors: readonly (TokenSelector | undefined)[]): number[] {
  const index = docFullText(doc, o);
  const words = selectors.map((s) => {
    if (s === undefined) return undefined;
    lookupCount++;
    return selectedTokens(index, s);
  });
  return phraseTexts(index.postings, words);
}

/** The number of indexed text nodes of `doc` (positions are 0 to this, excluded). */
export function textCount(doc: XdmNode, o: FoldOptions): number {
  return docFullText(doc, o).texts.length;
}

/** The rows of the indexed text nodes by position when `doc` is a compact tree, else undefined. */
export function textRows(doc: XdmNode, o: FoldOptions): Int32Array | undefined {
  return docFullText(doc, o).rows;
}

/** The text node at a position. */
export function textAt(doc: XdmNode, o: FoldOptions, position: number): XdmNode {
  return docFullText(doc, o).texts.at(position) as unknown as XdmNode;
}

/** Each folded token of `doc` with its number of occurrences. */
export function tokenCounts(doc: XdmNode, o: FoldOptions): Iterable<[string, number]> {
  const { postings } = docFullText(doc, o);
  return (function* () {
    for (const [token, id] of postings.ids) yield [token, occurrenceCount(postings, id)] as [string, number];
  })();
}

/** What V8 spends on one Map entry of a string key and a small-integer value, roughly (the characters counted apart). */
const ENTRY_BYTES = 40;

/** The bytes the full-text index of `doc` holds beyond its tree, roughly (measured in tests). */
export function fullTextIndexBytes(doc: XdmNode, o: FoldOptions): number {
  const index = docFullText(doc, o);
  let bytes = index.texts.length * (treeNode(doc) !== undefined ? 4 : 8) + postingsArrayBytes(index.postings);
  for (const token of index.postings.ids.keys()) bytes += ENTRY_BYTES + token.length * 2;
  return bytes;
}
