/**
 * XQuery Update Facility 3.0 expressions → XPath calls of the update extension functions
 * (functions/update-primitives.ts). Every updating expression evaluates to the sequence of its pending
 * updates (pending-update maps, update/primitives.ts), so FLWOR, conditionals, sequences and
 * function calls combine them without further help; the static rules (XUST0001, XUST0002)
 * are checked before translation by analysis/updating.ts.
 *
 * - `insert nodes S into|as first into|as last into|before|after T` → `insert("into", S, T)`
 * - `delete nodes T` → `delete(T)`; `replace node T with R` → `replace-node(T, R)`
 * - `replace value of node T with V` → `replace-value(T, string-join(data(V), " "))`
 * - `rename node T as N` → `rename(T, N, map{prefix: uri}, default-element-ns)`; a literal
 *   `"p:l"` is resolved here (constructor namespace declarations included)
 * - `copy $a := A, $b := B modify M return R` →
 *     `let $a := copy(A), $b := copy(B), $pul := M, $done := modify($pul, ($a, $b)),
 *          $a' := $done[1], $b' := $done[2] return R'`
 *   (R' sees `$a`/`$b` as the updated copies; it depends on `modify`'s result, so the
 *   updates happen before it is evaluated)
 * - `E transform with { M }` → for each node of E, the same with the copy as the focus of M
 * - `invoke updating $f(args)` → a dynamic call; `update:output($v)` → `output($v)`
 */
import type { CopyModifyExpr, Expr, FunctionCall, TransformWithExpr } from '../syntax';
import { UPDATE_NS } from '../../update/primitives';
import { functionPrefixUri, UPDATE_MODULE_NS } from '../../module-namespaces';
import { translateExpr } from './expressions';
import { NS, xpathString } from './names';
import type { Scope } from './scope';
import type { TranslationUnit } from './unit';
import { braced } from './emit';

export type UpdateExpr = Extract<
  Expr,
  { kind: 'InsertExpr' | 'DeleteExpr' | 'ReplaceExpr' | 'RenameExpr' | 'CopyModifyExpr' | 'TransformWithExpr' | 'UpdatingFunctionCall' }
>;

const U = (local: string): string => `${braced(UPDATE_NS)}${local}`;
const FN = (local: string): string => `${braced(NS.fn)}${local}`;

export function translateUpdate(expr: UpdateExpr, scope: Scope, unit: TranslationUnit): string {
  const t = (e: Expr): string => `(${translateExpr(e, scope, unit)})`;
  switch (expr.kind) {
    case 'InsertExpr':
      return `${U('insert')}(${xpathString(expr.position)}, ${t(expr.source)}, ${t(expr.target)})`;
    case 'DeleteExpr':
      return `${U('delete')}(${t(expr.target)})`;
    case 'ReplaceExpr':
      if (expr.valueOf) return `${U('replace-value')}(${t(expr.target)}, ${FN('string-join')}(${FN('data')}(${t(expr.with)}), " "))`;
      return `${U('replace-node')}(${t(expr.target)}, ${t(expr.with)})`;
    case 'RenameExpr':
      return `${U('rename')}(${t(expr.target)}, ${newName(expr.newName, scope, unit)}, ${namespaceMap(scope)}, ${xpathString(scope.defaultElementNamespace())})`;
    case 'CopyModifyExpr':
      return copyModify(expr, scope, unit);
    case 'TransformWithExpr':
      return transformWith(expr, scope, unit);
    case 'UpdatingFunctionCall':
      return `(${translateExpr(expr.function, scope, unit)})(${expr.args.map((a) => translateExpr(a, scope, unit)).join(', ')})`;
  }
}

