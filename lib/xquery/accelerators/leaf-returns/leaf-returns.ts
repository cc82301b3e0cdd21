/**
 * The values a for clause returns when its return clause reads one leaf path of its variable's
 * elements, from the per-document leaf columns (leaf-columns.ts), behind one extension function in
 * the engine's namespace:
 *
 *   Q{urn:xmldb-rest:engine}leaf-returns($nodes as item()*, $steps as xs:string*,
 *       $key as xs:string) as array(*)?
 *
 * `$nodes` are the values of the for variable in order (flwor-leaf-returns.ts plans the call);
 * `$steps` the leaf path below them, written `kind leaf` as for engine:group-leaves
 * (element-locator.ts `parsePaths`), and `$key` what the return clause makes of the path's value,
 * as for engine:order-leaves (leaf-order.ts): `string` (`string($v/p)`: the leaf's string, ""
 * for none), `data` (`data($v/p)` or `$v/p/data()`: every leaf as xs:untypedAtomic, in document
 * order), `strings` (`$v/p/string()`: every leaf as xs:string, in document order) or `number`
 * (`number($v/p)`: the leaf as xs:double, NaN for none).
 *
 * The answer is one array whose one member is the values for the nodes in order, or the empty
 * sequence when this function cannot answer exactly, and the caller then evaluates the return
 * clause per node, which also raises the errors: a node that is not an element of a document
 * tree, more than one leaf for `string` or `number` (XPTY0004 there), a leaf `number()` reads in a
 * way leaf-values.ts `numberValue` leaves to saxon-js.
 *
 * Registered by `registerLeafReturnFunctions` (extension-functions.ts).
 */
import { ENGINE_NS } from '../../constants';
import { arrayValue, castString, registerFunctions, stringValue, type XdmValue } from '../../../saxon';
import type { Column, LeafStep } from '../leaf-columns/leaf-columns';
import { numberValue } from '../leaf-columns/leaf-values';
import { Locator, parsePaths } from '../leaf-columns/element-locator';
import type { LeafKey } from '../leaf-order/leaf-order';

/** The local name of the function in ENGINE_NS. */
export const LEAF_RETURNS_FUNCTION = 'leaf-returns';

/**
 * Appends to `out` what `key` makes of the leaves of element `index` of `column`; false when this
 * module cannot answer for them (see the file comment). engine:order-leaves returns such values
 * too (leaf-order.ts).
 */
export function appendLeafReturn(out: XdmValue, column: Column, index: number, key: LeafKey): boolean {
  const { offsets, strings } = column;
  const start = offsets[index];
  const count = offsets[index + 1] - start;
  if (key === 'data') {
    for (let j = start; j < start + count; j++) out.push(castString(strings[j], 'untypedAtomic'));
    return true;
  }
  if (key === 'strings') {
    for (let j = start; j < start + count; j++) out.push(stringValue(strings[j]));
    return true;
  }
  if (count > 1) return false;
  if (key === 'string') {
    out.push(stringValue(count === 0 ? '' : strings[start]));
    return true;
  }
  const value = count === 0 ? NaN : numberValue(strings[start]);
  if (value === undefined) return false;
  out.push(castString(Number.isNaN(value) ? 'NaN' : strings[start], 'double'));
  return true;
}

/** The values (see the file comment); undefined when this function cannot answer. */
export function leafReturns(nodes: XdmValue, path: readonly LeafStep[], key: LeafKey): XdmValue | undefined {
  const locator = new Locator([path], []);
  const out: XdmValue = [];
  for (const node of nodes) {
    const index = locator.locate(node);
    if (index < 0 || !appendLeafReturn(out, locator.source!.columns[0], index, key)) return undefined;
  }
  return out;
}

const KEYS = new Set<string>(['data', 'strings', 'string', 'number']);

function leafReturnsFn([nodes, stepArgs, keyArg]: XdmValue[]): XdmValue {
  const paths = parsePaths(stepArgs, [castString(String(stepArgs.length), 'integer')]);
  const key = String(keyArg[0]);
  if (!paths || paths.length !== 1 || !KEYS.has(key)) return [];
  const values = leafReturns(nodes, paths[0], key as LeafKey);
  return values === undefined ? [] : [arrayValue([values])];
}

/** Registers engine:leaf-returns with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerLeafReturnFunctions(): void {
  registerFunctions(ENGINE_NS, {
    [LEAF_RETURNS_FUNCTION]: { sig: '1F r[*] a[*,*AS,1AS]', impl: leafReturnsFn },
  });
}
