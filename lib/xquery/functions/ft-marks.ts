/**
 * BaseX's ft:mark, ft:extract and ft:count (docs.basex.org, Full-Text Functions):
 *
 *   ft:mark($nodes as node()*, $name as xs:string := 'mark') as node()*
 *   ft:extract($nodes as node()*, $name as xs:string := 'mark', $length as xs:integer := 150) as node()*
 *   ft:count($nodes as node()*) as xs:integer
 *
 * They see the matches of the `contains text` expressions evaluated while their first argument
 * is, and only those (BaseX: "the full-text expression that computes the token positions must be
 * specified as argument"): nodes selected elsewhere, a variable bound to them earlier, are copied
 * unmarked. A call is translated (translate/ft-calls.ts) to the engine's version with one more
 * argument before the nodes, `engine:ft-hits-open()`, which opens the collection of hits
 * (fulltext/hits.ts) that the function closes. ft:count is the number of distinct tokens those
 * expressions matched, as BaseX counts its positions.
 *
 *   engine:ft-hits-open() as xs:integer
 *   engine:ft-mark($hits as xs:integer, $nodes as node()*, $name as xs:string?) as node()*
 *   engine:ft-extract($hits as xs:integer, $nodes as node()*, $name as xs:string?, $length as xs:integer?) as node()*
 *   engine:ft-count($hits as xs:integer, $nodes as node()*) as xs:integer
 *
 * The ft: names themselves are registered for function items (`ft:mark#1`, `ft:mark(?)`), whose
 * argument is evaluated before the call: they see no hits.
 */
import { atomicDerivesFrom, castString, isAtomic, type ExtensionFunction, type XdmValue } from '../../saxon';
import { closeHits, Hits, openHits } from '../fulltext/hits';
import { markedCopies, requireNodes } from '../fulltext/marked-copies';

const DEFAULT_NAME = 'mark';
const DEFAULT_LENGTH = 150;

const hitsOf = (id: XdmValue): Hits => closeHits(Number(id[0]));
const nameOf = (name: XdmValue | undefined): string => String(name?.[0] ?? DEFAULT_NAME);
const lengthOf = (length: XdmValue | undefined): number => (length?.[0] === undefined ? DEFAULT_LENGTH : Number(length[0]));

function count(hits: Hits, nodes: XdmValue): XdmValue {
  requireNodes(nodes);
  return [castString(String(hits.count), 'integer')];
}

/** The engine's functions behind the calls, by local name in the engine's namespace. */
export const FT_MARK_ENGINE_FUNCTIONS: Readonly<Record<string, ExtensionFunction>> = {
  'ft-hits-open': { sig: '1F r[1ADI] a[]', impl: () => [castString(String(openHits()), 'integer')] },
  'ft-mark': { sig: '1F r[*N] a[1ADI,*,?AS]', arity: [2, 3], impl: ([id, nodes, name]) => markedCopies(nodes, hitsOf(id), { name: nameOf(name) }) },
  'ft-extract': {
    sig: '1F r[*N] a[1ADI,*,?AS,?ADI]',
    arity: [2, 3, 4],
    impl: ([id, nodes, name, length]) => markedCopies(nodes, hitsOf(id), { name: nameOf(name), length: lengthOf(length) }),
  },
  'ft-count': { sig: '1F r[1ADI] a[1ADI,*]', impl: ([id, nodes]) => count(hitsOf(id), nodes) },
};

/**
 * The score of an item that carries no full-text score (XQuery Full Text 1.0 §2.3: a boolean that
 * is not full text scores 1 or 0; BaseX gives other items 0): ft:score's answer where the
 * translation sees no scoring expression, and that of its function items.
 */
function unscored(items: XdmValue): XdmValue {
  return items.map((i) => castString(isAtomic(i) && atomicDerivesFrom(i, 'AB') && String(i) === 'true' ? '1' : '0', 'double'));
}

/** The ft: functions, by local name, for function items and ft:score's items without a score. */
export const FT_MARK_FUNCTIONS: Readonly<Record<string, ExtensionFunction>> = {
  score: { sig: '1F r[*AO] a[*]', impl: ([items]) => unscored(items) },
  mark: { sig: '1F r[*N] a[*N,?AS]', arity: [1, 2], impl: ([nodes, name]) => markedCopies(nodes, new Hits(), { name: nameOf(name) }) },
  extract: { sig: '1F r[*N] a[*N,?AS,?ADI]', arity: [1, 2, 3], impl: ([nodes, name, length]) => markedCopies(nodes, new Hits(), { name: nameOf(name), length: lengthOf(length) }) },
  count: { sig: '1F r[1ADI] a[*N]', impl: ([nodes]) => count(new Hits(), nodes) },
};
