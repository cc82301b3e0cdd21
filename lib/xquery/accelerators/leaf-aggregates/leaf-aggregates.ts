/**
 * The aggregate functions over the leaves of a document, behind one extension function in the
 * engine's namespace:
 *
 *   Q{urn:xmldb-rest:engine}aggregate-leaves($fn as xs:string, $roots as item()*,
 *       $name as xs:string, $step as xs:string, $target as xs:string, $text as xs:string)
 *       as xs:anyAtomicType?
 *
 * What `fn:$fn($roots ! P)` answers (`$fn` one of count, sum, avg, min, max; `count-distinct`
 * for `count(distinct-values($roots ! P))`), where P is
 * `descendants(., $name)` (accelerators/name-index/name-index.ts: the descendant elements of that expanded name,
 * in document order) followed by
 * - with `$step` '': nothing (the elements themselves),
 * - with `$step` 'child': the child elements named `$target`, in document order,
 * - with `$step` 'attribute': the attribute named `$target`;
 * and with `$text` 'text', the text node children of those elements. The answer is the single item
 * false() whenever this function cannot answer exactly; the caller then calls the function on the
 * path as written (accelerators/leaf-aggregates/paths-aggregate.ts), so errors and edge cases stay saxon-js's.
 *
 * Exactness. Every root must be a document node (the index is per document), but for count of the
 * elements themselves below one element root; a document given
 * twice counts once, as the path operator keeps one of each node, and sum and avg over more than
 * one document are left to the caller (the order of documents is saxon-js's). The trees are
 * untyped, so each node atomizes to one xs:untypedAtomic, its string value, and sum, avg, min and
 * max cast every such value to xs:double (F&O 3.1 §14.4: §14.4.2 avg, §14.4.3 max, §14.4.4 min,
 * §14.4.5 sum). They are answered only when every value has the plain decimal form
 * (leaf-values.ts `plainNumber`), which casts to the same double in XPath and in Number();
 * anything else (a value that raises FORG0001, NaN, INF) is left to the caller. count needs no
 * values. The doubles are added first to last in the order of the path, as fn:sum does; avg is
 * that sum divided by the count; min and max answer the first value no other value is below
 * (above). No values: sum is the caller's (its xs:integer 0), avg, min and max the empty sequence.
 * Text nodes are taken in document order only when their elements have no element children (the
 * path's order is then the elements' order); otherwise sum and avg are left to the caller.
 * count-distinct counts the different string values (xs:untypedAtomic values are equal when
 * their strings are, in the codepoint collation the caller checked: F&O 3.1 §14.1.1), of paths
 * without `/text()`.
 *
 * The values of one document and path are read once and kept in a WeakMap keyed by the document
 * node: saxon-js trees never change once built (name-index.ts), so they never go stale.
 *
 * Registered by `registerLeafAggregateFunctions` (extension-functions.ts).
 */
import { ENGINE_NS } from '../../constants';
import { NodeKind, castString, isNode, registerFunctions, type XdmNode, type XdmValue } from '../../../saxon';
import { countDescendantsNamed, expandedName, elementsNamed, isText, type DomNode } from '../name-index/name-index';
import { leafColumn, numbersOf, type LeafKind } from '../leaf-columns/leaf-columns';
import { plainNumber } from '../leaf-columns/leaf-values';

export const AGGREGATE_LEAVES_FUNCTION = 'aggregate-leaves';

/** The leaves of one path in one document: how many, and their values when all are plain numbers. */
interface Leaves {
  readonly count: number;
  /** The values' strings (paths without text()), and the different ones, taken on first use. */
  readonly strings?: readonly string[];
  distinct?: ReadonlySet<string>;
  /** The values in the path's order; null when some value is not a plain number or the order is not known. */
  readonly values: Float64Array | null;
  /** Their sum (added first to last), minimum and maximum, taken on first use. */
  totals?: Totals;
}

interface Totals {
  readonly sum: number;
  /** The first value no other value is below. */
  readonly min: number;
  /** The first value no other value is above. */
  readonly max: number;
}

