/**
 * What the full-text index (fulltext-index.ts) tells about a full-text selection: the text nodes
 * of a document that may satisfy it, a superset of those that do, so that only they need the
 * matcher (fulltext/matcher.ts). ft:search starts from them (functions/ft-index.ts), and `contains
 * text` over a stored text node of a database with the index skips the node when the index rules
 * it out (`ruledOutByIndex`, functions/ft.ts): the same answers as without the index, with less work.
 */
import { isNode, xpathError, type XdmItem, type XdmNode } from '../../../saxon';
import { hasFullTextIndex } from '../../../store';
import type { DatabaseOptions } from '../../../store/types';
import { activeDatabases } from '../../worker/documents/database-access';
import { activeDocumentSource } from '../../worker/documents/source';
import { NodeKind as Row } from '../../../tree/compact-tree';
import { treeNode } from '../../../tree/tree-dom';
import { storedIndexOf, type StoredIndex } from './fulltext-stored';
import { lookupPhrase, lookupTexts, textAt, textCount, tokenSelected, type TokenSelector } from './fulltext-index';
import { foldOf, foldToken, textTokens, type FoldOptions } from './folded-tokens';
import { stopWords } from '../../fulltext/phrase-tests';
import { DEFAULT_MATCH_OPTIONS, type FTMatchOptions, type FTNode } from '../../fulltext/selection';
import { stemmerFor } from '../../fulltext/stemmers';
import { termTest } from '../../fulltext/terms';
import { normalizeToken, wildcardWords, words } from '../../fulltext/tokens';

/** The full-text index options of a database. */
export interface IndexOptions {
  readonly fold: FoldOptions;
  readonly match: FTMatchOptions;
}

export function indexOptions(o: Readonly<DatabaseOptions>): IndexOptions {
  const fold = foldOf(o);
  const language = typeof o.language === 'string' && o.language !== '' ? o.language : undefined;
  const stopwords = typeof o.stopwords === 'string' && o.stopwords !== '' ? o.stopwords : undefined;
  return {
    fold,
    match: {
      ...DEFAULT_MATCH_OPTIONS,
      case: fold.caseSensitive ? 'sensitive' : 'insensitive',
      diacritics: fold.diacriticsSensitive ? 'sensitive' : 'insensitive',
      stemming: o.stemming === true,
      ...(language !== undefined ? { language } : {}),
      stopWords: stopwords !== undefined ? [{ op: 'base', at: stopwords }] : [],
    },
  };
}

/** Candidate positions in one document: a sorted list, or every indexed text node. */
export type Candidates = number[] | 'all';

function intersect(a: Candidates, b: Candidates): Candidates {
  if (a === 'all') return b;
  if (b === 'all') return a;
  const set = new Set(b);
  return a.filter((p) => set.has(p));
}

function union(a: Candidates, b: Candidates): Candidates {
  if (a === 'all' || b === 'all') return 'all';
  const all = [...a, ...b].sort((x, y) => x - y);
  return all.filter((p, i) => i === 0 || all[i - 1] !== p);
}

/**
 * How the text nodes of a query word are found in the index: the word compared as the options
 * say, but folded as the index folds its tokens (foldFits: never finer than the options), so the
 * tokens found are all those the options match, and maybe more.
 */
function selector(word: string, o: FTMatchOptions, fold: FoldOptions): TokenSelector {
  const io: FTMatchOptions = { ...o, case: fold.caseSensitive ? 'sensitive' : 'insensitive', diacritics: fold.diacriticsSensitive ? 'sensitive' : 'insensitive' };
  if (o.wildcards || o.fuzzy) return { test: termTest(word, io, false) };
  const folded = foldToken(word, fold);
  if (o.stemming) {
    const stem = stemmerFor(o.language);
    if (!stem) throw xpathError(`Language '${o.language}' is not supported.`, 'FTST0009');
    return { stem: stem(folded.toLowerCase()), language: o.language };
  }
  return { exact: folded };
}

/** Whether text folded as `fold` keeps every token the options tell apart (then a lookup finds a superset). */
function foldFits(o: FTMatchOptions, fold: FoldOptions): boolean {
  if (o.case === 'lowercase' || o.case === 'uppercase' || o.thesauri.length > 0) return false;
  // Stems of words with and without diacritics may differ: a stemmed search folds them as the index does.
  if (o.stemming && (o.diacritics === 'sensitive') !== fold.diacriticsSensitive) return false;
  return (o.case === 'sensitive' || !fold.caseSensitive) && (o.diacritics === 'sensitive' || !fold.diacriticsSensitive);
}

