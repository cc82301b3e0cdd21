/**
 * Full text in the query worker: the engine's functions behind `contains text` and scores
 * (translate/fulltext.ts), and BaseX's Full-Text Module (docs.basex.org, "Full-Text Functions")
 * in namespace `http://basex.org/modules/ft` (prefix `ft`):
 *
 *   ft:contains($input, $terms, $options?) as xs:boolean
 *   ft:tokenize($string, $options?) as xs:string*
 *   ft:normalize($string, $options?) as xs:string
 *   ft:thesaurus($node, $term, $options?) as xs:string*
 *   ft:mark, ft:extract, ft:count, ft:score: ft-marks.ts (the engine records the matches of a
 *     satisfied `contains text` over a node for them, fulltext/hits.ts).
 *   (ft:search and ft:tokens, which read the full-text index, are in ft-index.ts.)
 *
 * Options are BaseX's: `mode` (any, all, phrase, any word, all words), `case`, `diacritics`,
 * `stemming`, `language`, `wildcards`, `fuzzy`, `ordered`, `content`, `distance`, `window`, `scope`.
 */
import { castString, isNode, registerFunctions, stringValue, xpathError, type XdmAtomic, type XdmMap, type XdmNode, type XdmValue } from '../../saxon';
import { MODULE_NAMESPACES } from '../module-namespaces';
import { ENGINE_NS } from '../constants';
import { hitPositions, ItemMatcher, satisfied, score, weightOf, type FTContext, type FTItem } from '../fulltext/matcher';
import { collectingHits, recordHits } from '../fulltext/hits';
import { FT_MARK_ENGINE_FUNCTIONS, FT_MARK_FUNCTIONS } from './ft-marks';
import { DEFAULT_MATCH_OPTIONS, type FTCase, type FTMatchOptions, type FTNode } from '../fulltext/selection';
import { stemmerFor } from '../fulltext/stemmers';
import { normalizeToken, tokenize, words } from '../fulltext/tokens';
import { expand, thesaurusOf } from '../fulltext/resources';
import { ruledOutByIndex } from '../accelerators/fulltext-index/fulltext-candidates';
import { holdsNone, requiredWords } from '../fulltext/required-words';
import { presenceOf, satisfiedByPresence, type Presence } from '../fulltext/token-presence';

// ----------------------------------------------------------------------------- searched text

/**
 * The text of `node` as it is tokenized, without the content of the ignored nodes (§3.6
 * FTIgnoreOption). Paragraphs (§4.1 leaves them to the implementation): a line end in text that
 * only separates elements (indentation between blocks) ends one; a line end inside text is a
 * wrapped line and counts as a space.
 */
function nodeText(node: Node, ignored: ReadonlySet<unknown>): string {
  if (ignored.has(node)) return ' ';
  if (node.nodeType === 3 || node.nodeType === 4) {
    const v = node.nodeValue ?? '';
    return /^\s*$/.test(v) ? (v.includes('\n') ? '\n' : v) : v.replace(/[\r\n]+/g, ' ');
  }
  if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return ''; // comments, PIs, a document type
  let out = '';
  for (const c of Array.from(node.childNodes)) out += nodeText(c, ignored);
  return out;
}

/** The string an item of the search context is tokenized from. */
export function searchedText(item: XdmValue[number], ignored: ReadonlySet<unknown>): string {
  if (isNode(item)) {
    const n = item as unknown as Node & { value?: string };
    if (n.nodeType === 2) return n.value ?? '';
    if (n.nodeType === 1 || n.nodeType === 9 || n.nodeType === 11) return nodeText(n, ignored);
    return n.nodeValue ?? '';
  }
  return String(item);
}

export function strings(v: XdmValue): string[] {
  return v.map((i) => searchedText(i, new Set()));
}

/** A computed value's item for the matcher: atomized, with its kind (strings, untyped and URIs count as strings). */
function ftItem(item: XdmValue[number]): FTItem {
  if (isNode(item)) return { text: searchedText(item, new Set()), kind: 'string' };
  const code = (item as XdmAtomic).code;
  const kind = /^A[SZU]/.test(code) ? 'string' : /^A[DOF]/.test(code) ? 'number' : 'other';
  return { text: String(item), kind };
}

/** Parsed descriptions: a `contains text` in a predicate is evaluated once per item with the same one. */
const parsed = new Map<string, FTNode>();
const PARSED_MAX = 256;

function parseDescription(description: string): FTNode {
  let node = parsed.get(description);
  if (node === undefined) {
    if (parsed.size >= PARSED_MAX) parsed.clear();
    node = JSON.parse(description) as FTNode;
    parsed.set(description, node);
  }
  return node;
}

/** Per parsed selection: the words a satisfying text holds one of (required-words.ts), null: none. */
const required = new WeakMap<FTNode, readonly string[] | null>();

function requiredOf(node: FTNode): readonly string[] | null {
  let ws = required.get(node);
  if (ws === undefined) required.set(node, (ws = requiredWords(node) ?? null));
  return ws;
}

