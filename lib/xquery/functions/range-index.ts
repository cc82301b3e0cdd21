/**
 * The sorted keys of a range join (language/translate/flwor/join-range.ts), behind three extension
 * functions in the engine's namespace:
 *
 *   Q{urn:xmldb-rest:engine}range-index($pairs as xs:anyAtomicType*) as array(*)
 *   Q{urn:xmldb-rest:engine}range-count($index as array(*), $op as xs:string, $x as xs:double) as xs:integer
 *   Q{urn:xmldb-rest:engine}range-positions($index as array(*), $op as xs:string, $x as xs:double) as xs:integer*
 *
 * `$pairs` alternates an xs:double key (never NaN) and the position in the join's inner domain
 * of the item it belongs to, positions ascending (an item with several keys gives several pairs).
 * The index is an array of two members, the keys in ascending order and their positions, and
 * is built once per join; the two lookups find, by binary search, the keys `k` for which
 * `k $op $x` holds (`$op` one of `lt`, `le`, `gt`, `ge`): they form one run of the sorted keys.
 * `range-count` answers how many items of the inner domain have such a key (the length of the
 * run when no item has two keys), `range-positions` their positions, ascending, each once: the
 * order of the inner domain. Doubles compare in JavaScript as `lt`/`le` compare them in XPath
 * (no NaN; −0 equals 0).
 *
 * Done in XPath, each probe cost about 14 calls of an inline function and as many array
 * lookups, 0.1 ms in saxon-js: seconds for the 25,500 people of XMark factor 1.
 *
 * Registered by `registerRangeIndexFunctions` (extension-functions.ts).
 */
import { ENGINE_NS } from '../constants';
import { arrayValue, isArray, registerFunctions, saxon, xpathError, type XdmAtomic, type XdmItem, type XdmValue } from '../../saxon';

export const RANGE_INDEX_FUNCTION = 'range-index';
export const RANGE_COUNT_FUNCTION = 'range-count';
export const RANGE_POSITIONS_FUNCTION = 'range-positions';

interface RangeIndex {
  /** The keys, ascending. */
  readonly keys: Float64Array;
  /** The position of each key's item. */
  readonly positions: Float64Array;
  /** Whether a position occurs more than once. */
  readonly multi: boolean;
}

/** The index behind each array `range-index` answered (rebuilt from its members for any other). */
const built = new WeakMap<object, RangeIndex>();

const INTEGER = saxon().Atomic.codes.ADI;
const DOUBLE = saxon().Atomic.codes.AO;

const numberOf = (item: XdmItem): number => Number((item as XdmAtomic).value);

function sortedIndex(keys: readonly number[], positions: readonly number[]): RangeIndex {
  const order = Array.from(keys.keys()).sort((a, b) => keys[a] - keys[b]);
  const index = { keys: new Float64Array(order.length), positions: new Float64Array(order.length), multi: false };
  order.forEach((from, to) => {
    index.keys[to] = keys[from];
    index.positions[to] = positions[from];
  });
  const seen = new Set<number>();
  for (const p of positions) {
    if (seen.has(p)) index.multi = true;
    seen.add(p);
  }
  return index;
}

function rangeIndexFn([pairs]: XdmValue[]): XdmValue {
  const keys: number[] = [];
  const positions: number[] = [];
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    keys.push(numberOf(pairs[i]));
    positions.push(numberOf(pairs[i + 1]));
  }
  const index = sortedIndex(keys, positions);
  const array = arrayValue([Array.from(index.keys, (k) => DOUBLE.fromNumber!(k)), Array.from(index.positions, (p) => INTEGER.fromNumber!(p))]);
  built.set(array, index);
  return [array];
}

function indexOf(value: XdmValue): RangeIndex {
  const array = value[0];
  if (value.length !== 1 || !isArray(array) || array.value.length !== 2) throw xpathError('Not a range index', 'XPTY0004');
  let index = built.get(array);
  if (!index) built.set(array, (index = sortedIndex(array.value[0].map(numberOf), array.value[1].map(numberOf))));
  return index;
}

/** The first index whose key is > x (`after`) or >= x. */
function search(keys: Float64Array, x: number, after: boolean): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (after ? keys[mid] <= x : keys[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The run [from, to) of sorted keys `k` with `k op x`. */
function run(index: RangeIndex, op: string, x: number): [number, number] {
  const n = index.keys.length;
  switch (op) {
    case 'lt':
      return [0, search(index.keys, x, false)];
    case 'le':
      return [0, search(index.keys, x, true)];
    case 'gt':
      return [search(index.keys, x, true), n];
    case 'ge':
      return [search(index.keys, x, false), n];
    default:
      throw xpathError(`Unknown range comparison ${op}`, 'XPTY0004');
  }
}

/** The positions of the run, ascending, each once. */
function distinctPositions(index: RangeIndex, [from, to]: [number, number]): Float64Array {
  const sorted = index.positions.slice(from, to).sort();
  if (!index.multi) return sorted;
  let n = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[n++] = sorted[i];
  return sorted.subarray(0, n);
}

function rangeCountFn([value, op, x]: XdmValue[]): XdmValue {
  const index = indexOf(value);
  const r = run(index, String(op[0]), numberOf(x[0]));
  return [INTEGER.fromNumber!(index.multi ? distinctPositions(index, r).length : r[1] - r[0])];
}

function rangePositionsFn([value, op, x]: XdmValue[]): XdmValue {
  const index = indexOf(value);
  return Array.from(distinctPositions(index, run(index, String(op[0]), numberOf(x[0]))), (p) => INTEGER.fromNumber!(p));
}

/** Registers engine:range-index, range-count and range-positions with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerRangeIndexFunctions(): void {
  registerFunctions(ENGINE_NS, {
    [RANGE_INDEX_FUNCTION]: { sig: '1F r[*] a[*A]', impl: rangeIndexFn },
    [RANGE_COUNT_FUNCTION]: { sig: '1F r[1ADI] a[*,1AS,1AO]', impl: rangeCountFn },
    [RANGE_POSITIONS_FUNCTION]: { sig: '1F r[*ADI] a[*,1AS,1AO]', impl: rangePositionsFn },
  });
}
