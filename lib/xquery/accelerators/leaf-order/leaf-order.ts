/**
 * The sort of an order by clause whose keys are leaves of the elements a for clause binds, from
 * the per-document leaf columns (leaf-columns.ts), behind one extension function in the engine's
 * namespace:
 *
 *   Q{urn:xmldb-rest:engine}order-leaves($nodes as item()*, $steps as xs:string*,
 *       $lengths as xs:integer*, $keys as xs:string*, $orders as xs:string*,
 *       $empties as xs:string*, $returnSteps as xs:string*, $returnKey as xs:string?) as array(*)?
 *
 * `$nodes` are the values of the for variable, one per tuple, in the order of the tuples
 * (flwor-order-leaves.ts plans the call, translate/flwor/sort.ts emits it). Key i reads the leaf
 * path of `$lengths[i]` steps that follow those of the keys before it in `$steps`, each written
 * `kind leaf` as for engine:group-leaves (element-locator.ts `parsePaths`), and `$keys[i]` says
 * what the order spec makes of the path's value:
 * - `data`: the path itself or `data()` of it: its one leaf as xs:untypedAtomic, which order by
 *   compares as xs:string (XQuery 3.1 §3.12.8), or the empty sequence; `strings` (`$v/p/string()`)
 *   sorts alike, its one leaf being an xs:string;
 * - `string`: `string()` of it: the leaf's string, "" for none;
 * - `number`: `number()` of it: the leaf cast to xs:double (leaf-values.ts `numberValue`), NaN
 *   for none.
 * `$orders[i]` is `ascending` or `descending`, `$empties[i]` `least` or `greatest`.
 *
 * With `$returnSteps` (a leaf path written alike) and `$returnKey`, the return clause is
 * `F($v/path)` (flwor-leaf-returns.ts): the answer holds, in the same order, what engine:leaf-returns
 * (leaf-returns.ts) gives for each node, read while the nodes are located for their keys, without
 * looking them up again after the sort.
 *
 * The answer is one array whose one member is the nodes in the order the clause gives the
 * tuples (or their return values, above): what engine:order-tuples (functions/order-tuples.ts, whose comparison this function
 * shares) answers for the tuples `[node, key 1, …]`, equal keys in input order. It is the empty
 * sequence when this function cannot answer exactly, and the caller then sorts the tuples
 * itself, which also raises the errors: a node that is not an element of a document tree (no
 * columns), a path with more than one leaf for a node (XPTY0004 there), a leaf `number()` reads
 * in a way `numberValue` leaves to saxon-js. Strings compare by codepoints (as ranks of their
 * column when all keys of a spec are leaves of one document: leaf-ranks.ts); the translation
 * plans `data` and `string` keys only under the codepoint collation.
 *
 * Registered by `registerLeafOrderFunctions` (extension-functions.ts).
 */
import { ENGINE_NS } from '../../constants';
import { NAN, VALUE, sortColumn, sortedPositions, type SortColumn } from '../../functions/order-tuples';
import { LeafSortKeys } from '../leaf-columns/leaf-ranks';
import { arrayValue, castString, registerFunctions, type XdmValue } from '../../../saxon';
import { appendLeafReturn } from '../leaf-returns/leaf-returns';
import { numbersOf, type Column, type LeafStep } from '../leaf-columns/leaf-columns';
import { numberValue } from '../leaf-columns/leaf-values';
import { Locator, parsePaths } from '../leaf-columns/element-locator';

/** The local name of the function in ENGINE_NS. */
export const ORDER_LEAVES_FUNCTION = 'order-leaves';

/** What an order spec makes of its leaf path's value (see the file comment). */
export type LeafKey = 'data' | 'strings' | 'string' | 'number';

const KEYS = new Set<string>(['data', 'strings', 'string', 'number']);

/** One order spec over leaves. */
export interface LeafSortSpec {
  readonly path: readonly LeafStep[];
  readonly key: LeafKey;
  readonly descending: boolean;
  readonly emptyGreatest: boolean;
}

/** The keys of a `number` spec being read: ranks, and the numbers of VALUE ranks. */
interface NumberKeys {
  readonly ranks: Uint8Array;
  readonly numbers: Float64Array;
}

/** The number of leaf `at` of `column` as `number()` reads it; undefined when saxon-js must decide. */
function leafNumber(column: Column, at: number): number | undefined {
  const numbers = numbersOf(column);
  return numbers !== null ? numbers[at] : numberValue(column.strings[at]);
}