/** The ignored nodes of a `contains text` without `without content`. */
const NOTHING_IGNORED: ReadonlySet<unknown> = new Set();

/** Per parsed selection: the test deciding it by the words a text holds (token-presence.ts), null: none. */
const presences = new WeakMap<FTNode, Presence | null>();

function presenceFor(node: FTNode): Presence | null {
  let p = presences.get(node);
  if (p === undefined) presences.set(node, (p = presenceOf(node) ?? null));
  return p;
}

/**
 * The best match of the selection over the items: whether one satisfies it, and its score (only
 * when `scoring`: otherwise the first satisfying item ends the search, unless hits are collected).
 */
function evaluate(searched: XdmValue, description: string, values: XdmValue, ignoredNodes: XdmValue, scoring: boolean): { found: boolean; score: number } {
  const node = parseDescription(description);
  const members = (values[0] as unknown as { value: XdmValue[] }).value;
  const ctx: FTContext = { values: members.map((m) => m.map(ftItem)) };
  const ignored: ReadonlySet<unknown> = ignoredNodes.length === 0 ? NOTHING_IGNORED : new Set<unknown>(ignoredNodes);
  let found = false;
  let best = 0;
  const weight = weightOf(node, ctx);
  const needed = requiredOf(node);
  const presence = presenceFor(node);
  const firstDecides = !scoring && !collectingHits();
  for (const item of searched) {
    // A stored text the full-text index rules out cannot satisfy the selection (fulltext-candidates.ts).
    if (ignored.size === 0 && ruledOutByIndex(item, description, node)) continue;
    const text = searchedText(item, ignored);
    if (presence !== null) {
      const held = satisfiedByPresence(presence, text);
      if (held === false) continue;
      if (held === true && firstDecides) return { found: true, score: 0 };
    } else if (needed !== null && holdsNone(text, needed)) continue;
    const tokens = tokenize(text);
    const all = new ItemMatcher(tokens, ctx).eval(node);
    if (satisfied(all)) {
      if (firstDecides) return { found: true, score: 0 };
      found = true;
      if (scoring) best = Math.max(best, score(all, tokens.words.length, weight));
      recordHits(item, ignored, () => hitPositions(all));
    }
  }
  return { found, score: best };
}

// ----------------------------------------------------------------------------- ft: options

const CASES: Readonly<Record<string, FTCase>> = { insensitive: 'insensitive', sensitive: 'sensitive', lower: 'lowercase', upper: 'uppercase' };

export function optionMap(arg: XdmValue | undefined): Map<string, XdmValue> {
  const out = new Map<string, XdmValue>();
  const map = arg?.[0] as XdmMap | undefined;
  if (map) for (const k of map.keys()) out.set(k.toString(), map.get(k));
  return out;
}

function optText(m: Map<string, XdmValue>, name: string): string | undefined {
  const v = m.get(name);
  return v === undefined ? undefined : v.map(String).join(' ');
}

function optBool(m: Map<string, XdmValue>, name: string): boolean | undefined {
  const t = optText(m, name);
  if (t === undefined) return undefined;
  if (['true', 'yes', 'on', '1'].includes(t.toLowerCase())) return true;
  if (['false', 'no', 'off', '0'].includes(t.toLowerCase())) return false;
  throw xpathError(`Option '${name}' must be a boolean: '${t}'.`, 'XPTY0004');
}

/** The match options of an ft: options map (BaseX's names; its `case` values lower/upper). */
function matchOptions(m: Map<string, XdmValue>): FTMatchOptions {
  const c = optText(m, 'case');
  if (c !== undefined && !CASES[c]) throw xpathError(`Invalid 'case' value '${c}'.`, 'XPTY0004');
  const d = optText(m, 'diacritics');
  if (d !== undefined && d !== 'insensitive' && d !== 'sensitive') throw xpathError(`Invalid 'diacritics' value '${d}'.`, 'XPTY0004');
  const language = optText(m, 'language');
  return {
    ...DEFAULT_MATCH_OPTIONS,
    ...(c !== undefined ? { case: CASES[c] } : {}),
    ...(d !== undefined ? { diacritics: d } : {}),
    stemming: optBool(m, 'stemming') ?? false,
    wildcards: optBool(m, 'wildcards') ?? false,
    fuzzy: optBool(m, 'fuzzy') ?? false,
    ...(language !== undefined ? { language } : {}),
  };
}

const MODES = ['any', 'all', 'phrase', 'any word', 'all words'] as const;

function nested(m: Map<string, XdmValue>, name: string): Map<string, XdmValue> | undefined {
  const v = m.get(name);
  return v && v.length > 0 ? optionMap(v) : undefined;
}

function count(m: Map<string, XdmValue>, name: string): { fixed: number } | null {
  const t = optText(m, name);
  return t === undefined ? null : { fixed: Number(t) };
}

