/**
 * `count(//name)` and `sum(//name)` from the worker's per-document structures.
 *
 * `//name` from the root is the descendant elements named `name` of the root of each context
 * node (paths-index.ts), concatenated in the order of the context (`$context ! …`, paths.ts).
 * Its count is the sum of the lengths of the roots' name-index entries
 * (`Q{urn:xmldb-rest:engine}count-descendants`, documents/name-index.ts), without building the
 * sequence. Its sum, when every element's string value is a plain number, is the xs:double sum
 * of those values in the same order (`Q{urn:xmldb-rest:engine}sum-descendants`,
 * documents/leaf-values.ts: F&O 3.1 §14.4.5 casts untyped values to xs:double); otherwise that
 * function answers false() and fn:sum runs on the path as written, so empty sequences, other
 * values and errors stay fn:sum's.
 *
 * The roots are the translation of `/` itself, so a context that is absent or not in a document
 * raises the errors a leading `/` raises (XPDY0002, XPDY0050). Only a path that is exactly
 * `//name` (no predicate, no further step) is rewritten.
 */
import type { Expr, PathExpr } from '../syntax';
import { translateExpr } from './expressions';
import { NS, xpathString } from './names';
import { indexedName } from './paths-index';
import type { Scope } from './scope';
import type { TranslationUnit } from './unit';
import { braced } from './emit';

const ENGINE = braced(NS.engine);

/** The call `fn:count(arg)` or `fn:sum(arg)` (`local`), answered from indexes; undefined when the argument is not `//name`. */
export function indexedAggregate(local: string, arg: Expr, fallback: () => string, scope: Scope, unit: TranslationUnit): string | undefined {
  if ((local !== 'count' && local !== 'sum') || arg.kind !== 'PathExpr' || arg.root !== '/' || arg.steps.length !== 2) return undefined;
  const child = arg.steps[1];
  if (child.kind !== 'AxisStep' || child.predicates.length > 0) return undefined;
  const name = indexedName(arg.steps, 0, scope.withFocus({ kind: 'native' }));
  if (name === undefined) return undefined;
  const root: PathExpr = { kind: 'PathExpr', root: '/', steps: [], start: arg.start, end: arg.end };
  const roots = translateExpr(root, scope, unit);
  if (local === 'count') return `${ENGINE}count-descendants(${roots}, ${xpathString(name)})`;
  const s = `$${braced(NS.gen)}sum`;
  return `(let ${s} := ${ENGINE}sum-descendants(${roots}, ${xpathString(name)}) return if (${s} instance of ${braced(NS.xs)}boolean) then ${fallback()} else ${s})`;
}