/** What the return clause makes of a leaf path of each node (leaf-returns.ts). */
export interface LeafReturnSpec {
  readonly path: readonly LeafStep[];
  readonly key: LeafKey;
}

/**
 * The nodes in the order of `specs`, or with `returns` what the return clause gives for each, in
 * that order (see the file comment); undefined when this function cannot answer.
 */
export function orderLeaves(nodes: XdmValue, specs: readonly LeafSortSpec[], returns?: LeafReturnSpec): XdmValue | undefined {
  const n = nodes.length;
  const locator = new Locator(
    returns ? [...specs.map((s) => s.path), returns.path] : specs.map((s) => s.path),
    [],
  );
  // with `returns`: per tuple, the column and index its value is read from after the sort
  const returnColumns: Column[] = returns ? new Array<Column>(n) : [];
  const returnIndexes = new Int32Array(returns ? n : 0);
  // number keys as numbers; the others as the ranks or strings of their leaves (leaf-ranks.ts)
  const keys = specs.map((s): NumberKeys | LeafSortKeys => (s.key === 'number' ? { ranks: new Uint8Array(n), numbers: new Float64Array(n) } : new LeafSortKeys(n, s.emptyGreatest, s.key === 'string')));
  for (let t = 0; t < n; t++) {
    const index = locator.locate(nodes[t]);
    if (index < 0) return undefined;
    const { columns } = locator.source!;
    if (returns) {
      returnColumns[t] = columns[specs.length];
      returnIndexes[t] = index;
    }
    for (let k = 0; k < specs.length; k++) {
      const column = columns[k];
      const start = column.offsets[index];
      const count = column.offsets[index + 1] - start;
      if (count > 1) return undefined;
      const key = keys[k];
      if (key instanceof LeafSortKeys) {
        key.leaf(t, column, count === 1 ? start : -1);
        continue;
      }
      const value = count === 0 ? NaN : leafNumber(column, start);
      if (value === undefined) return undefined;
      key.numbers[t] = value;
      const rank = Number.isNaN(value) ? NAN : VALUE;
      key.ranks[t] = specs[k].emptyGreatest ? VALUE - rank : rank;
    }
  }
  const columns: SortColumn[] = specs.map((spec, k) => {
    const key = keys[k];
    return key instanceof LeafSortKeys ? key.column(spec.descending) : sortColumn(key.ranks, key.numbers, undefined, spec.descending);
  });
  const positions = sortedPositions(columns, n);
  if (returns) {
    const values: XdmValue = [];
    for (const t of positions) if (!appendLeafReturn(values, returnColumns[t], returnIndexes[t], returns.key)) return undefined;
    return values;
  }
  const out: XdmValue = new Array(n);
  for (let i = 0; i < n; i++) out[i] = nodes[positions[i]];
  return out;
}

function orderLeavesFn([nodes, stepArgs, lengthArgs, keyArgs, orderArgs, emptyArgs, returnStepArgs, returnKeyArg]: XdmValue[]): XdmValue {
  const paths = parsePaths(stepArgs, lengthArgs);
  const n = paths?.length;
  if (!paths || keyArgs.length !== n || orderArgs.length !== n || emptyArgs.length !== n) return [];
  let returns: LeafReturnSpec | undefined;
  if (returnStepArgs.length > 0) {
    const [path] = parsePaths(returnStepArgs, [castString(String(returnStepArgs.length), 'integer')]) ?? [];
    const key = String(returnKeyArg[0]);
    if (!path || !KEYS.has(key)) return [];
    returns = { path, key: key as LeafKey };
  }
  const specs: LeafSortSpec[] = [];
  for (let i = 0; i < paths.length; i++) {
    const key = String(keyArgs[i]);
    if (!KEYS.has(key)) return [];
    specs.push({ path: paths[i], key: key as LeafKey, descending: String(orderArgs[i]) === 'descending', emptyGreatest: String(emptyArgs[i]) === 'greatest' });
  }
  const sorted = orderLeaves(nodes, specs, returns);
  return sorted === undefined ? [] : [arrayValue([sorted])];
}

/** Registers engine:order-leaves with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerLeafOrderFunctions(): void {
  registerFunctions(ENGINE_NS, {
    [ORDER_LEAVES_FUNCTION]: { sig: '1F r[*] a[*,*AS,*,*AS,*AS,*AS,*AS,*AS]', impl: orderLeavesFn },
  });
}
