/**
 * Function calls, named function references, inline functions, dynamic calls and arrows.
 *
 * - Names resolve statically (default function namespace fn) and are emitted as EQNames.
 * - Calls of declared functions are checked against their arity (XPST0017).
 * - fn functions that XSLT adds to the fn namespace (current(), key(), document(), …) do not
 *   exist in XQuery: XPST0017.
 * - fn:doc, fn:doc-available and fn:collection go to the engine's DocumentSource functions
 *   (runtime/documents.ts), fn:uri-collection to the engine's catalog version (modules/db.ts);
 *   calls of fn:codepoints-to-string to the engine's own version (runtime/strings.ts), which has
 *   no limit on the number of codepoints.
 * - fn:error with a description passes its code and value in an envelope (conditional.ts,
 *   `errorEnvelope`) as the third argument, since saxon-js keeps only the first item of the value
 *   and loses the code's prefix; catch clauses unwrap it. The error's code and message, all an
 *   uncaught error shows, are unchanged.
 * - Focus-dependent calls (`name()`, `position()`, `lang($l)`, …) get the focus from the scope
 *   when it is held in parameters.
 */
import type { Argument, ArrowExpr, DynamicFunctionCall, Expr, FunctionCall, InlineFunctionExpr, NamedFunctionRef } from '../syntax';
import { checkAnnotations } from './annotations';
import { errorEnvelope } from './conditional';
import { translateExpr } from './expressions';
import { rewrittenCall } from './call-workarounds';
import { rangeCount, rangeOf } from './ranges';
import { CONTEXT_ARG_FUNCTIONS, CONTEXT_SECOND_ARG_FUNCTIONS } from './focus';
import { NS, declaredName, displayName, eqname, type QName } from './names';
import type { Scope } from './scope';
import { translateSequenceType } from './types';
import type { TranslationUnit } from './unit';

/** Functions XSLT 3.0 puts in the fn namespace that XQuery 3.1 does not have. */
const XSLT_ONLY = new Set([
  'current', 'current-group', 'current-grouping-key', 'current-merge-group', 'current-merge-key', 'current-output-uri',
  'document', 'element-available', 'function-available', 'key', 'regex-group', 'system-property', 'type-available',
  'unparsed-entity-uri', 'unparsed-entity-public-id', 'accumulator-before', 'accumulator-after', 'copy-of', 'snapshot',
  'stream-available', 'available-system-properties',
]);

interface EngineFunction {
  readonly name: string;
  readonly arities: readonly number[];
  /** Whether `fn:f#n` goes to the engine too; otherwise only static calls do (saxon's function item keeps its signature). */
  readonly references: boolean;
}

/**
 * fn functions the engine answers: fn:doc, fn:doc-available and fn:collection by its
 * DocumentSource (runtime/documents.ts), fn:uri-collection from the store's catalog
 * (modules/db.ts); calls of fn:codepoints-to-string without saxon-js's
 * limit on the number of codepoints (runtime/strings.ts).
 */
const ENGINE_FUNCTIONS: Readonly<Record<string, EngineFunction>> = {
  doc: { name: 'doc', arities: [0, 1], references: true },
  'doc-available': { name: 'doc-available', arities: [0, 1], references: true },
  collection: { name: 'collection', arities: [0, 1], references: true },
  'uri-collection': { name: 'uri-collection', arities: [0, 1], references: true },
  'codepoints-to-string': { name: 'codepoints-to-string', arities: [1], references: false },
};

function args(list: readonly Argument[], scope: Scope, unit: TranslationUnit): string[] {
  return list.map((a) => (a.kind === 'ArgumentPlaceholder' ? '?' : translateExpr(a, scope, unit)));
}

/** Names saxon-js 2.7 refuses as the local part of an EQName function name (`Q{u}function()`). */
const RESERVED_LOCAL = new Set([
  'array', 'attribute', 'comment', 'document-node', 'element', 'empty-sequence', 'function', 'if', 'item', 'map',
  'namespace-node', 'node', 'processing-instruction', 'schema-attribute', 'schema-element', 'switch', 'text', 'typeswitch',
]);

