/**
 * Typed values of the elements of one name, per document, behind one extension function in the
 * engine's namespace:
 *
 *   Q{urn:xmldb-rest:engine}sum-descendants($docs as node()*, $name as xs:string) as xs:anyAtomicType
 *
 * Exactness. The elements are untyped, so a number compared with or added to one casts its
 * string value to xs:double (XPath 3.1 §3.7.1 and §19.1.1; F&O 3.1 §14.4.5). This module reads
 * only string values in the plain decimal form `-?digits[.digits]` (optionally with an exponent,
 * surrounded by XML whitespace: `PLAIN_NUMBER`), which casts to the same double in XPath and in
 * JavaScript's Number(); anything else (an empty or non-numeric value that would raise FORG0001,
 * INF, NaN, a leading `+`) and any node other than a document node (no index) make it answer
 * false(), so errors and edge cases stay saxon-js's. The same rules serve the leaf columns of
 * leaf-filter.ts and the stored-text summaries of leaf-summaries.ts.
 *
 * The values of one element name of one document are parsed once and kept in a WeakMap keyed by
 * the document node: saxon-js trees never change once built (see name-index.ts), so the arrays
 * never go stale and live exactly as long as the document.
 *
 * sum-descendants answers what `sum($docs ! descendants(., $name))` answers when every such
 * element of every document has a plain number as string value (then the doubles are added in
 * order, first to last); false() otherwise, and also for no elements at all (fn:sum's xs:integer
 * 0 is then the caller's to give).
 *
 * Registered by `registerLeafValueFunctions` (extension-functions.ts).
 */
import { ENGINE_NS } from '../constants';
import { NodeKind, castString, isAtomic, isNode, registerFunctions, type XdmNode, type XdmValue } from '../../saxon';
import { nameIndex, type DomNode } from './name-index';

/** The local names of the functions in ENGINE_NS. */
export const SUM_DESCENDANTS_FUNCTION = 'sum-descendants';

/** The general comparisons on numbers (leaf-filter.ts, leaf-summaries.ts). */
export type NumericComparison = '=' | '!=' | '<' | '<=' | '>' | '>=';

/** Per document: the values of the elements named `name` themselves, by name; null as above. */
const selfValues = new WeakMap<object, Map<string, Float64Array | null>>();

/** XPath's xs:double lexical forms that Number() reads identically; no sign `+`, INF or NaN. */
export const PLAIN_NUMBER = /^[ \t\r\n]*-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[ \t\r\n]*$/;

/** The string value of an element: its descendant text, in document order. */
export function stringValue(element: DomNode): string {
  let text = '';
  for (let node = element.firstChild ?? null; node; node = node.nextSibling ?? null) {
    if (node.nodeType === NodeKind.text || node.nodeType === 4) text += (node as DomNode & { data?: string }).data ?? '';
    else if (node.nodeType === NodeKind.element) text += stringValue(node);
  }
  return text;
}

/** The values of the elements named `name` of a document, parsed on first use (null: not all plain numbers). */
export function numericValues(doc: XdmNode, name: string): Float64Array | null {
  let byName = selfValues.get(doc);
  if (!byName) selfValues.set(doc, (byName = new Map()));
  let values = byName.get(name);
  if (values === undefined) {
    const elements = nameIndex(doc).get(name) ?? [];
    values = new Float64Array(elements.length);
    for (let i = 0; i < elements.length && values; i++) {
      const text = stringValue(elements[i]);
      if (PLAIN_NUMBER.test(text)) values[i] = Number(text);
      else values = null;
    }
    byName.set(name, values);
  }
  return values;
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

function sumDescendantsFn([docs, name]: XdmValue[]): XdmValue {
  const key = String(name[0]);
  let sum: number | undefined;
  for (const item of docs) {
    if (!isNode(item) || item.nodeType !== NodeKind.document) return cannotAnswer();
    const values = numericValues(item, key);
    if (!values) return cannotAnswer();
    for (let i = 0; i < values.length; i++) sum = sum === undefined ? values[i] : sum + values[i];
  }
  if (sum === undefined) return cannotAnswer();
  return [castString(Object.is(sum, -0) ? '-0' : String(sum), 'double')];
}

/** Registers engine:sum-descendants with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerLeafValueFunctions(): void {
  registerFunctions(ENGINE_NS, {
    [SUM_DESCENDANTS_FUNCTION]: { sig: '1F r[1A] a[*,1AS]', impl: sumDescendantsFn },
  });
}
