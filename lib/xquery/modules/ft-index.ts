/**
 * BaseX's Full-Text Module, the functions that read the full-text index (docs.basex.org,
 * "Full-Text Functions"), in namespace `http://basex.org/modules/ft`:
 *
 *   ft:search($db as xs:string, $terms as item()*, $options as map(*)? := {}) as text()*
 *   ft:tokens($db as xs:string, $prefix as xs:string? := ()) as element(entry)*
 *
 * ft:search answers the text nodes of the database that contain the terms, documents in path
 * order, each in document order. The terms are folded as the index was built (its CASESENS,
 * DIACRITICS, STEMMING, LANGUAGE and STOPWORDS, store/index-kinds.ts); `$options` chooses the rest
 * as ft:contains reads it: `mode`, `fuzzy`, `wildcards`, `ordered`, `distance`, `window`, `scope`,
 * `content`. The index (documents/fulltext-index.ts) gives the candidate text nodes; each is then
 * matched by the matcher of `contains text` (fulltext/matcher.ts), so the answer is exactly that of
 * `db:get($db)//text()[. contains text {$terms} …]` with the index's match options.
 *
 * ft:tokens answers the index's tokens (stems, for a stemming index) starting with the folded
 * prefix, in codepoint order, as `<entry count="occurrences">token</entry>`; stop words are left
 * out, as BaseX does not index them.
 *
 * Errors: db:open (unknown database), db:no-index `Database 'x' has no full-text index.`,
 * ft:options when an option the index decides is given or both fuzzy and wildcards are chosen.
 */
import { registerFunctions, type XdmNode, type XdmValue } from '../../saxon';
import { escapeText } from '../../xml/escape';
import { hasFullTextIndex } from '../../store/index-kinds';
import { MODULE_NAMESPACES } from '../module-namespaces';
import { moduleError } from '../module-support/options';
import { activeDatabases, dbError } from '../documents/database-access';
import { candidatesOf, candidateTexts, indexOptions, stopWords, type IndexOptions } from '../documents/fulltext-candidates';
import { foldToken, tokenCounts } from '../documents/fulltext-index';
import { ItemMatcher, satisfied, type FTContext } from '../fulltext/matcher';
import type { FTMatchOptions, FTNode } from '../fulltext/selection';
import { stemmerFor } from '../fulltext/stemmers';
import { normalizeToken } from '../fulltext/terms';
import { tokenize } from '../fulltext/tokens';
import { compareCodepoints } from '../order-tuples';
import { element, elements } from './db-info';
import { ftSelection, optionMap, strings } from './ft';

const str = (v: XdmValue | undefined): string => (v && v.length > 0 ? String(v[0]) : '');

/** What the index decides: options ft:search does not take. */
const INDEX_DECIDES = ['case', 'diacritics', 'stemming', 'language', 'stopwords'];

/** The XML documents of `db` and its index options; db:no-index without a full-text index. */
function indexed(db: string): { docs: XdmNode[]; options: IndexOptions } {
  const access = activeDatabases();
  const info = access.databaseInfo(db);
  if (!hasFullTextIndex(info.options)) throw dbError('no-index', `Database '${db}' has no full-text index.`);
  return { docs: access.documents(db), options: indexOptions(info.options) };
}

/** The selection with the index's match options (and the call's fuzzy and wildcards) in every words node. */
function withMatchOptions(node: FTNode, o: FTMatchOptions): FTNode {
  switch (node.t) {
    case 'words':
      return { ...node, options: { ...o, fuzzy: node.options.fuzzy, wildcards: node.options.wildcards } };
    case 'or':
    case 'and':
      return { ...node, items: node.items.map((i) => withMatchOptions(i, o)) };
    case 'mildnot':
      return { ...node, left: withMatchOptions(node.left, o), right: withMatchOptions(node.right, o) };
    default:
      return { ...node, item: withMatchOptions(node.item, o) };
  }
}

/** The words node at the heart of an ft:search selection. */
function wordsOf(node: FTNode): Extract<FTNode, { t: 'words' }> {
  return node.t === 'words' ? node : wordsOf((node as { item: FTNode }).item);
}

function search([db, terms, options]: XdmValue[]): XdmValue {
  const m = optionMap(options);
  for (const name of INDEX_DECIDES) {
    if (m.has(name)) throw moduleError('ft', 'options', `Option '${name}' is decided by the full-text index.`);
  }
  const { docs, options: index } = indexed(str(db));
  const selection = withMatchOptions(ftSelection(strings(terms), m), index.match);
  const words = wordsOf(selection);
  if (words.options.fuzzy && words.options.wildcards) throw moduleError('ft', 'options', 'Either wildcards or fuzzy can be selected.');
  const ctx: FTContext = { values: [] };
  const out: XdmNode[] = [];
  for (const doc of docs) {
    for (const text of candidateTexts(doc, index.fold, candidatesOf(doc, index.fold, selection))) {
      const value = (text as unknown as { nodeValue: string }).nodeValue;
      if (satisfied(new ItemMatcher(tokenize(value), ctx).eval(selection))) out.push(text);
    }
  }
  return out;
}

function tokens([db, prefix]: XdmValue[]): XdmValue {
  const { docs, options: index } = indexed(str(db));
  const stem = index.match.stemming ? stemmerFor(index.match.language) : undefined;
  const stops = stopWords(index.match);
  const start = prefix && prefix.length > 0 ? foldToken(str(prefix), index.fold) : '';
  const counts = new Map<string, number>();
  for (const doc of docs) {
    for (const [token, count] of tokenCounts(doc, index.fold)) {
      if (stops.has(normalizeToken(token, { case: 'insensitive', diacritics: index.match.diacritics }))) continue;
      const shown = stem ? stem(token.toLowerCase()) : token;
      if (shown.startsWith(start)) counts.set(shown, (counts.get(shown) ?? 0) + count);
    }
  }
  const sorted = [...counts.keys()].sort(compareCodepoints);
  return sorted.length === 0 ? [] : elements(sorted.map((t) => element('entry', escapeText(t), { count: counts.get(t) as number })).join(''));
}

/** Registers ft:search and ft:tokens (the list in extension-functions.ts). */
export function registerFullTextIndexFunctions(): void {
  registerFunctions(MODULE_NAMESPACES.ft, {
    search: { sig: '1F r[*N] a[1AS,*,?FM]', arity: [2, 3], impl: search },
    tokens: { sig: '1F r[*N] a[1AS,?AS]', arity: [1, 2], impl: tokens },
  });
}