/**
 * How to write a function name in XPath: `prefix:local` for a reserved local part, else the name
 * the declaration uses (names.ts `declaredName`).
 */
export function functionNameInXPath(name: QName, unit: TranslationUnit): string {
  return RESERVED_LOCAL.has(name.local) && name.uri !== '' ? `${unit.prefixFor(name.uri)}:${name.local}` : declaredName(name);
}

/** Checks that a function name with `arity` can exist; returns the name to call. */
function resolveCallee(name: QName, arity: number, scope: Scope, offset: number, unit: TranslationUnit, reference = false): string {
  const key = functionNameInXPath(name, unit);
  if (name.uri === NS.fn) {
    if (XSLT_ONLY.has(name.local)) throw scope.error('XPST0017', offset, displayName(name), arity);
    const engine = Object.hasOwn(ENGINE_FUNCTIONS, name.local) ? ENGINE_FUNCTIONS[name.local] : undefined;
    if (engine && engine.arities.includes(arity) && (engine.references || !reference)) return `Q{${NS.engine}}${engine.name}`;
    return key;
  }
  if (name.uri === NS.xs) {
    if (arity !== 1) throw scope.error('XPST0017', offset, displayName(name), arity);
    return key;
  }
  const declaredSomeArity = [...scope.ctx.functions.values()].some((f) => f.name.uri === name.uri && f.name.local === name.local);
  if (declaredSomeArity && !scope.ctx.functions.has(`${eqname(name)}#${arity}`)) throw scope.error('XPST0017', offset, displayName(name), arity);
  if (name.uri === NS.local && !declaredSomeArity) throw scope.error('XPST0017', offset, displayName(name), arity);
  return key;
}

export function translateFunctionCall(expr: FunctionCall, scope: Scope, unit: TranslationUnit): string {
  const name = scope.functionName(expr.name, expr.start);
  const callee = resolveCallee(name, expr.args.length, scope, expr.start, unit);
  scope.ctx.noteDependency(`${eqname(name)}#${expr.args.length}`);
  const qname = qnameLiteral(name, expr, scope);
  if (qname) return qname;
  const range = name.uri === NS.fn && name.local === 'count' && expr.args.length === 1 ? rangeOf(expr.args[0] as Expr) : undefined;
  if (range) return rangeCount(range, scope, unit);
  const a = args(expr.args, scope, unit);
  const focus = scope.focus;
  if (name.uri === NS.fn && (focus.kind === 'params' || focus.kind === 'value')) {
    if (a.length === 0 && name.local === 'position') return `(${focus.position})`;
    if (a.length === 0 && name.local === 'last') return `(${focus.last})`;
    if (a.length === 0 && CONTEXT_ARG_FUNCTIONS.has(name.local)) return `${callee}(${focus.item})`;
    if (a.length === 1 && CONTEXT_SECOND_ARG_FUNCTIONS.has(name.local)) return `${callee}(${a[0]}, ${focus.item})`;
  }
  if (name.uri === NS.fn && name.local === 'collection' && a.length === 0) return `${callee}(())`;
  const rewritten = rewrittenCall(name, callee, expr.args, a, scope);
  if (rewritten) return rewritten;
  if (name.uri === NS.fn && name.local === 'error' && a.length >= 2 && !a.includes('?')) {
    const code = `$Q{${NS.vars}}error-code.${scope.ctx.nextId()}`;
    return `(let ${code} := ${a[0]} return ${callee}(${code}, ${a[1]}, ${errorEnvelope(code, a[2] ?? '()')}))`;
  }
  return `${callee}(${a.join(', ')})`;
}

