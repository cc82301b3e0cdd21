/**
 * Ranges of a representation (RFC 9110 §14): `bytes` of a raw resource and `items` of a query
 * result, both written `first-last` (0-based, inclusive), `first-` or `-suffixLength`. Parsing
 * is separate from resolving, because the length is known only where the representation is:
 * in the store for bytes, in the query worker for items.
 */

/** A range as requested, before the length of the representation is known. */
export type RequestedRange =
  | { readonly first: number; readonly last?: number }
  | { readonly suffix: number };

/** A satisfiable range, resolved against the length: inclusive bounds. */
export interface ResolvedRange {
  readonly start: number;
  readonly end: number;
}

const SPEC = /^\s*(\d*)\s*-\s*(\d*)\s*$/;

/**
 * The single range of unit `unit` in a `Range` header value. Anything else answers undefined and
 * the header is ignored (RFC 9110 §14.2): another unit, a malformed value, several ranges.
 */
export function parseRange(header: string | undefined, unit: 'bytes' | 'items'): RequestedRange | undefined {
  if (header === undefined) return undefined;
  const eq = header.indexOf('=');
  if (eq < 0 || header.slice(0, eq).trim().toLowerCase() !== unit) return undefined;
  const match = SPEC.exec(header.slice(eq + 1));
  if (match === null) return undefined;
  const [, first, last] = match;
  if (first === '') {
    if (last === '') return undefined;
    return { suffix: Number(last) };
  }
  const range = { first: Number(first), ...(last === '' ? {} : { last: Number(last) }) };
  if (!Number.isSafeInteger(range.first) || (range.last !== undefined && (!Number.isSafeInteger(range.last) || range.last < range.first))) {
    return undefined;
  }
  return range;
}

/**
 * The range within `length` units: a last position past the end is clipped; a range that
 * starts at or past the end, or an empty suffix, answers undefined (unsatisfiable, 416).
 */
export function resolveRange(range: RequestedRange, length: number): ResolvedRange | undefined {
  if ('suffix' in range) {
    if (range.suffix === 0 || length === 0) return undefined;
    return { start: Math.max(0, length - range.suffix), end: length - 1 };
  }
  if (range.first >= length) return undefined;
  return { start: range.first, end: Math.min(range.last ?? length - 1, length - 1) };
}

/** The `Content-Range` value of a resolved range, or of an unsatisfiable one (`unit *\/length`). */
export function contentRange(unit: 'bytes' | 'items', range: ResolvedRange | undefined, length: number): string {
  return range === undefined ? `${unit} */${length}` : `${unit} ${range.start}-${range.end}/${length}`;
}
