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
 * `content`. The index (accelerators/fulltext-index/fulltext-index.ts) gives the candidate text nodes; each is then
 * matched by the matcher of `contains text` (fulltext/matcher.ts), so the answer is exactly that of
 * `db:get($db)//text()[. contains text {$terms} …]` with the index's match options.
 *
 * ft:tokens answers the index's tokens (stems, for a stemming index) starting with the folded
 * prefix, in codepoint order, as `<entry count="occurrences">token</entry>`; stop words are left
 * out, as BaseX does not index them.
 *
 * Errors: db:open (unknown database), db:no-index `Database 'x' has no full-text index.`,
 * ft:options when an option the index decides is given or both fuzzy and wildcards are chosen.
 *
 * And, in the engine's namespace, what the translator emits for a first predicate `text()
 * contains text S` or `. contains text S` of `//name` (accelerators/fulltext-index/paths-fulltext-index.ts):
 *
 *   Q{urn:xmldb-rest:engine}descendants-ft($node as item()*, $name as xs:string, $kind as xs:string,
 *       $description as xs:string) as item()*
 */
import { castString, isNode, NodeKind, registerFunctions, type XdmNode, type XdmValue } from '../../saxon';
import { ENGINE_NS } from '../constants';
import { descendantsNamed, expandedName } from '../accelerators/name-index/name-index';
import { ANY_ELEMENT } from '../../tree/name-rows';
import { leavesAreSimple, preOf } from '../accelerators/value-index/value-index';
import { treeNode, type TreeView } from '../../tree/tree-dom';
import { NodeKind as Row } from '../../tree/compact-tree';
import { escapeText } from '../../xml/escape';
import { hasFullTextIndex } from '../../store';
import { MODULE_NAMESPACES } from '../module-namespaces';
import { moduleError } from './support/option-maps';
import { activeDatabases, dbError } from '../worker/documents/database-access';
import { candidatesAreExact, candidatesOf, candidateTexts, indexOptions, type IndexOptions } from '../accelerators/fulltext-index/fulltext-candidates';
import { textCount, textRows, tokenCounts } from '../accelerators/fulltext-index/fulltext-index';
import { foldToken } from '../accelerators/fulltext-index/folded-tokens';
import { hitPositions, ItemMatcher, satisfied, type FTContext } from '../fulltext/matcher';
import { stopWords } from '../fulltext/phrase-tests';
import { collectingHits, recordHits } from '../fulltext/hits';
import type { FTMatchOptions, FTNode } from '../fulltext/selection';
import { stemmerFor } from '../fulltext/stemmers';
import { normalizeToken, tokenize } from '../fulltext/tokens';
import { compareCodepoints } from './order-tuples';
import { element, elements } from './db-info';
import { ftSelection, optionMap, searchedText, strings } from './ft';

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

const NO_NODES: ReadonlySet<unknown> = new Set();

/**
 * Whether `searched` (a candidate of the index) satisfies the selection. An exact candidate needs
 * no matcher, unless ft:mark, ft:extract or ft:count collect the matched tokens (fulltext/hits.ts).
 */
function matches(searched: XdmValue[number], tokens: () => ReturnType<typeof tokenize>, ctx: FTContext, selection: FTNode, exact: boolean): boolean {
  const collecting = collectingHits();
  if (exact && !collecting) return true;
  const all = new ItemMatcher(tokens(), ctx).eval(selection);
  if (!satisfied(all)) return false;
  if (collecting) recordHits(searched, NO_NODES, () => hitPositions(all));
  return true;
}

/** ft:search's selection over an indexed database: its documents, fold, selection and exactness. */
function searchOf([db, terms, options]: XdmValue[]) {
  const m = optionMap(options);
  for (const name of INDEX_DECIDES) {
    if (m.has(name)) throw moduleError('ft', 'options', `Option '${name}' is decided by the full-text index.`);
  }
  const { docs, options: index } = indexed(str(db));
  const selection = withMatchOptions(ftSelection(strings(terms), m), index.match);
  const words = wordsOf(selection);
  if (words.options.fuzzy && words.options.wildcards) throw moduleError('ft', 'options', 'Either wildcards or fuzzy can be selected.');
  return { docs, fold: index.fold, selection, exact: candidatesAreExact(selection, index.fold) };
}

function search(args: XdmValue[]): XdmValue {
  return searched(searchOf(args));
}

/** The texts of `search` that satisfy its selection, in document order. */
function searched({ docs, fold, selection, exact }: ReturnType<typeof searchOf>): XdmNode[] {
  const ctx: FTContext = { values: [] };
  const out: XdmNode[] = [];
  for (const doc of docs) {
    for (const text of candidateTexts(doc, fold, candidatesOf(doc, fold, selection))) {
      // the text is tokenized only when the matcher runs (an exact candidate needs none)
      if (matches(text, () => tokenize((text as unknown as { nodeValue: string }).nodeValue), ctx, selection, exact)) out.push(text);
    }
  }
  return out;
}

