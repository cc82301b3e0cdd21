/**
 * A FLWOR of one for binding, let and where clauses and a final order by (XQuery 3.1 §3.12.8),
 * sorted without tuple maps:
 *
 *   for $v in E where W order by K1, K2 return R
 *     →  let $tuples := for $v in E return if (W) then [$v, data(K1), data(K2)] else ()
 *        return for $v in lib.order-2($tuples, orders, empty orders, collations) return R
 *
 *   for $v in E let $x := X where W order by K1 return R
 *     →  let $tuples := for $v in E return let $x := X return if (W) then [[$v, $x], data(K1)] else ()
 *        return for $t in lib.order-1($tuples, …) return let $v := $t(1), $x := $t(2) return R
 *
 * The tuple stream has one for variable bound to one item (no `at`, no `allowing empty`), so a
 * tuple is an array of that item (or, with let clauses, of an array of the values of the tuple's
 * variables, in binding order) and its keys, each key computed once in the tuple's scope, as the
 * clause requires. The library function (`orderFunctionText`) sorts plain numeric and string keys
 * in JavaScript (engine:order-tuples, order-tuples.ts); for any other keys it sorts the same
 * arrays with the order by clause's own sort (order.ts: the keys checked and classed,
 * `xsl:perform-sort`, XPTY0004 for incomparable keys), so the keys, the let values and the where
 * clauses are never evaluated twice. R sees the variables bound again to each tuple's values, in
 * the sorted order.
 *
 * Other FLWORs with order by (several for variables, positional or `allowing empty` ones, a let
 * before the for, count, group by, clauses after order by) take the general tuple stream
 * (advanced.ts), whose order by clause (`translateOrderBy`) sorts the same way: each tuple
 * an array of the array of its variables' values and its keys.
 */
import { childNodes } from '../../syntax/walk';
import type { EQName, FLWORExpr, Node, OrderByClause } from '../../syntax';
import { translateExpr } from '../expressions';
import { forBinding } from './flwor';
import { specCollation } from './advanced';
import { emptyGreatest, sortClass, sortFunctionName, sortFunctionText, sortKey } from './order';
import { tempVar, type TupleStream } from './tuples';
import { leafReturnPlan } from '../../../accelerators/leaf-returns/flwor-leaf-returns';
import type { LeafStep } from '../../../accelerators/leaf-columns/leaf-columns';
import { leafStepArgs } from './leaf-step-args';
import { leafOrderPlan, type LeafOrderPlan } from '../../../accelerators/leaf-order/flwor-order-leaves';
import { NS, xmlAttr, xpathString } from '../names';
import type { Scope } from '../scope';
import { yieldsAtomics } from '../atomic-values';
import { checkedValue, translateSequenceType } from '../types';
import type { TranslationUnit } from '../unit';
import { braced } from '../emit';

const ORDER_TUPLES = `${braced(NS.engine)}order-tuples`;
const ORDER_LEAVES = `${braced(NS.engine)}order-leaves`;

/** The FLWOR as XPath, when it has the shape above; otherwise undefined. */
export function translateSortedFor(expr: FLWORExpr, scope: Scope, unit: TranslationUnit): string | undefined {
  const leaves = leafOrderPlan(expr, scope);
  if (leaves) return translateLeafOrder(expr, leaves, scope, unit);
  const clauses = expr.clauses;
  const first = clauses[0];
  const order = clauses[clauses.length - 1];
  if (clauses.length < 2 || first.kind !== 'ForClause' || order.kind !== 'OrderByClause') return undefined;
  if (first.bindings.length !== 1 || first.bindings[0].positionalVar !== null || first.bindings[0].allowingEmpty) return undefined;
  const middle = clauses.slice(1, -1);
  if (!middle.every((c) => c.kind === 'WhereClause' || (c.kind === 'LetClause' && c.bindings.every((b) => !makesClosure(b.value))))) return undefined;
  const binding = first.bindings[0];

  const bound = forBinding(binding, scope, unit);
  let inner = bound.scope;
  // the tuple's variables in binding order (a later one of the same name shadows an earlier one)
  const forVar = inner.lookupVariable(binding.name, binding.start);
  const names: { name: EQName; offset: number; atomic?: boolean }[] = [{ name: binding.name, offset: binding.start, atomic: forVar.atomic }];
  const refs = [forVar.ref];
  // the clauses in their order (static errors are raised in it): each opens where the next goes
  const open: string[] = [];
  const close: string[] = [];
  for (const c of middle) {
    if (c.kind === 'WhereClause') {
      open.push(`if (${translateExpr(c.test, inner, unit)}) then (`);
      close.push(') else ()');
    } else if (c.kind === 'LetClause') {
      for (const b of c.bindings) {
        let value = translateExpr(b.value, inner, unit);
        const named = inner.bind(b.name, b.start, yieldsAtomics(b.value, inner));
        if (b.type) value = checkedValue(value, translateSequenceType(b.type, inner), `$${named.variable.name.local}`);
        open.push(`let ${named.variable.ref} := ${value} return `);
        close.push('');
        inner = named.scope;
        names.push({ name: b.name, offset: b.start, atomic: named.variable.atomic });
        refs.push(named.variable.ref);
      }
    }
  }
  const keys = order.specs.map((s) => `${braced(NS.fn)}data(${translateExpr(s.expr, inner, unit)})`);
  const value = refs.length === 1 ? refs[0] : `[${refs.join(', ')}]`;
  const tuple = `${open.join('')}[${[value, ...keys].join(', ')}]${close.reverse().join('')}`;

  const tuples = tempVar(scope, 'tuples');
  const call = orderCall(order, tuples, scope, unit);

  let head: string;
  let after = scope;
  if (names.length === 1) {
    const rebound = scope.bind(binding.name, binding.start, forVar.atomic);
    head = `for ${rebound.variable.ref} in ${call} return `;
    after = rebound.scope;
  } else {
    const t = tempVar(scope, 't');
    const lets = names.map((v, i) => {
      const rebound = after.bind(v.name, v.offset, v.atomic);
      after = rebound.scope;
      return `${rebound.variable.ref} := ${t}?${i + 1}`;
    });
    head = `for ${t} in ${call} return let ${lets.join(', ')} return `;
  }
  return `(let ${tuples} := (${bound.text}${tuple}) return ${head}(${translateExpr(expr.return, after, unit)}))`;
}

