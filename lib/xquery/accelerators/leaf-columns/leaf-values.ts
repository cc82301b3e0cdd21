/**
 * The rules for reading untyped leaves as numbers, shared by the scans over per-document leaves:
 * the leaf columns of predicates (leaf-filter.ts), the aggregates over leaf paths
 * (leaf-aggregates.ts) and the stored-text summaries (leaf-summaries.ts).
 *
 * Exactness. The elements are untyped, so a number compared with or added to one casts its
 * string value to xs:double (XPath 3.1 §3.7.1 and §19.1.1; F&O 3.1 §14.4.5). Only string values
 * in the plain decimal form `-?digits[.digits]` (optionally with an exponent, surrounded by XML
 * whitespace: `plainNumber`) are read, as they cast to the same double in XPath and in
 * JavaScript's Number(); on anything else (an empty or non-numeric value that would raise
 * FORG0001, INF, NaN, a leading `+`) the scans answer false(), so errors and edge cases stay
 * saxon-js's.
 */
import { NodeKind, isAtomic, type XdmValue } from '../../../saxon';
import { isText, type DomNode } from '../name-index/name-index';
import { isS } from '../../../convert/stored-xml-scanner';

/** The general comparisons on numbers (leaf-filter.ts, leaf-summaries.ts). */
export type NumericComparison = '=' | '!=' | '<' | '<=' | '>' | '>=';

/** 10^k for the k a double holds exactly. */
const POWERS = Array.from({ length: 23 }, (_, k) => 10 ** k);

/**
 * The number that `text` (or its characters `from` to `to`) is when it has the plain form
 * `[ws]-?(digits[.digits*]|.digits)([eE][+-]?digits)?[ws]` (XPath's xs:double lexical forms
 * that Number() reads identically: no sign `+`, INF or NaN), else undefined. Read from the
 * characters, without a regular expression or a string of the range: up to 15 digits with at
 * most 22 after the point are an integer divided by a power of ten, both exact doubles, so the
 * quotient is the correctly rounded value that Number gives; longer forms and exponents go
 * through Number.
 */
export function plainNumber(text: string, from = 0, to = text.length): number | undefined {
  let start = from;
  let end = to;
  while (start < end && isS(text.charCodeAt(start))) start++;
  while (end > start && isS(text.charCodeAt(end - 1))) end--;
  let i = start;
  const negative = text.charCodeAt(i) === 0x2d;
  if (negative) i++;
  let mantissa = 0;
  let digits = 0;
  let fraction = 0;
  for (; i < end; i++) {
    const d = text.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9) break;
    mantissa = mantissa * 10 + d;
    digits++;
  }
  if (i < end && text.charCodeAt(i) === 0x2e) {
    for (i++; i < end; i++) {
      const d = text.charCodeAt(i) - 0x30;
      if (d < 0 || d > 9) break;
      mantissa = mantissa * 10 + d;
      digits++;
      fraction++;
    }
  }
  if (digits === 0) return undefined;
  if (i < end) {
    const e = text.charCodeAt(i);
    if (e !== 0x65 && e !== 0x45) return undefined;
    i++;
    if (i < end && (text.charCodeAt(i) === 0x2b || text.charCodeAt(i) === 0x2d)) i++;
    const exponent = i;
    while (i < end && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i++;
    if (i === exponent || i < end) return undefined;
    return Number(text.slice(start, end));
  }
  if (digits > 15 || fraction > 22) return Number(text.slice(start, end));
  const value = fraction === 0 ? mantissa : mantissa / POWERS[fraction];
  return negative ? -value : value;
}

/** What may be an xs:double lexical form that `plainNumber` leaves out: a sign `+`, INF, NaN. */
const MAYBE_NUMBER = /^[ \t\r\n]*[+-]?(?:[0-9.]|INF[ \t\r\n]*$|NaN[ \t\r\n]*$)/;

/**
 * fn:number of an untyped leaf (F&O 3.1 §4.5.1): its string cast to xs:double, NaN when it has
 * no xs:double lexical form. Undefined for the forms `plainNumber` leaves out that might still be
 * numbers (a leading `+`, INF, NaN, a malformed run of digits): saxon-js decides those.
 */
export function numberValue(leaf: string): number | undefined {
  const value = plainNumber(leaf);
  if (value !== undefined) return value;
  return MAYBE_NUMBER.test(leaf) ? undefined : NaN;
}

/** The string value of an element: its descendant text, in document order. */
export function stringValue(element: DomNode): string {
  let text = '';
  for (let node = element.firstChild ?? null; node; node = node.nextSibling ?? null) {
    if (isText(node)) text += node.data ?? '';
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