/**
 * `count(ft:search(…))` (translate/ft-calls.ts): the number of texts ft:search answers. Where the
 * index's candidates are exactly the answer, they are counted without a node made for each.
 */
function searchCount(args: XdmValue[]): XdmValue {
  const search = searchOf(args);
  const { docs, fold, selection, exact } = search;
  if (!exact || collectingHits()) return [castString(String(searched(search).length), 'integer')];
  let count = 0;
  for (const doc of docs) {
    const found = candidatesOf(doc, fold, selection);
    count += found === 'all' ? textCount(doc, fold) : found.length;
  }
  return [castString(String(count), 'integer')];
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

// ---------------------------------------------------------------------------------------------
// descendants-ft

const CANNOT: XdmValue = [castString('false', 'boolean')];

/**
 * What `$node//name[text() contains text S]` (`$kind` 'text') or `$node//name[. contains text S]`
 * ('self') selects, S the description (accelerators/fulltext-index/paths-fulltext-index.ts): the owners of the
 * candidate text nodes of the index that satisfy S, in document order. It answers false() when it
 * cannot answer exactly: `$node` is not the document node of a stored document of a database with
 * the full-text index, the index cannot narrow S, or ('self') an element named `name` has more than
 * its one text child (its text could then match across its children).
 */
function descendantsFullText([node, nameArg, kindArg, descriptionArg]: XdmValue[]): XdmValue {
  if (node.length !== 1 || !isNode(node[0]) || node[0].nodeType !== NodeKind.document) return CANNOT;
  const doc = node[0];
  const access = activeDatabases();
  const where = access.locate(doc);
  if (!where || !access.hasDatabase(where.db)) return CANNOT;
  const options = access.databaseInfo(where.db).options;
  if (!hasFullTextIndex(options)) return CANNOT;
  const name = str(nameArg);
  const self = str(kindArg) === 'self';
  if (self && !leavesAreSimple(doc, name, descendantsNamed(doc, name))) return CANNOT;
  const { fold } = indexOptions(options);
  const selection = JSON.parse(str(descriptionArg)) as FTNode;
  const found = candidatesOf(doc, fold, selection);
  if (found === 'all') return CANNOT;
  const ctx: FTContext = { values: [] };
  const exact = candidatesAreExact(selection, fold);
  const tree = treeNode(doc);
  const rows = tree && exact && !collectingHits() ? textRows(doc, fold) : undefined;
  if (tree && rows) return exactOwners(tree.v, rows, found, name);
  const owners = new Set<XdmNode>();
  for (const text of candidateTexts(doc, fold, found)) {
    const owner = (text as unknown as Node).parentNode as (Node & { namespaceURI: string | null; localName: string }) | null;
    if (!owner || owner.nodeType !== 1 || (name !== ANY_ELEMENT && expandedName(owner) !== name)) continue;
    const searched = self ? (owner as unknown as XdmNode) : text;
    if (matches(searched, () => tokenize(searchedText(searched, NO_NODES)), ctx, selection, exact)) owners.add(owner as unknown as XdmNode);
  }
  // a node of a compact tree knows its pre; preOf maps the nodes of another tree on first use
  const pre = (n: XdmNode): number => treeNode(n)?.p ?? (preOf(doc, n) as number);
  return [...owners].sort((a, b) => pre(a) - pre(b));
}

/**
 * The elements named `name` (or any, ANY_ELEMENT) holding the candidate texts `found` of a compact tree
 * whose candidates are exact, in document order: read from the rows, a node made for each owner only.
 */
function exactOwners(view: TreeView, rows: Int32Array, found: readonly number[], name: string): XdmNode[] {
  const { kind, parent, ref: nameOf, names } = view.tree;
  const wanted = name === ANY_ELEMENT ? undefined : new Set(names.flatMap((n, id) => (expandedName({ namespaceURI: n.uri, localName: n.local }) === name ? [id] : [])));
  const pres: number[] = [];
  for (const i of found) {
    const p = parent.at(rows[i]);
    if (kind[p] === Row.element && (wanted === undefined || wanted.has(nameOf[p]))) pres.push(p);
  }
  pres.sort((a, b) => a - b);
  return pres.filter((p, i) => i === 0 || pres[i - 1] !== p).map((p) => view.node(p) as unknown as XdmNode);
}

/** Registers ft:search, ft:tokens, engine:descendants-ft and engine:ft-search-count (the list in extension-functions.ts). */
export function registerFullTextIndexFunctions(): void {
  registerFunctions(MODULE_NAMESPACES.ft, {
    search: { sig: '1F r[*N] a[1AS,*,?FM]', arity: [2, 3], impl: search },
    tokens: { sig: '1F r[*N] a[1AS,?AS]', arity: [1, 2], impl: tokens },
  });
  registerFunctions(ENGINE_NS, {
    'descendants-ft': { sig: '1F r[*] a[*,1AS,1AS,1AS]', impl: descendantsFullText },
    'ft-search-count': { sig: '1F r[1ADI] a[1AS,*,?FM]', arity: [2, 3], impl: searchCount },
  });
}