/** The selection ft:contains evaluates: the terms with the options' mode, filters and match options. */
export function ftSelection(terms: readonly string[], m: Map<string, XdmValue>): FTNode {
  const mode = optText(m, 'mode') ?? 'any';
  if (!(MODES as readonly string[]).includes(mode)) throw xpathError(`Invalid 'mode' value '${mode}'.`, 'XPTY0004');
  let node: FTNode = { t: 'words', value: { fixed: terms }, mode: mode as (typeof MODES)[number], options: matchOptions(m) };
  if (optBool(m, 'ordered')) node = { t: 'ordered', item: node };
  const distance = nested(m, 'distance');
  if (distance) node = { t: 'distance', item: node, range: { min: count(distance, 'min'), max: count(distance, 'max') }, unit: unit(distance) };
  const window = nested(m, 'window');
  if (window) node = { t: 'window', item: node, size: count(window, 'size') ?? { fixed: 0 }, unit: unit(window) };
  const scope = nested(m, 'scope');
  if (scope) node = { t: 'scope', item: node, same: optBool(scope, 'same') ?? true, unit: optText(scope, 'unit') === 'paragraph' ? 'paragraph' : 'sentence' };
  const content = optText(m, 'content');
  if (content !== undefined) {
    const at = ({ 'at start': 'start', 'at end': 'end', 'entire content': 'entire' } as const)[content as 'at start'];
    if (!at) throw xpathError(`Invalid 'content' value '${content}'.`, 'XPTY0004');
    node = { t: 'content', item: node, at };
  }
  return node;
}

function unit(m: Map<string, XdmValue>): 'words' | 'sentences' | 'paragraphs' {
  const u = optText(m, 'unit') ?? 'words';
  if (u !== 'words' && u !== 'sentences' && u !== 'paragraphs') throw xpathError(`Invalid 'unit' value '${u}'.`, 'XPTY0004');
  return u;
}

function ftContains([input, terms, options]: XdmValue[]): XdmValue {
  const node = ftSelection(strings(terms), optionMap(options));
  const ctx: FTContext = { values: [] };
  const found = input.some((item) => satisfied(new ItemMatcher(tokenize(searchedText(item, new Set())), ctx).eval(node)));
  return [castString(String(found), 'boolean')];
}

/** The tokens of a string as the options fold them (BaseX ft:tokenize). */
function normalizedWords(text: string, m: Map<string, XdmValue>): string[] {
  const o = matchOptions(m);
  const stem = o.stemming ? stemmerFor(o.language) : undefined;
  if (o.stemming && !stem) throw xpathError(`Language '${o.language}' is not supported.`, 'FTST0009');
  return words(text).map((w) => {
    let t = normalizeToken(w, o);
    if (o.case === 'lowercase') t = t.toLowerCase();
    if (o.case === 'uppercase') t = t.toUpperCase();
    return stem ? stem(t) : t;
  });
}

/** ft:thesaurus($node, $term, $options): the terms of the thesaurus document `$node`. */
function ftThesaurus([node, term, options]: XdmValue[]): XdmValue {
  const root = node[0] as XdmNode | undefined;
  if (!root || !isNode(root)) return [];
  const m = optionMap(options);
  const thes = thesaurusOf(root);
  const levels = optText(m, 'levels');
  const max = levels === undefined ? Infinity : Number(levels);
  return expand(thes, String(term[0] ?? ''), optText(m, 'relationship'), 0, max).map(stringValue);
}

/** Registers the engine's full-text functions and the ft: module (the list in extension-functions.ts, in query workers). */
export function registerFullTextFunctions(): void {
  registerFunctions(ENGINE_NS, {
    'ft-contains': {
      sig: '1F r[1AB] a[*,1AS,1FA,*N]',
      impl: ([searched, description, values, ignored]) => [castString(String(evaluate(searched, String(description[0]), values, ignored, false).found), 'boolean')],
    },
    'ft-score': {
      sig: '1F r[1AO] a[*,1AS,1FA,*N]',
      impl: ([searched, description, values, ignored]) => [castString(String(evaluate(searched, String(description[0]), values, ignored, true).score), 'double')],
    },
    ...FT_MARK_ENGINE_FUNCTIONS,
  });
  registerFunctions(MODULE_NAMESPACES.ft, {
    contains: { sig: '1F r[1AB] a[*,*,?FM]', arity: [2, 3], impl: ftContains },
    tokenize: { sig: '1F r[*AS] a[?AS,?FM]', arity: [1, 2], impl: ([s, o]) => normalizedWords(String(s[0] ?? ''), optionMap(o)).map(stringValue) },
    normalize: { sig: '1F r[1AS] a[?AS,?FM]', arity: [1, 2], impl: ([s, o]) => [stringValue(normalizedWords(String(s[0] ?? ''), optionMap(o)).join(' '))] },
    thesaurus: { sig: '1F r[*AS] a[1N,1AS,?FM]', arity: [2, 3], impl: ftThesaurus },
    ...FT_MARK_FUNCTIONS,
  });
}