/**
 * A FLWOR whose keys are leaves of its for variable's elements (flwor-order-leaves.ts):
 *
 *   let $nodes := NODES, $sorted := engine:order-leaves($nodes, …)
 *   return for $v in (if (exists($sorted)) then $sorted(1) else lib.order-N(for $v in $nodes return [$v, data(K1), …], …)) return R
 *
 * NODES (the for clause with its let and where clauses, returning `$v`) is evaluated once; the
 * keys are evaluated only when the function declines. When R reads a leaf of `$v`
 * (flwor-leaf-returns.ts), the function answers R's values in order instead of the nodes, and R
 * is evaluated per node only when it declines.
 */
function translateLeafOrder(expr: FLWORExpr, plan: LeafOrderPlan, scope: Scope, unit: TranslationUnit): string {
  const { binding, clause } = plan;
  const nodes = tempVar(scope, 'nodes');
  const sorted = tempVar(scope, 'sorted');
  const atomic = yieldsAtomics(binding.in, scope);
  const tuple = scope.bind(binding.name, binding.start, atomic);
  const keys = clause.specs.map((s) => `${braced(NS.fn)}data(${translateExpr(s.expr, tuple.scope, unit)})`);
  const fallback = orderCall(clause, `(for ${tuple.variable.ref} in ${nodes} return [${[tuple.variable.ref, ...keys].join(', ')}])`, scope, unit);
  const path = (steps: readonly LeafStep[]): string => `(${leafStepArgs(steps).join(', ')})`;
  const strings = (list: readonly string[]): string => `(${list.map(xpathString).join(', ')})`;
  // a return clause reading a leaf of $v: the function answers its values (leaf-returns.ts)
  const returns = leafReturnPlan(expr.return, binding, scope);
  const call =
    `${ORDER_LEAVES}(${nodes}, ${path(plan.keys.flatMap((k) => k.steps))}, (${plan.keys.map((k) => String(k.steps.length)).join(', ')}), ` +
    `${strings(plan.keys.map((k) => k.key))}, ${strings(clause.specs.map((s) => (s.descending ? 'descending' : 'ascending')))}, ` +
    `${strings(clause.specs.map((s) => (emptyGreatest(s, scope) ? 'greatest' : 'least')))}, ` +
    `${returns ? `${path(returns.steps)}, ${xpathString(returns.key)}` : '(), ()'})`;
  const rebound = scope.bind(binding.name, binding.start, atomic);
  const each = (ordered: string): string => `for ${rebound.variable.ref} in ${ordered} return (${translateExpr(expr.return, rebound.scope, unit)})`;
  const exists = `${braced(NS.fn)}exists(${sorted})`;
  const answer = returns ? `if (${exists}) then ${sorted}(1) else (${each(fallback)})` : each(`(if (${exists}) then ${sorted}(1) else ${fallback})`);
  return `(let ${nodes} := (${translateExpr(plan.nodes, scope, unit)}), ${sorted} := ${call} return ${answer})`;
}

/**
 * The order by clause of the general tuple stream (advanced.ts): one array per tuple,
 * `[[value of each tuple variable], data(K1), …]`, sorted by `lib.order-N` as above; the next
 * segment binds the variables again from the sorted inner arrays.
 */
export function translateOrderBy(clause: OrderByClause, stream: TupleStream, unit: TranslationUnit): void {
  const keys = clause.specs.map((s) => `${braced(NS.fn)}data(${translateExpr(s.expr, stream.scope, unit)})`);
  const scope = stream.scope;
  const vars = stream.vars();
  const tuples = stream.finish(`[[${vars.map((v) => v.ref).join(', ')}], ${keys.join(', ')}]`);
  stream.restart(orderCall(clause, tuples, scope, unit), vars, (v) => vars.indexOf(v) + 1);
}

