/**
 * Leaf comparisons in predicates, answered from the per-document columns of the leaves of
 * elements (leaf-columns.ts), behind an extension function in the engine's namespace:
 *
 *   Q{urn:xmldb-rest:engine}leaf-filter($node as item()*, $name as xs:string, $tests as xs:string*,
 *       $values as xs:anyAtomicType*, $counts as xs:integer*) as item()*
 *
 * What `descendants($node, $name)[T1 and T2 …]` selects (accelerators/name-index/name-index.ts; translate/
 * paths-leaf-predicates.ts emits it), or the single item false() when this function cannot
 * answer exactly; the caller then evaluates the predicates itself. Test i is written
 * `kind leaf op` (kind `child`, `attribute`, `text` or `self`; leaf the child's or attribute's
 * `Q{uri}local`, '' for the others; op a general or value comparison) and compares the leaf with
 * the `$counts[i]` atomized values that follow those of the tests before it in `$values`.
 *
 * Exactness. The leaves are untyped (xs:untypedAtomic), so (XPath 3.1 §3.7.1, §3.7.2):
 * - a general comparison with numbers casts each leaf to xs:double (the numbers are promoted to
 *   xs:double) and holds when some pair compares true. This module answers only when every leaf
 *   of the kind of every such element of the document has a string value in the plain decimal
 *   form `-?digits[.digits]` (optionally with an exponent, surrounded by XML whitespace), which
 *   casts to the same double in XPath and in JavaScript's Number(); anything else (an empty or
 *   non-numeric value that would raise FORG0001, INF, NaN, a leading `+`) makes it answer false();
 * - a general comparison with strings, untyped values or URIs compares strings by codepoints
 *   (the engine's only collation), as does a value comparison with one such value (which also
 *   requires at most one leaf per element, else XPTY0004: false() when some element has more);
 * - an empty comparand selects nothing; values of other types or mixed kinds (booleans, dates,
 *   xs:float, a value comparison with numbers, which raises XPTY0004) answer false();
 * - any node other than a document node (no columns) answers false().
 *
 * The leaves come from the per-document columns of leaf-columns.ts.
 *
 * Registered by `registerLeafFilterFunctions` (extension-functions.ts).
 */
import { ENGINE_NS } from '../../constants';
import { NodeKind, TypeCode, castString, isAtomic, isNode, registerFunctions, type XdmNode, type XdmValue } from '../../../saxon';
import { compareCodepoints } from '../../functions/order-tuples';
import { namedElements } from '../name-index/name-index';
import { leafColumn, numbersOf, type Column, type LeafKind } from '../leaf-columns/leaf-columns';
import { comparisonTest, isNumericComparison, numberOf, type NumericComparison } from '../leaf-columns/leaf-values';

/** The local name of the function in ENGINE_NS. */
export const LEAF_FILTER_FUNCTION = 'leaf-filter';

/** A comparison result of compareCodepoints (or of numbers' difference) tested by `op`. */
function orderTest(op: NumericComparison): (c: number) => boolean {
  const test = comparisonTest(op);
  return (c) => test(c, 0);
}

/** The general comparison each value comparison tests once its operands are single values. */
const VALUE_OPS: Readonly<Record<string, NumericComparison>> = { eq: '=', ne: '!=', lt: '<', le: '<=', gt: '>', ge: '>=' };

/** A string, untyped or URI value's string, which general comparisons with untyped leaves compare as strings. */
function stringOf(item: XdmValue[number]): string | undefined {
  if (!isAtomic(item)) return undefined;
  const c = item.code;
  return c.startsWith(TypeCode.string) || c === TypeCode.untypedAtomic || c === TypeCode.anyURI ? item.toString() : undefined;
}

/** Whether the leaf at an index of a column passes a test. */
type LeafTest = (index: number) => boolean;

