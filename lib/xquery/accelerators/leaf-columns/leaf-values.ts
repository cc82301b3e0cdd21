/**
 * The rules for reading untyped leaves as numbers, shared by the scans over per-document leaves:
 * the leaf columns of predicates (leaf-filter.ts), the aggregates over leaf paths
 * (leaf-aggregates.ts) and the stored-text summaries (leaf-summaries.ts).
 *
 * Exactness. The elements are untyped, so a number compared with or added to one casts its
 * string value to xs:double (XPath 3.1 §3.7.1 and §19.1.1; F&O 3.1 §14.4.5). Only string values
 * in the plain decimal form `-?digits[.digits]` (optionally with an exponent, surrounded by XML
 * whitespace: `PLAIN_NUMBER`) are read, as they cast to the same double in XPath and in
 * JavaScript's Number(); on anything else (an empty or non-numeric value that would raise
 * FORG0001, INF, NaN, a leading `+`) the scans answer false(), so errors and edge cases stay
 * saxon-js's.
 */
import { NodeKind, isAtomic, type XdmValue } from '../../../saxon';
import type { DomNode } from '../name-index/name-index';

/** The general comparisons on numbers (leaf-filter.ts, leaf-summaries.ts). */
export type NumericComparison = '=' | '!=' | '<' | '<=' | '>' | '>=';

/** XPath's xs:double lexical forms that Number() reads identically; no sign `+`, INF or NaN. */
export const PLAIN_NUMBER = /^[ \t\r\n]*-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[ \t\r\n]*$/;

/** What may be an xs:double lexical form that PLAIN_NUMBER leaves out: a sign `+`, INF, NaN. */
const MAYBE_NUMBER = /^[ \t\r\n]*[+-]?(?:[0-9.]|INF[ \t\r\n]*$|NaN[ \t\r\n]*$)/;

/**
 * fn:number of an untyped leaf (F&O 3.1 §4.5.1): its string cast to xs:double, NaN when it has
 * no xs:double lexical form. Undefined for the forms PLAIN_NUMBER leaves out that might still be
 * numbers (a leading `+`, INF, NaN, a malformed run of digits): saxon-js decides those.
 */
export function numberValue(leaf: string): number | undefined {
  if (PLAIN_NUMBER.test(leaf)) return Number(leaf);
  return MAYBE_NUMBER.test(leaf) ? undefined : NaN;
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
