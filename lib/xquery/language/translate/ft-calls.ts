/**
 * Calls of BaseX's ft:mark, ft:extract, ft:count and ft:score (docs.basex.org, Full-Text
 * Functions), which depend on the `contains text` expressions of their argument:
 *
 * - ft:mark, ft:extract, ft:count: the engine's versions (functions/ft-marks.ts), with
 *   `engine:ft-hits-open()` as a first argument: saxon-js evaluates it before the nodes, so the
 *   hits of the argument's `contains text` are collected while the nodes are evaluated.
 * - ft:score($items): the score of each item as `for … score` gives it (fulltext.ts): the score
 *   of a full-text, `and` or `or` expression given itself; for items a filter selected, the score
 *   its final predicates give each; otherwise 1 for `true`, 0 for any other item (XQuery Full Text
 *   1.0 §2.3: a boolean that is not full text scores 1 or 0; BaseX gives items without a score 0),
 *   by the ft: function (functions/ft-marks.ts).
 *
 * - count(ft:search(…)): the engine's count of what ft:search answers (functions/ft-index.ts), which
 *   counts the index's candidates without a node made for each where they are the answer.
 *
 * A call with a placeholder (`ft:mark(?)`) or a reference (`ft:mark#1`) is an inline function
 * calling it (functions.ts `moduleFunctionItem`): its argument is a variable, so it sees no hits
 * and no predicates.
 */
import type { Expr, FunctionCall } from '../syntax';
import { MODULE_NAMESPACES } from '../../module-namespaces';
import { braced } from './emit';
import { translateExpr } from './expressions';
import { finalPredicates, isScored, scoreOf, translateFTScore } from './fulltext';
import { NS, type QName } from './names';
import type { Scope } from './scope';
import type { TranslationUnit } from './unit';

const ENGINE = braced(NS.engine);
const FT = braced(MODULE_NAMESPACES.ft);
/** The functions, with their arities. */
const ARITIES: Readonly<Record<string, readonly number[]>> = { mark: [1, 2], extract: [1, 2, 3], count: [1], score: [1] };

/** The translation of a call of one of these functions, or undefined for any other call. */
export function translateFullTextCall(name: QName, call: FunctionCall, scope: Scope, unit: TranslationUnit): string | undefined {
  const searched = searchCounted(name, call, scope);
  if (searched) return `${ENGINE}ft-search-count(${(searched.args as Expr[]).map((a) => translateExpr(a, scope, unit)).join(', ')})`;
  if (!isOneOf(name, call.args.length)) return undefined;
  const args = call.args as Expr[];
  if (name.local === 'score') return scores(args[0], scope, unit);
  return `${ENGINE}ft-${name.local}(${ENGINE}ft-hits-open(), ${args.map((a) => translateExpr(a, scope, unit)).join(', ')})`;
}

function isOneOf(name: QName, arity: number): boolean {
  return name.uri === MODULE_NAMESPACES.ft && Object.hasOwn(ARITIES, name.local) && ARITIES[name.local].includes(arity);
}

function scores(items: Expr, scope: Scope, unit: TranslationUnit): string {
  if (isScored(items)) return scoreOf(items, scope, unit);
  if (finalPredicates(items).length > 0) return translateFTScore({ kind: 'FTScoreExpr', start: items.start, end: items.end, expr: items, item: items }, scope, unit);
  return `${FT}score(${translateExpr(items, scope, unit)})`;
}

/** The ft:search call counted by `count(ft:search(…))`, if `call` is that. */
function searchCounted(name: QName, call: FunctionCall, scope: Scope): FunctionCall | undefined {
  if (name.uri !== NS.fn || name.local !== 'count' || call.args.length !== 1) return undefined;
  const arg = call.args[0];
  if (arg.kind !== 'FunctionCall' || (arg.args.length !== 2 && arg.args.length !== 3) || arg.args.some((a) => a.kind === 'ArgumentPlaceholder')) return undefined;
  const inner = scope.functionName(arg.name, arg.start);
  return inner.uri === MODULE_NAMESPACES.ft && inner.local === 'search' ? arg : undefined;
}