/** A literal `"p:local"` resolved against the namespaces in scope here (else left to run time). */
function newName(e: Expr, scope: Scope, unit: TranslationUnit): string {
  if (e.kind === 'StringLiteral') {
    const m = /^\s*([^:\s]+):([^:\s]+)\s*$/.exec(e.value);
    if (m && m[1] !== 'xml') {
      const uri = scope.namespaceOf(m[1]);
      if (uri) return `${FN('QName')}(${xpathString(uri)}, ${xpathString(`${m[1]}:${m[2]}`)})`;
    }
  }
  // XQUF §2.4.4: the new name expression is atomized (a node gives its string value)
  return `${FN('data')}((${translateExpr(e, scope, unit)}))`;
}

/** The query's statically known prefixes, for names given as strings at run time. */
function namespaceMap(scope: Scope): string {
  const entries = [...scope.ctx.namespaces].filter(([p, u]) => p !== 'xml' && u !== '');
  return `map{${entries.map(([p, u]) => `${xpathString(p)}: ${xpathString(u)}`).join(', ')}}`;
}

function tempVar(scope: Scope, what: string): string {
  return `$${braced(NS.vars)}${what}.${scope.ctx.nextId()}`;
}

function copyModify(expr: CopyModifyExpr, scope: Scope, unit: TranslationUnit): string {
  const lets: string[] = [];
  const copies: string[] = [];
  let inner = scope;
  for (const b of expr.bindings) {
    const source = translateExpr(b.value, inner, unit);
    const bound = inner.bind(b.name, b.start);
    inner = bound.scope;
    lets.push(`${bound.variable.ref} := ${U('copy')}((${source}))`);
    copies.push(bound.variable.ref);
  }
  const pul = tempVar(scope, 'pul');
  const done = tempVar(scope, 'modified');
  lets.push(`${pul} := (${translateExpr(expr.modify, inner, unit)})`);
  lets.push(`${done} := ${U('modify')}(${pul}, (${copies.join(', ')}))`);
  let after = scope;
  expr.bindings.forEach((b, i) => {
    const bound = after.bind(b.name, b.start);
    after = bound.scope;
    lets.push(`${bound.variable.ref} := ${done}[${i + 1}]`);
  });
  return `(let ${lets.join(', ')} return (${translateExpr(expr.return, after, unit)}))`;
}

function transformWith(expr: TransformWithExpr, scope: Scope, unit: TranslationUnit): string {
  const source = translateExpr(expr.expr, scope, unit);
  const item = tempVar(scope, 'tw');
  const copy = tempVar(scope, 'copy');
  const pul = tempVar(scope, 'pul');
  if (!expr.modify) return `(for ${item} in (${source}) return ${U('copy')}(${item}))`;
  const modify = translateExpr(expr.modify, scope.withFocus({ kind: 'params', item: copy, position: '1', last: '1' }), unit);
  return `(for ${item} in (${source}) return (let ${copy} := ${U('copy')}(${item}), ${pul} := (${modify}) return ${U('modify')}(${pul}, ${copy})))`;
}

/** Whether a static call is a function of BaseX's Update Module (the `update` prefix is predeclared there). */
export function isUpdateModuleCall(expr: FunctionCall, scope: Scope): boolean {
  return updateModuleUri(expr, scope) === UPDATE_MODULE_NS;
}

function updateModuleUri(expr: FunctionCall, scope: Scope): string | undefined {
  if (expr.name.uri !== undefined) return expr.name.uri;
  if (expr.name.prefix === undefined || expr.name.prefix === '') return undefined;
  return functionPrefixUri(expr.name.prefix, scope.namespaceOf(expr.name.prefix));
}

/** `update:output($items)`; other Update Module functions are unknown (XPST0017). */
export function translateUpdateModuleCall(expr: FunctionCall, scope: Scope, unit: TranslationUnit): string {
  const local = expr.name.local;
  if (local === 'output' && expr.args.length === 1 && expr.args[0].kind !== 'ArgumentPlaceholder') {
    return `${U('output')}((${translateExpr(expr.args[0], scope, unit)}))`;
  }
  throw scope.error('XPST0017', expr.start, `update:${local}`, expr.args.length);
}