/** The totals of the leaves' `values` (not empty), kept with them. */
function totalsOf(leaves: Leaves, values: Float64Array): Totals {
  if (leaves.totals) return leaves.totals;
  let [sum, min, max] = [values[0], values[0], values[0]];
  for (let i = 1; i < values.length; i++) {
    const v = values[i];
    sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return (leaves.totals = { sum, min, max });
}

/** Per document: the leaves by path key. */
const leavesByDocument = new WeakMap<object, Map<string, Leaves>>();

/** A leaf path: the elements named `name`, then a step (`''`, `child` or `attribute`) to `target`, then text children. */
interface LeafPath {
  readonly name: string;
  readonly step: string;
  readonly target: string;
  readonly text: boolean;
}

/** The column kind of a path without `/text()` (leaf-columns.ts). */
const COLUMN_KINDS: Readonly<Record<string, LeafKind>> = { '': 'self', child: 'child', attribute: 'attribute' };

/** Collects the leaves of `path` in one document. */
function readLeaves(doc: XdmNode, path: LeafPath): Leaves {
  if (!path.text) {
    const column = leafColumn(doc, path.name, COLUMN_KINDS[path.step], path.target);
    return { count: column.strings.length, values: numbersOf(column), strings: column.strings };
  }
  // text children, of the elements themselves or of their `target` children (an attribute has none)
  const elements = elementsNamed(doc, path.name);
  const values: number[] = [];
  let count = 0;
  let plain = true;
  const take = (text: string): void => {
    count++;
    if (!plain) return;
    const value = plainNumber(text);
    if (value !== undefined) values.push(value);
    else plain = false;
  };
  const leaf = (element: DomNode): void => {
    for (let node = element.firstChild ?? null; node; node = node.nextSibling ?? null) {
      if (isText(node)) take(node.data ?? '');
      // text children of nested elements would interleave: their order is left to the caller
      else if (node.nodeType === NodeKind.element) plain = false;
    }
  };
  for (const element of elements) {
    if (path.step === '') leaf(element);
    else if (path.step === 'child') {
      for (let node = element.firstChild ?? null; node; node = node.nextSibling ?? null) {
        if (node.nodeType === NodeKind.element && expandedName(node) === path.target) leaf(node);
      }
    }
  }
  return { count, values: plain ? Float64Array.from(values) : null };
}

/** The leaves of `path` in document `doc`, read on first use. */
function leavesOf(doc: XdmNode, path: LeafPath): Leaves {
  let byPath = leavesByDocument.get(doc);
  if (!byPath) leavesByDocument.set(doc, (byPath = new Map()));
  const key = `${path.name}\u0000${path.step}\u0000${path.target}\u0000${path.text ? 't' : ''}`;
  let leaves = byPath.get(key);
  if (!leaves) {
    leaves = readLeaves(doc, path);
    byPath.set(key, leaves);
  }
  return leaves;
}

const double = (d: number): XdmValue => [castString(Object.is(d, -0) ? '-0' : String(d), 'double')];

/** The answer that sends the caller back to the function as written. */
const cannotAnswer = (): XdmValue => [castString('false', 'boolean')];

/**
 * fn:$fn over the leaves of several documents, in order; undefined when it cannot answer exactly.
 * Each document's totals are kept with its leaves, so a repeated query does not add its values
 * again; over several documents (min and max only: sum and avg are the caller's), the first
 * document whose extreme no later one passes holds the first such value of all.
 */
function aggregate(fn: string, all: readonly Leaves[]): XdmValue | undefined {
  if (fn === 'count') return [castString(String(all.reduce((n, l) => n + l.count, 0)), 'integer')];
  if (fn === 'count-distinct') {
    if (all.some((l) => !l.strings)) return undefined;
    for (const l of all) l.distinct ??= new Set(l.strings);
    const distinct = all.length === 1 ? all[0].distinct! : new Set(all.flatMap((l) => [...l.distinct!]));
    return [castString(String(distinct.size), 'integer')];
  }
  let sum: number | undefined;
  let extreme: number | undefined;
  let count = 0;
  for (const leaves of all) {
    const { values } = leaves;
    if (values === null) return undefined;
    if (values.length === 0) continue;
    const totals = totalsOf(leaves, values);
    count += values.length;
    sum = sum === undefined ? totals.sum : sum + totals.sum;
    const v = fn === 'max' ? totals.max : totals.min;
    if (extreme === undefined || (fn === 'max' ? v > extreme : v < extreme)) extreme = v;
  }
  if (count === 0) return fn === 'sum' ? undefined : [];
  if (fn === 'sum') return double(sum!);
  if (fn === 'avg') return double(sum! / count);
  return double(extreme!);
}

const FUNCTIONS = new Set(['count', 'sum', 'avg', 'min', 'max', 'count-distinct']);

function aggregateLeavesFn([fn, roots, name, step, target, text]: XdmValue[]): XdmValue {
  const f = String(fn[0]);
  const path: LeafPath = { name: String(name[0]), step: String(step[0]), target: String(target[0]), text: String(text[0]) === 'text' };
  if (!FUNCTIONS.has(f) || !Object.hasOwn(COLUMN_KINDS, path.step)) return cannotAnswer();
  // `count($e//name)` below one element: its descendants counted (in a compact tree from the
  // name's rows, without making their nodes: name-index.ts)
  if (f === 'count' && path.step === '' && !path.text && roots.length === 1 && isNode(roots[0]) && roots[0].nodeType === NodeKind.element) {
    return [castString(String(countDescendantsNamed(roots[0], path.name)), 'integer')];
  }
  const docs = new Set<XdmNode>();
  for (const root of roots) {
    if (!isNode(root) || root.nodeType !== NodeKind.document) return cannotAnswer();
    docs.add(root);
  }
  if (docs.size > 1 && (f === 'sum' || f === 'avg')) return cannotAnswer();
  return aggregate(f, [...docs].map((doc) => leavesOf(doc, path))) ?? cannotAnswer();
}

/** Registers engine:aggregate-leaves with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerLeafAggregateFunctions(): void {
  registerFunctions(ENGINE_NS, {
    [AGGREGATE_LEAVES_FUNCTION]: { sig: '1F r[?A] a[1AS,*,1AS,1AS,1AS,1AS]', impl: aggregateLeavesFn },
  });
}