export function translateNamedFunctionRef(expr: NamedFunctionRef, scope: Scope, unit: TranslationUnit): string {
  const name = scope.functionName(expr.name, expr.start);
  const callee = resolveCallee(name, expr.arity, scope, expr.start, unit, true);
  const focus = scope.focus;
  if (name.uri === NS.fn && (focus.kind === 'params' || focus.kind === 'value')) {
    if (expr.arity === 0 && name.local === 'position') return `function() { ${focus.position} }`;
    if (expr.arity === 0 && name.local === 'last') return `function() { ${focus.last} }`;
    if (expr.arity === 0 && CONTEXT_ARG_FUNCTIONS.has(name.local)) return `function() { ${callee}(${focus.item}) }`;
  }
  if (callee.startsWith(`Q{${NS.engine}}`)) {
    const ps = Array.from({ length: expr.arity }, (_, i) => `$Q{${NS.vars}}a${i}`);
    return `function(${ps.join(', ')}) { ${callee}(${ps.length ? ps.join(', ') : '()'}) }`;
  }
  return `${callee}#${expr.arity}`;
}

export function translateInlineFunction(expr: InlineFunctionExpr, scope: Scope, unit: TranslationUnit): string {
  checkAnnotations(expr.annotations, 'inline function', scope);
  let inner = scope.withFocus({ kind: 'absent' });
  const seen = new Set<string>();
  const params: string[] = [];
  for (const p of expr.params) {
    const qn = scope.variableName(p.name, p.start);
    if (seen.has(eqname(qn))) throw scope.error('XQST0039', p.start, displayName(qn));
    seen.add(eqname(qn));
    const bound = inner.bind(p.name, p.start);
    inner = bound.scope;
    params.push(`${bound.variable.ref}${p.type ? ` as ${translateSequenceType(p.type, scope)}` : ''}`);
  }
  const ret = expr.returnType ? ` as ${translateSequenceType(expr.returnType, scope)}` : '';
  const body = expr.body.expr ? scope.ctx.conditionally(() => translateExpr(expr.body.expr!, inner, unit)) : '()';
  return `(function(${params.join(', ')})${ret} { ${body} })`;
}

export function translateDynamicCall(expr: DynamicFunctionCall, scope: Scope, unit: TranslationUnit): string {
  return `(${translateExpr(expr.base, scope, unit)})(${args(expr.args, scope, unit).join(', ')})`;
}

/** `E => f(args)` is `f(E, args)`; `E => $f(args)` is `$f(E, args)`. */
export function translateArrow(expr: ArrowExpr, scope: Scope, unit: TranslationUnit): string {
  const fn = expr.function;
  if ('kind' in fn) {
    const call: DynamicFunctionCall = { kind: 'DynamicFunctionCall', base: fn as Expr, args: [expr.expr, ...expr.args], start: expr.start, end: expr.end };
    return translateDynamicCall(call, scope, unit);
  }
  const call: FunctionCall = { kind: 'FunctionCall', name: fn, args: [expr.expr, ...expr.args], start: expr.start, end: expr.end };
  return translateFunctionCall(call, scope, unit);
}

/**
 * `xs:QName("p:l")`: the prefix is resolved against the query's static namespaces here (the
 * stylesheet does not declare them), as `fn:QName(uri, "p:l")`.
 */
function qnameLiteral(name: QName, expr: FunctionCall, scope: Scope): string | null {
  const arg = expr.args[0];
  if (name.uri !== NS.xs || name.local !== 'QName' || expr.args.length !== 1 || arg.kind !== 'StringLiteral') return null;
  const lexical = arg.value.trim();
  const m = /^([^:]+):([^:]+)$/.exec(lexical);
  const uri = m ? scope.namespaceOf(m[1]) : scope.defaultElementNamespace();
  if (m && uri === undefined) return `Q{${NS.fn}}error(Q{${NS.fn}}QName("${NS.err}", "FONS0004"), "No namespace is bound to prefix ${m[1].replace(/"/g, '""')}.")`;
  return `Q{${NS.fn}}QName("${(uri ?? '').replace(/"/g, '""')}", "${lexical.replace(/"/g, '""')}")`;
}
