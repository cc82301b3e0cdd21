/**
 * A whole query `count(//name)` or `count(//name[child op number])` over a database context,
 * answered from per-document summaries of the stored text (accelerators/leaf-summaries/leaf-summaries.ts) before
 * the database's documents are parsed into trees.
 *
 * With a database context the focus is the database's documents, so `//name` is the descendant
 * elements named `name` of each of them (paths-index.ts) and the count is the sum over the
 * documents. `Q{urn:xmldb-rest:engine}count-summary` gets the context's collection URI and the
 * names; it answers false() whenever it cannot answer exactly, and the query then runs as
 * written (translate/translation.ts `xpathToRun` binds the context only on that branch). The predicate is the one
 * `childComparison` recognises, with the same rules of exactness as the tree-based filter.
 */
import type { Expr } from '../../language/syntax';
import { translateExpr } from '../../language/translate/expressions';
import { CONTEXT_URI_PARAM, NS, xpathString } from '../../language/translate/names';
import { childComparison, indexedName } from '../name-index/paths-index';
import type { Scope } from '../../language/translate/scope';
import type { TranslationUnit } from '../../language/translate/unit';
import { braced } from '../../language/translate/emit';

/** The summary call for a query body `count(//name[…])` (see above); undefined for any other body. */
export function contextCount(body: Expr, scope: Scope, unit: TranslationUnit): string | undefined {
  if (body.kind !== 'FunctionCall' || body.args.length !== 1) return undefined;
  const fn = scope.functionName(body.name, body.start);
  const arg = body.args[0] as Expr;
  if (fn.uri !== NS.fn || fn.local !== 'count' || arg.kind !== 'PathExpr' || arg.root !== '/' || arg.steps.length !== 2) return undefined;
  const native = scope.withFocus({ kind: 'native' });
  const step = arg.steps[1];
  const name = indexedName(arg.steps, 0, native);
  if (name === undefined || step.kind !== 'AxisStep' || step.predicates.length > 1) return undefined;
  const call = (child: string, op: string, value: string): string =>
    `${braced(NS.engine)}count-summary($${CONTEXT_URI_PARAM}, ${xpathString(name)}, ${xpathString(child)}, ${xpathString(op)}, ${value})`;
  if (step.predicates.length === 0) return call('', '', '()');
  const test = childComparison(step.predicates[0], native);
  return test ? call(test.child, test.op, translateExpr(test.literal, native, unit)) : undefined;
}
