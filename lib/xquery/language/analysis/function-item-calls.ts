/**
 * Calls that run a function item chosen at run time: a dynamic call (`$f()`, `$x => $f()`), and
 * the functions of fn:, array: and map: that call a function item they are given (`apply`,
 * `for-each`, `filter`, the folds, `sort`, `for-each-pair`, `transform`, …).
 *
 * Which function such a call runs is not in the query's text, and a function item may read the
 * focus of its caller: saxon-js evaluates `position#0`, `last#0` and the items of
 * `fn:function-lookup` against the focus where they are called. So the analyses that ask what a
 * predicate reads of its focus (which positions it sees: name-index/paths-index.ts
 * `positionFree`; whether only the element's name: name-predicates/paths-name-predicates.ts)
 * count such a call as reading all of it.
 */
import { NS } from '../../constants';

/** Functions that call a function item they are given, by namespace. */
const HIGHER_ORDER: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  [NS.fn, new Set(['apply', 'for-each', 'filter', 'fold-left', 'fold-right', 'for-each-pair', 'sort', 'transform', 'load-xquery-module', 'function-lookup'])],
  [NS.array, new Set(['for-each', 'filter', 'fold-left', 'fold-right', 'for-each-pair', 'sort'])],
  [NS.map, new Set(['for-each'])],
]);

/**
 * Whether the function `Q{uri}local` calls a function item it is given (or, `function-lookup`,
 * makes one of a name chosen at run time).
 */
export function callsFunctionItems(uri: string, local: string): boolean {
  return HIGHER_ORDER.get(uri)?.has(local) ?? false;
}