/**
 * The text nodes of `doc` that may satisfy the selection: a superset of those that do. A words
 * node gives, for each query word, the nodes holding a token it matches (a stop word matches any
 * token, §3.4.7), joined as its mode joins the words, the words of a phrase placed one after the
 * other by their positions in the index (§4.2.1: a phrase is consecutive tokens of the searched
 * text, here one text node); ftand intersects, ftor unites, a mild not
 * keeps its left side, filters (ordered, window, distance, scope, content, weight) only drop
 * matches. What the index cannot narrow is 'all': ftnot, `occurs` that allows none, computed
 * words, and options the index's folding loses (an insensitive search of a case-sensitive index,
 * `lowercase`/`uppercase`, thesauri).
 */
export function candidatesOf(doc: XdmNode, fold: FoldOptions, node: FTNode): Candidates {
  switch (node.t) {
    case 'words':
      return wordCandidates(doc, fold, node);
    case 'or':
      return node.items.map((i) => candidatesOf(doc, fold, i)).reduce(union, []);
    case 'and':
      return node.items.map((i) => candidatesOf(doc, fold, i)).reduce(intersect, 'all');
    case 'mildnot':
      return candidatesOf(doc, fold, node.left);
    case 'not':
      return 'all';
    default:
      return candidatesOf(doc, fold, node.item);
  }
}

function wordCandidates(doc: XdmNode, fold: FoldOptions, node: Extract<FTNode, { t: 'words' }>): Candidates {
  const o = node.options;
  if (!('fixed' in node.value) || !foldFits(o, fold)) return 'all';
  const min = node.times?.min;
  if (node.times && !(min && 'fixed' in min && min.fixed >= 1)) return 'all';
  const terms = node.value.fixed;
  const stops = stopWords(o);
  const split = (s: string): string[] => (o.wildcards ? wildcardWords(s) : words(s));
  // the store's own index when it keeps one (its numbers name text nodes as candidateTexts reads them)
  const stored = storedIndexOf(doc);
  const lookup = (s: TokenSelector): number[] => (stored ? stored.lookup(s) : lookupTexts(doc, fold, s));
  const isStop = (w: string): boolean => stops.has(normalizeToken(w, { case: 'insensitive', diacritics: o.diacritics }));
  const ofWord = (w: string): Candidates => (isStop(w) ? 'all' : lookup(selector(w, o, fold)));
  // Every word, anywhere; none: nothing matches.
  const ofAll = (ws: readonly string[]): Candidates => (ws.length === 0 ? [] : ws.map(ofWord).reduce(intersect));
  // The words one after the other in one text node, from the positions in the index; a stop word
  // matches any token (§3.4.7), so only the others are placed; no words: nothing matches.
  const ofPhrase = (ws: readonly string[]): Candidates => {
    if (ws.length <= 1) return ofAll(ws);
    const selectors = ws.map((w) => (isStop(w) ? undefined : selector(w, o, fold)));
    if (selectors.every((s) => s === undefined)) return 'all';
    return stored ? storedPhrase(stored, fold, selectors, ofAll(ws)) : lookupPhrase(doc, fold, selectors);
  };
  switch (node.mode) {
    case 'any':
      return terms.map((t) => ofPhrase(split(t))).reduce(union, []);
    case 'all':
      return terms.length === 0 ? [] : terms.map((t) => ofPhrase(split(t))).reduce(intersect);
    case 'phrase':
      return ofPhrase(terms.flatMap(split));
    case 'any word':
      return terms.flatMap(split).map(ofWord).reduce(union, []);
    case 'all words':
      return ofAll(terms.flatMap(split));
  }
}

/**
 * A phrase over a store's index (fulltext-stored.ts), which answers texts by their tokens only:
 * the texts holding every word, kept where the words stand one after the other among the text's
 * tokens as the index folds them, with the placement rule of `lookupPhrase` (fulltext-index.ts).
 */
function storedPhrase(stored: StoredIndex, fold: FoldOptions, selectors: readonly (TokenSelector | undefined)[], all: Candidates): Candidates {
  if (all === 'all') return all;
  let first = 0;
  while (selectors[first] === undefined) first++;
  let last = selectors.length - 1;
  while (selectors[last] === undefined) last--;
  return all.filter((n) => {
    const tokens = textTokens(stored.value(n), fold);
    for (let at = -first; at + last < tokens.length; at++) {
      if (selectors.every((s, i) => s === undefined || tokenSelected(s, tokens[at + i]))) return true;
    }
    return false;
  });
}

/** The indexed text nodes of `doc` the candidates name, in document order. */
export function candidateTexts(doc: XdmNode, fold: FoldOptions, found: Candidates): XdmNode[] {
  const stored = found === 'all' ? undefined : storedIndexOf(doc);
  if (stored) return (found as number[]).map((n) => stored.text(n));
  const positions = found === 'all' ? Array.from({ length: textCount(doc, fold) }, (_, i) => i) : found;
  return positions.map((p) => textAt(doc, fold, p));
}

