/**
 * `for $v in NODES return R` over nodes already computed: R evaluated per node, or, when it
 * reads one leaf path of `$v` (accelerators/leaf-returns/flwor-leaf-returns.ts), the values read
 * from the leaf columns by engine:leaf-returns, with R per node as the answer when it declines:
 *
 *   let $r := engine:leaf-returns(NODES, steps, key) return if (exists($r)) then $r(1) else (for $v in NODES return R)
 */
import type { Expr, FLWORExpr, ForBinding, VarRef } from '../../syntax';
import { translateExpr } from '../expressions';
import { leafReturnPlan } from '../../../accelerators/leaf-returns/flwor-leaf-returns';
import { yieldsAtomics } from '../atomic-values';
import { NS, xpathString } from '../names';
import type { Scope } from '../scope';
import type { TranslationUnit } from '../unit';
import { braced } from '../emit';
import { tempVar } from './tuples';
import { leafStepArgs } from './leaf-step-args';
import { hoistedJoin } from './join';

const LEAF_RETURNS = `${braced(NS.engine)}leaf-returns`;

/** The FLWOR above; `nodes` is a variable reference (read twice when the function declines). */
function forEachNode(nodes: string, binding: ForBinding, ret: Expr, scope: Scope, unit: TranslationUnit): string {
  const rebound = scope.bind(binding.name, binding.start, yieldsAtomics(binding.in, scope));
  const each = `for ${rebound.variable.ref} in ${nodes} return (${translateExpr(ret, rebound.scope, unit)})`;
  const plan = leafReturnPlan(ret, binding, scope);
  if (!plan) return each;
  const r = tempVar(scope, 'returns');
  return `let ${r} := ${LEAF_RETURNS}(${nodes}, (${leafStepArgs(plan.steps).join(', ')}), ${xpathString(plan.key)}) return if (${braced(NS.fn)}exists(${r})) then ${r}(1) else (${each})`;
}

/**
 * A FLWOR of one for binding and where clauses whose return clause reads a leaf path of the for
 * variable (see above), as XPath; undefined for any other FLWOR. `translateNodes` translates the
 * FLWOR returning the for variable instead.
 */
export function translateLeafReturns(expr: FLWORExpr, scope: Scope, unit: TranslationUnit, translateNodes: (e: FLWORExpr) => string): string | undefined {
  const [first, ...rest] = expr.clauses;
  if (first?.kind !== 'ForClause' || first.bindings.length !== 1 || !rest.every((c) => c.kind === 'WhereClause')) return undefined;
  const binding = first.bindings[0];
  // the inner binding of a join an outer FLWOR hoisted is translated by the join (join.ts)
  if (hoistedJoin(scope.ctx, binding) || !leafReturnPlan(expr.return, binding, scope)) return undefined;
  const v: VarRef = { kind: 'VarRef', name: binding.name, start: binding.start, end: binding.end };
  const nodes = tempVar(scope, 'nodes');
  const value = rest.length === 0 && binding.type === null ? translateExpr(binding.in, scope, unit) : translateNodes({ ...expr, clauses: [first, ...rest], return: v });
  return `(let ${nodes} := (${value}) return ${forEachNode(nodes, binding, expr.return, scope, unit)})`;
}