/** XPath answering the first members of the arrays `tuples` (XPath) in the order of `clause` (see `orderFunctionText`). */
function orderCall(clause: OrderByClause, tuples: string, scope: Scope, unit: TranslationUnit): string {
  const n = clause.specs.length;
  unit.addLibraryDeclaration(sortFunctionName(n), sortFunctionText(n));
  unit.addLibraryDeclaration(ORDER_ENTRY, orderEntryText());
  unit.addLibraryDeclaration(orderFunctionName(n), orderFunctionText(n));
  const orders = clause.specs.map((s) => xpathString(s.descending ? 'descending' : 'ascending'));
  const empties = clause.specs.map((s) => xpathString(emptyGreatest(s, scope) ? 'greatest' : 'least'));
  const collations = clause.specs.map((s) => xpathString(specCollation(s.collation, scope, s.start)));
  return `${orderFunctionName(n)}(${tuples}, (${orders.join(', ')}), (${empties.join(', ')}), (${collations.join(', ')}))`;
}

/**
 * Whether `e` may build a function item that closes over the variables in scope (an inline
 * function or a partial application). saxon-js's closures see the variables' slots of the frame
 * they were made in, not their values: a closure kept in a tuple beyond the iteration that made it
 * would see what later iterations or the variables bound after the sort put there. Such let
 * values stay with the general tuple stream.
 */
function makesClosure(e: Node): boolean {
  return e.kind === 'InlineFunctionExpr' || e.kind === 'ArgumentPlaceholder' || childNodes(e).some(makesClosure);
}

/**
 * The function sorting the tuples of a clause with `n` order specs, `Q{gen}lib.order-N($tuples,
 * $orders, $empties, $collations)`: each spec's direction, `least` or `greatest`, and collation
 * as the N-th string of the last three. It answers the tuples' items in order, from
 * engine:order-tuples when it can, else from the clause's own sort (order.ts) over one map
 * per tuple. The text depends on `n` only: it belongs to the runtime library (library.ts).
 */
export function orderFunctionName(n: number): string {
  return `${braced(NS.gen)}lib.order-${n}`;
}

export function orderFunctionText(n: number): string {
  const v = (local: string): string => `$${braced(NS.vars)}${local}`;
  const [tuples, orders, empties, collations, sorted, tuple, m] = ['tuples', 'orders', 'empties', 'collations', 'sorted', 'tuple', 'm'].map(v);
  const maps = `for ${tuple} in ${tuples} return ${ORDER_ENTRY}(${tuple}, ${empties})`;
  const fallback = `for ${m} in ${sortFunctionName(n)}(${maps}, ${orders}, ${collations}) return ${m}("#t")(1)`;
  const body = `let ${sorted} := ${ORDER_TUPLES}(${tuples}, ${orders}, ${empties}, ${collations}) return if (${braced(NS.fn)}exists(${sorted})) then ${sorted}(1) else (${fallback})`;
  return [
    `<xsl:function name="${orderFunctionName(n)}" as="item()*">`,
    `<xsl:param name="${tuples.slice(1)}" as="array(*)*"/>`,
    `<xsl:param name="${orders.slice(1)}" as="xs:string*"/>`,
    `<xsl:param name="${empties.slice(1)}" as="xs:string*"/>`,
    `<xsl:param name="${collations.slice(1)}" as="xs:string*"/>`,
    `<xsl:sequence select="${xmlAttr(body)}"/>`,
    '</xsl:function>',
  ].join('\n');
}

/**
 * `Q{gen}lib.order-entry($tuple, $empties)`: the map the clause's own sort (order.ts
 * `sortFunctionText`) takes for one tuple array: `#t` the array, and per key i its class `#ci`
 * and its value `#oi`, checked as that sort requires.
 */
export const ORDER_ENTRY = `${braced(NS.gen)}lib.order-entry`;

export function orderEntryText(): string {
  const v = (local: string): string => `$${braced(NS.vars)}${local}`;
  const [tuple, empties, i, k] = ['tuple', 'empties', 'i', 'key'].map(v);
  const entries =
    `for ${i} in 1 to ${braced(NS.array)}size(${tuple}) - 1 return let ${k} := ${sortKey(`${tuple}(${i} + 1)`, v('atom'))} return ` +
    `(map{"#c" || ${i}: (${sortClass(k, `${empties}[${i}] eq "greatest"`)})}, map{"#o" || ${i}: ${k}})`;
  return [
    `<xsl:function name="${ORDER_ENTRY}" as="map(*)">`,
    `<xsl:param name="${tuple.slice(1)}" as="array(*)"/>`,
    `<xsl:param name="${empties.slice(1)}" as="xs:string*"/>`,
    `<xsl:sequence select="${xmlAttr(`${braced(NS.map)}merge((map{"#t": ${tuple}}, ${entries}))`)}"/>`,
    '</xsl:function>',
  ].join('\n');
}