/**
 * What `ruledOutByIndex` keeps per run (a stop-word list or the database's options may change
 * between runs, not during one): per document, the fold of its database's index (null: none),
 * and per description and fold, per document, the candidate nodes.
 */
interface RunState {
  readonly folds: WeakMap<object, FoldOptions | null>;
  readonly candidates: Map<string, WeakMap<object, ReadonlySet<XdmNode> | 'all'>>;
}
const perRun = new WeakMap<object, RunState>();

/** The text node whose tokens are those of `item`: itself, or an element's one child. */
function searchedText(item: XdmItem): XdmNode | undefined {
  if (!isNode(item)) return undefined;
  const node = item as unknown as Node;
  if (node.nodeType === 3) return item;
  if (node.nodeType !== 1) return undefined;
  const only = node.firstChild;
  return only && only.nodeType === 3 && only.nextSibling === null ? (only as unknown as XdmNode) : undefined;
}

function documentOf(node: XdmNode): XdmNode | undefined {
  // a node of a compact tree: its tree's first row, when that is a document
  const row = treeNode(node);
  if (row !== undefined) return row.v.tree.kind[0] === Row.document ? (row.v.node(0) as unknown as XdmNode) : undefined;
  let n: Node | null = node as unknown as Node;
  while (n && n.nodeType !== 9) n = n.parentNode;
  return (n ?? undefined) as XdmNode | undefined;
}

/** The fold of the full-text index of the database holding `doc`; null when none holds it or it has no index. */
function indexFoldOf(doc: XdmNode): FoldOptions | null {
  const access = activeDatabases();
  const where = access.locate(doc);
  if (!where || !access.hasDatabase(where.db)) return null;
  const options = access.databaseInfo(where.db).options;
  return hasFullTextIndex(options) ? indexOptions(options).fold : null;
}

/**
 * Whether the full-text index rules out that `item` satisfies the selection `node` (written as
 * `description`): `item` is a stored text node, or an element whose one child is one, of a
 * database with the index, and that node is no candidate. False whenever the index cannot tell.
 */
export function ruledOutByIndex(item: XdmItem, description: string, node: FTNode): boolean {
  const text = searchedText(item);
  const doc = text && documentOf(text);
  if (!text || !doc) return false;
  const run = activeDocumentSource() as object;
  let state = perRun.get(run);
  if (!state) {
    state = { folds: new WeakMap(), candidates: new Map() };
    perRun.set(run, state);
  }
  let fold = state.folds.get(doc);
  if (fold === undefined) {
    fold = indexFoldOf(doc);
    state.folds.set(doc, fold);
  }
  if (fold === null) return false;
  const key = `${fold.caseSensitive}${fold.diacriticsSensitive}${description}`;
  let byDoc = state.candidates.get(key);
  if (!byDoc) {
    byDoc = new WeakMap();
    state.candidates.set(key, byDoc);
  }
  let set = byDoc.get(doc);
  if (set === undefined) {
    const found = candidatesOf(doc, fold, node);
    set = found === 'all' ? 'all' : new Set(candidateTexts(doc, fold, found));
    byDoc.set(doc, set);
  }
  return set !== 'all' && !set.has(text);
}

/**
 * Whether every candidate of the selection satisfies it, so that no candidate needs the matcher:
 * one words node in any mode, no `occurs`, compared as the index folds (the same case and
 * diacritics sensitivity; stemming only case insensitive; no wildcards, fuzzy, stop words or
 * thesauri). Then a query word matches a token exactly when the index selects its folded token
 * (fulltext/terms.ts `termTest` folds and stems as the index does), so a node satisfies the
 * selection exactly when it holds the words, or for a phrase holds them at consecutive
 * positions, which is what the index records. A case-sensitive stemmed search also compares the
 * case of the words (terms.ts), which the index does not keep; a stop word may stand for a token
 * beyond the text, which the index does not check (fulltext-index.ts `lookupPhrase`).
 */
export function candidatesAreExact(node: FTNode, fold: FoldOptions): boolean {
  if (node.t !== 'words' || node.times || !('fixed' in node.value)) return false;
  const o = node.options;
  if (o.wildcards || o.fuzzy || o.stopWords.length > 0 || o.thesauri.length > 0) return false;
  if (o.stemming && o.case !== 'insensitive') return false;
  return o.case === (fold.caseSensitive ? 'sensitive' : 'insensitive') && o.diacritics === (fold.diacriticsSensitive ? 'sensitive' : 'insensitive');
}
