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

/**
 * The built-in higher-order functions, each with the position (from 0) of the argument that is a
 * function they only call (never return, nor ask for its name), by `Q{uri}local`.
 */
const CALLED_ARGUMENTS: ReadonlyMap<string, number> = new Map([
  ...(['for-each', 'filter'] as const).flatMap((f) => [[`Q{${NS.fn}}${f}`, 1] as const, [`Q{${NS.array}}${f}`, 1] as const]),
  ...(['fold-left', 'fold-right', 'for-each-pair', 'sort'] as const).flatMap((f) => [[`Q{${NS.fn}}${f}`, 2] as const, [`Q{${NS.array}}${f}`, 2] as const]),
  [`Q{${NS.map}}for-each`, 1],
  [`Q{${NS.fn}}apply`, 0],
]);

/** fn: functions that run or make code chosen at run time without being given a function item. */
const RUN_TIME_CODE = new Set(['transform', 'load-xquery-module', 'function-lookup']);

/** The position of the function argument that `Q{uri}local` calls, when it is a built-in higher-order function. */
export function calledArgument(uri: string, local: string): number | undefined {
  return CALLED_ARGUMENTS.get(`Q{${uri}}${local}`);
}

/**
 * Whether the function `Q{uri}local` calls a function item it is given, or runs or makes code
 * chosen at run time (`transform`, `load-xquery-module`, `function-lookup`).
 */
export function callsFunctionItems(uri: string, local: string): boolean {
  return calledArgument(uri, local) !== undefined || (uri === NS.fn && RUN_TIME_CODE.has(local));
}