/** The test of one leaf by `op` against `values` (atomized), over `column`; undefined when not answerable. */
function leafTest(column: Column, op: string, values: XdmValue): LeafTest | undefined {
  const general = isNumericComparison(op);
  const compare = general ? op : VALUE_OPS[op];
  if (compare === undefined) return undefined;
  if (!general && (!column.single || values.length > 1)) return undefined;
  if (values.length === 0) return () => false;
  const numbers = values.map(numberOf);
  if (numbers.every((n) => n !== undefined)) {
    // a value comparison of an untyped leaf (cast to xs:string) with a number raises XPTY0004
    const doubles = general ? numbersOf(column) : null;
    if (!doubles) return undefined;
    const holds = comparisonTest(compare);
    if (numbers.length === 1) {
      const n = numbers[0]!;
      return (i) => holds(doubles[i], n);
    }
    return (i) => numbers.some((n) => holds(doubles[i], n!));
  }
  const strings = values.map(stringOf);
  if (!strings.every((s) => s !== undefined)) return undefined;
  const { strings: leaves } = column;
  if (compare === '=') {
    const wanted = new Set(strings);
    return (i) => wanted.has(leaves[i]!);
  }
  const holds = orderTest(compare);
  if (strings.length === 1) {
    const s = strings[0]!;
    return (i) => holds(compareCodepoints(leaves[i], s));
  }
  return (i) => strings.some((s) => holds(compareCodepoints(leaves[i], s!)));
}

/** One test: the leaves it reads and its operator. */
interface TestSpec {
  readonly kind: LeafKind;
  readonly leaf: string;
  readonly op: string;
}

const KINDS = new Set<string>(['child', 'attribute', 'text', 'self']);

/** `kind leaf op`: the leaf's name between the first and the last space (a namespace URI may hold spaces). */
function parseSpec(spec: string): TestSpec | undefined {
  const first = spec.indexOf(' ');
  const last = spec.lastIndexOf(' ');
  const kind = spec.slice(0, first);
  return first > 0 && last > first && KINDS.has(kind) ? { kind: kind as LeafKind, leaf: spec.slice(first + 1, last), op: spec.slice(last + 1) } : undefined;
}

/**
 * The elements named `name` of `doc` that pass every test, in document order; undefined when some
 * test cannot be answered (see the file comment).
 */
export function leafFilter(doc: XdmNode, name: string, specs: readonly TestSpec[], values: readonly XdmValue[]): XdmNode[] | undefined {
  const tests: { column: Column; test: LeafTest }[] = [];
  for (let t = 0; t < specs.length; t++) {
    const column = leafColumn(doc, name, specs[t].kind, specs[t].leaf);
    const test = leafTest(column, specs[t].op, values[t]);
    if (!test) return undefined;
    tests.push({ column, test });
  }
  const elements = namedElements(doc, name);
  const out: XdmNode[] = [];
  next: for (let e = 0; e < elements.length; e++) {
    for (const { column, test } of tests) {
      let passed = false;
      for (let j = column.offsets[e], end = column.offsets[e + 1]; j < end && !passed; j++) passed = test(j);
      if (!passed) continue next;
    }
    out.push(elements.at(e));
  }
  return out;
}

/** The answer that sends the caller back to evaluating the predicate itself. */
function cannotAnswer(): XdmValue {
  return [castString('false', 'boolean')];
}

function leafFilterFn([node, name, specArgs, valueArgs, countArgs]: XdmValue[]): XdmValue {
  const item = node[0];
  if (node.length !== 1 || !isNode(item) || item.nodeType !== NodeKind.document) return cannotAnswer();
  const specs = specArgs.map((s) => parseSpec(String(s)));
  if (!specs.every((s) => s !== undefined) || countArgs.length !== specs.length) return cannotAnswer();
  const values: XdmValue[] = [];
  let at = 0;
  for (const count of countArgs) {
    const n = Number(String(count));
    values.push(valueArgs.slice(at, at + n));
    at += n;
  }
  return leafFilter(item, String(name[0]), specs as TestSpec[], values) ?? cannotAnswer();
}

/** Registers engine:leaf-filter with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerLeafFilterFunctions(): void {
  registerFunctions(ENGINE_NS, {
    [LEAF_FILTER_FUNCTION]: { sig: '1F r[*] a[*,1AS,*,*,*]', impl: leafFilterFn },
  });
}
