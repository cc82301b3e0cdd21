/**
 * The sort of an order by clause (XQuery 3.1 §3.12.8) over tuples whose keys are plain numbers or
 * strings, in JavaScript, behind one extension function in the engine's namespace:
 *
 *   Q{urn:xmldb-rest:engine}order-tuples($tuples as array(*)*, $orders as xs:string*,
 *       $empty as xs:string*, $collations as xs:string*) as array(*)?
 *
 * Each tuple is an array whose first member is the tuple's value and whose member i + 1 is the
 * atomized key of order spec i; `$orders[i]` is `ascending` or `descending`, `$empty[i]` `least`
 * or `greatest`, `$collations[i]` the spec's collation URI. The answer is one array whose one
 * member is the tuples' values in order, or the empty sequence when this function cannot answer exactly: the caller
 * then sorts them itself (language/translate/flwor/sort.ts), which also raises the type errors.
 *
 * Exactness. For every spec, the keys of all tuples must be
 * - empty, or NaN (xs:double or xs:float): they rank as the spec says, `empty least`
 *   () < NaN < values, `empty greatest` values < NaN < ();
 * - or all numbers: xs:double and xs:float values (a float promoted to double is the same number),
 *   or xs:integer values held as JavaScript numbers beside doubles (an integer promoted to double,
 *   XPath 3.1 §B.1, is Number() of it). Floats beside integers (both promoted to xs:float) and
 *   xs:decimal values, which saxon-js keeps as big decimals, are left to the caller;
 * - or all strings: xs:string, xs:untypedAtomic (compared as xs:string, §3.12.8) and xs:anyURI
 *   (promoted to xs:string), with the Unicode codepoint collation, compared by codepoint.
 * Anything else (other types, another collation, a mix the value comparison `gt` would reject
 * with XPTY0004) is left to the caller. A key of more than one item raises XPTY0004 here, as it
 * does there. The sort is stable, so tuples with equal keys keep their input order in either
 * direction, as `stable order by` requires (and plain `order by` allows).
 *
 * Registered by `registerOrderFunctions` (extension-functions.ts).
 */
import { ENGINE_NS, ORDER_KEY_CARDINALITY_MESSAGE } from '../constants';
import { arrayValue, isArray, isAtomic, registerFunctions, xpathError, type XdmArray, type XdmItem, type XdmValue } from '../../saxon';

export const ORDER_TUPLES_FUNCTION = 'order-tuples';

const CODEPOINT_COLLATION = 'http://www.w3.org/2005/xpath-functions/collation/codepoint';

/**
 * Where a key ranks before its value is compared, as the spec's `empty least` orders them:
 * () < NaN < values. `empty greatest` reverses the ranks (values < NaN < ()).
 */
export const EMPTY = 0;
export const NAN = 1;
export const VALUE = 2;

/**
 * One spec's keys, ready to compare: a rank per tuple, and the value of the `VALUE` ones. The sort
 * by leaves (accelerators/leaf-order/leaf-order.ts) builds them from leaf columns.
 */
export interface SortColumn {
  readonly ranks: Uint8Array;
  /** The numbers (a number column) or strings (a string column) of the VALUE keys. */
  readonly numbers: Float64Array;
  readonly strings: string[] | undefined;
  /**
   * Whether some string holds a surrogate: only then can comparing UTF-16 code units (JavaScript's
   * `<`) differ from comparing codepoints.
   */
  readonly surrogates: boolean;
  /** 1 ascending, -1 descending. */
  readonly sign: number;
  /**
   * The numbers are whole ranks from 0 to `dense` (a column's leaves ranked once: leaf-ranks.ts),
   * which a counting sort orders in time linear in the tuples and ranks.
   */
  readonly dense?: number;
}

/** What kind of number a key is, for the promotion rules. */
type Kind = 'double' | 'float' | 'integer' | 'string';

function kindOf(item: XdmItem): Kind | undefined {
  if (!isAtomic(item)) return undefined;
  const code = item.code;
  if (code === 'AO') return 'double';
  if (code === 'AF') return 'float';
  if (code.startsWith('ADI')) return typeof item.value === 'number' ? 'integer' : undefined;
  if (code.startsWith('AS') || code === 'AZ' || code === 'AU') return 'string';
  return undefined;
}

