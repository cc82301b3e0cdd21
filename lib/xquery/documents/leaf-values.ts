/**
 * Typed value arrays of numeric leaves, per document, behind one extension function in the
 * engine's namespace:
 *
 *   Q{urn:xmldb-rest:engine}descendants-where($node as item()*, $name as xs:string,
 *       $child as xs:string, $op as xs:string, $value as xs:anyAtomicType) as item()*
 *
 * What `descendants($node, $name)[child::C op $value]` selects (modules/name-index.ts; `C` the
 * expanded name `$child`, `op` a general comparison, `$value` a numeric literal), or the single
 * item false() when this function cannot answer exactly; the caller then evaluates the
 * predicate itself (translate/paths-index.ts `childComparison`).
 *
 * Exactness. The elements are untyped, so a general comparison of a child with a number casts
 * the child's string value to xs:double (XPath 3.1 §3.7.1 and §19.1.1; the number is promoted to
 * xs:double, §B.1) and the predicate holds when some child compares true. This module answers
 * only when every such child of every candidate element has a string value in the plain decimal
 * form `-?digits[.digits]` (optionally with an exponent, surrounded by XML whitespace), which
 * casts to the same double in XPath and in JavaScript's Number(); anything else (an empty or
 * non-numeric value that would raise FORG0001, INF, NaN, a leading `+`) and any node other than
 * a document node (no index) make it answer false(), so errors and edge cases stay saxon-js's.
 *
 * The values of one (element name, child name) pair of one document are parsed once and kept in
 * a WeakMap keyed by the document node: saxon-js trees never change once built (see
 * name-index.ts), so the arrays never go stale and live exactly as long as the document.
 *
 * Registered by `registerLeafValueFunctions` (extension-functions.ts).
 */
import { ENGINE_NS } from '../constants';
import { NodeKind, castString, isAtomic, isNode, registerFunctions, xpathError, type XdmNode, type XdmValue } from '../../saxon';
import { nameIndex, type DomNode } from './name-index';

/** The local names of the functions in ENGINE_NS. */
export const DESCENDANTS_WHERE_FUNCTION = 'descendants-where';

/** The general comparisons this module evaluates. */
export type NumericComparison = '=' | '!=' | '<' | '<=' | '>' | '>=';

/** The values of the `child` children of each element: those of element i are values[offsets[i] .. offsets[i+1]). */
interface Column {
  readonly elements: readonly DomNode[];
  readonly offsets: Int32Array;
  readonly values: Float64Array;
}

/** Per document: column by `name SEP child`; null when some value is not a plain number. */
const columns = new WeakMap<object, Map<string, Column | null>>();
const SEP = '\u0000';

/** XPath's xs:double lexical forms that Number() reads identically; no sign `+`, INF or NaN. */
export const PLAIN_NUMBER = /^[ \t\r\n]*-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[ \t\r\n]*$/;

function keyOf(element: DomNode): string {
  return `Q{${element.namespaceURI ?? ''}}${element.localName ?? element.nodeName ?? ''}`;
}

/** The string value of an element: its descendant text, in document order. */
export function stringValue(element: DomNode): string {
  let text = '';
  for (let node = element.firstChild ?? null; node; node = node.nextSibling ?? null) {
    if (node.nodeType === NodeKind.text || node.nodeType === 4) text += (node as DomNode & { data?: string }).data ?? '';
    else if (node.nodeType === NodeKind.element) text += stringValue(node);
  }
  return text;
}

function buildColumn(doc: XdmNode, name: string, child: string): Column | null {
  const elements = nameIndex(doc).get(name) ?? [];
  const offsets = new Int32Array(elements.length + 1);
  const values: number[] = [];
  for (let i = 0; i < elements.length; i++) {
    offsets[i] = values.length;
    for (let node = elements[i].firstChild ?? null; node; node = node.nextSibling ?? null) {
      if (node.nodeType !== NodeKind.element || keyOf(node) !== child) continue;
      const text = stringValue(node);
      if (!PLAIN_NUMBER.test(text)) return null;
      values.push(Number(text));
    }
  }
  offsets[elements.length] = values.length;
  return { elements, offsets, values: Float64Array.from(values) };
}

/** The column of a document, built on first use (null: not answerable). */
export function numericColumn(doc: XdmNode, name: string, child: string): Column | null {
  let byKey = columns.get(doc);
  if (!byKey) columns.set(doc, (byKey = new Map()));
  const key = name + SEP + child;
  let column = byKey.get(key);
  if (column === undefined) {
    column = buildColumn(doc, name, child);
    byKey.set(key, column);
  }
  return column;
}

/** The comparison `op` on two doubles. */
export function comparisonTest(op: NumericComparison): (a: number, b: number) => boolean {
  switch (op) {
    case '=':
      return (a, b) => a === b;
    case '!=':
      return (a, b) => a !== b;
    case '<':
      return (a, b) => a < b;
    case '<=':
      return (a, b) => a <= b;
    case '>':
      return (a, b) => a > b;
    case '>=':
      return (a, b) => a >= b;
  }
}

/**
 * The elements named `name` of document `doc` with a child `child` whose value compares `op` to
 * `value`, in document order; undefined when the document's values are not all plain numbers.
 */
export function descendantsWhere(doc: XdmNode, name: string, child: string, op: NumericComparison, value: number): XdmNode[] | undefined {
  const column = numericColumn(doc, name, child);
  if (!column) return undefined;
  const holds = comparisonTest(op);
  const { elements, offsets, values } = column;
  const out: XdmNode[] = [];
  for (let i = 0; i < elements.length; i++) {
    for (let j = offsets[i]; j < offsets[i + 1]; j++) {
      if (holds(values[j], value)) {
        out.push(elements[i]);
        break;
      }
    }
  }
  return out;
}

const OPS = new Set<string>(['=', '!=', '<', '<=', '>', '>=']);

/** Whether `op` is one of the general comparisons this module evaluates. */
export function isNumericComparison(op: string): op is NumericComparison {
  return OPS.has(op);
}

/** A number literal's value as the xs:double it is promoted to; undefined for other types. */
export function numberOf(item: XdmValue[number] | undefined): number | undefined {
  if (!item || !isAtomic(item)) return undefined;
  // integer and decimal (AD…) convert from their exact lexical form; a double is its value
  if (item.code.startsWith('AD')) return Number(item.toString());
  if (item.code === 'AO' && typeof item.value === 'number') return item.value;
  return undefined;
}

/** The answer that sends the caller back to evaluating the predicate itself. */
function cannotAnswer(): XdmValue {
  return [castString('false', 'boolean')];
}

function descendantsWhereFn([node, name, child, op, value]: XdmValue[]): XdmValue {
  const item = node[0];
  if (!item || !isNode(item)) throw xpathError('The context item of a path step is not a node', 'XPTY0019');
  const number = numberOf(value[0]);
  const comparison = String(op[0]);
  if (item.nodeType !== NodeKind.document || number === undefined || !isNumericComparison(comparison)) return cannotAnswer();
  return descendantsWhere(item, String(name[0]), String(child[0]), comparison, number) ?? cannotAnswer();
}

/** Registers engine:descendants-where with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerLeafValueFunctions(): void {
  registerFunctions(ENGINE_NS, {
    [DESCENDANTS_WHERE_FUNCTION]: { sig: '1F r[*] a[*,1AS,1AS,1AS,1A]', impl: descendantsWhereFn },
  });
}