/** The keys of spec `spec` (member spec + 2 of each tuple), or undefined when they are not plain. */
function column(tuples: readonly XdmArray[], spec: number, order: string, empty: string, collation: string): SortColumn | undefined {
  const n = tuples.length;
  const ranks = new Uint8Array(n);
  const numbers = new Float64Array(n);
  const strings: string[] = [];
  const seen = new Set<Kind>();
  const greatest = empty === 'greatest';
  for (let t = 0; t < n; t++) {
    const key = tuples[t].value[spec + 1];
    if (key === undefined) return undefined;
    if (key.length > 1) throw xpathError(ORDER_KEY_CARDINALITY_MESSAGE, 'XPTY0004');
    let rank = EMPTY;
    if (key.length === 1) {
      const item = key[0];
      const kind = kindOf(item);
      if (kind === undefined) return undefined;
      seen.add(kind);
      const value = (item as { value: unknown }).value;
      if (kind === 'string') {
        strings[t] = String(value);
        rank = VALUE;
      } else {
        numbers[t] = value as number;
        rank = Number.isNaN(value) ? NAN : VALUE;
      }
    }
    ranks[t] = greatest ? VALUE - rank : rank;
  }
  const isString = seen.has('string');
  if (isString && (seen.size > 1 || collation !== CODEPOINT_COLLATION)) return undefined;
  if (seen.has('float') && seen.has('integer')) return undefined;
  return sortColumn(ranks, numbers, isString ? strings : undefined, order === 'descending');
}

/**
 * A column of ranks (already reversed for `empty greatest`) and values: the numbers, or the
 * strings when `strings` is given (a string for every VALUE rank).
 */
export function sortColumn(ranks: Uint8Array, numbers: Float64Array, strings: string[] | undefined, descending: boolean): SortColumn {
  const surrogates = strings !== undefined && hasSurrogate(strings);
  return { ranks, numbers, strings, surrogates, sign: descending ? -1 : 1 };
}

/** A column of whole ranks from 0 to `dense` in `numbers` (see SortColumn `dense`). */
export function rankColumn(ranks: Uint8Array, numbers: Float64Array, dense: number, descending: boolean): SortColumn {
  return { ranks, numbers, strings: undefined, surrogates: false, sign: descending ? -1 : 1, dense };
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** Whether some string holds a surrogate: only then can comparing UTF-16 code units (JavaScript's `<`) differ from comparing codepoints. */
function hasSurrogate(strings: readonly string[]): boolean {
  return strings.some((s) => SURROGATE.test(s));
}

/** The codepoint order of strings (a < b < … by `compareCodepoints`), by UTF-16 code units where none of `strings` has a surrogate. */
export function codepointOrder(strings: readonly string[]): (a: string, b: string) => number {
  if (hasSurrogate(strings)) return compareCodepoints;
  return (a, b) => (a < b ? -1 : a > b ? 1 : 0);
}

/** A UTF-16 code unit mapped so that comparing mapped units orders strings by codepoint. */
function unitOrder(unit: number): number {
  if (unit >= 0xe000) return unit - 0x800;
  if (unit >= 0xd800) return unit + 0x2000;
  return unit;
}

/** Compares two strings by Unicode codepoints (the codepoint collation, F&O 3.1 §5.3.2). */
export function compareCodepoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return unitOrder(x) - unitOrder(y);
  }
  return a.length - b.length;
}

/** Compares tuples `i` and `j` by one spec. */
type Comparator = (i: number, j: number) => number;

/**
 * The comparison of tuples by one spec, in the spec's direction: first the ranks, then for two
 * values the numbers or the strings (by UTF-16 code units where no string has a surrogate, which
 * orders them by codepoint as well). One function per kind of column, made once per sort: the
 * sort calls it about n log n times (25,000 keys: some 370,000 calls).
 */
function comparatorOf(c: SortColumn): Comparator {
  const { ranks, sign } = c;
  const strings = c.strings;
  if (strings === undefined) {
    const numbers = c.numbers;
    return (i, j) => {
      const ri = ranks[i];
      const rj = ranks[j];
      if (ri !== rj) return (ri - rj) * sign;
      // equal ranks: both empty, both NaN, or two values (a rank VALUE - r under empty greatest)
      const a = numbers[i];
      const b = numbers[j];
      return a < b ? -sign : a > b ? sign : 0;
    };
  }
  const byUnits = !c.surrogates;
  return (i, j) => {
    const ri = ranks[i];
    const rj = ranks[j];
    if (ri !== rj) return (ri - rj) * sign;
    const a = strings[i];
    const b = strings[j];
    if (a === undefined || b === undefined) return 0;
    if (byUnits) return a < b ? -sign : a > b ? sign : 0;
    return compareCodepoints(a, b) * sign;
  };
}

/**
 * The positions 0 … n - 1 of the tuples in the order of `columns`. Equal keys keep the input
 * order: the sort is stable (ECMAScript 2019 requires it of `Array.prototype.sort`), and the
 * positions start in input order.
 */
export function sortedPositions(columns: readonly SortColumn[], n: number): number[] {
  if (columns.every((c) => c.dense !== undefined)) return countedPositions(columns, n);
  const positions = new Array<number>(n);
  for (let i = 0; i < n; i++) positions[i] = i;
  if (columns.length === 1) return positions.sort(comparatorOf(columns[0]));
  const comparators = columns.map(comparatorOf);
  return positions.sort((i, j) => {
    for (let k = 0; k < comparators.length; k++) {
      const r = comparators[k](i, j);
      if (r !== 0) return r;
    }
    return 0;
  });
}

/**
 * The same for columns of whole ranks only: a stable counting sort by each column, the last
 * first (least significant digit first), so that the first column decides and each earlier
 * sort breaks its ties. A key is the rank (empty, NaN, value) and the value's rank together,
 * reversed for a descending column: stable either way, as sortedPositions.
 */
function countedPositions(columns: readonly SortColumn[], n: number): number[] {
  let positions = new Int32Array(n);
  for (let i = 0; i < n; i++) positions[i] = i;
  let next = new Int32Array(n);
  for (let k = columns.length - 1; k >= 0; k--) {
    const { ranks, numbers, sign } = columns[k];
    const width = columns[k].dense! + 1;
    const size = (VALUE + 1) * width;
    const keys = new Int32Array(n);
    for (let p = 0; p < n; p++) {
      const key = ranks[p] * width + numbers[p];
      keys[p] = sign > 0 ? key : size - 1 - key;
    }
    const starts = new Int32Array(size + 1);
    for (let p = 0; p < n; p++) starts[keys[p] + 1]++;
    for (let v = 1; v <= size; v++) starts[v] += starts[v - 1];
    for (let i = 0; i < n; i++) {
      const p = positions[i];
      next[starts[keys[p]]++] = p;
    }
    [positions, next] = [next, positions];
  }
  return Array.from(positions);
}

/** The tuples in order, or undefined when some spec's keys are not plain (see the head of this file). */
export function orderTuples(tuples: readonly XdmArray[], orders: readonly string[], empty: readonly string[], collations: readonly string[]): XdmArray[] | undefined {
  const columns: SortColumn[] = [];
  for (let s = 0; s < orders.length; s++) {
    const c = column(tuples, s, orders[s], empty[s], collations[s]);
    if (!c) return undefined;
    columns.push(c);
  }
  const positions = sortedPositions(columns, tuples.length);
  const out = new Array<XdmArray>(positions.length);
  for (let i = 0; i < positions.length; i++) out[i] = tuples[positions[i]];
  return out;
}

function orderTuplesFn([tuples, orders, empty, collations]: XdmValue[]): XdmValue {
  if (!tuples.every(isArray)) return [];
  const sorted = orderTuples(tuples as XdmArray[], orders.map(String), empty.map(String), collations.map(String));
  if (!sorted) return [];
  const values: XdmValue = [];
  for (const t of sorted) for (const item of t.value[0]) values.push(item);
  return [arrayValue([values])];
}

/** Registers engine:order-tuples with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerOrderFunctions(): void {
  registerFunctions(ENGINE_NS, {
    [ORDER_TUPLES_FUNCTION]: { sig: '1F r[*] a[*,*AS,*AS,*AS]', impl: orderTuplesFn },
  });
}
