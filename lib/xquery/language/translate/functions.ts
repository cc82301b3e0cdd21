/**
 * Function calls, named function references, inline functions, dynamic calls and arrows.
 *
 * - Names resolve statically (default function namespace fn) and are emitted as EQNames, after
 *   the allow-list of callable.ts: other namespaces are XPST0017.
 * - Calls of declared functions are checked against their arity (XPST0017).
 * - fn functions that XSLT adds to the fn namespace (current(), key(), document(), …) do not
 *   exist in XQuery: XPST0017.
 * - fn:function-lookup keeps to the same allow-list at run time (`guardedLookup`).
 * - fn:transform is disabled (FOXT0004, F&O 3.1 §17.5.4: a query may not compile and run a
 *   stylesheet of its choosing); fn:load-xquery-module is saxon-js's, which has no XQuery
 *   processor and raises FOQM0006.
 * - fn:doc, fn:doc-available and fn:collection go to the engine's DocumentSource functions
 *   (documents/source.ts), fn:uri-collection to the engine's catalog version (functions/db.ts);
 *   calls of fn:codepoints-to-string to the engine's own version (codepoints.ts), which has
 *   no limit on the number of codepoints.
 * - fn:error with a description passes its code and value in an envelope (conditional.ts,
 *   `errorEnvelope`) as the third argument, since saxon-js keeps only the first item of the value
 *   and loses the code's prefix; catch clauses unwrap it. The error's code and message, all an
 *   uncaught error shows, are unchanged.
 * - Focus-dependent calls (`name()`, `position()`, `lang($l)`, …) get the focus from the scope
 *   when it is held in parameters.
 * - fn:format-number reads the decimal formats of the static context (F&O 3.1 §4.7.2), which
 *   only a compiled stylesheet has (even the default one: saxon-js's XPath evaluator answers
 *   FODF1280 "Unknown decimal format Q{}"): a call with two arguments is a call of the runtime
 *   library's (format-number.ts); a query that calls it with a format name or names the function
 *   (`format-number#2`) needs its own stylesheet.
 */
import type { Argument, ArrowExpr, DynamicFunctionCall, EnclosedExpr, EQName, Expr, FunctionCall, InlineFunctionExpr, NamedFunctionRef, Param } from '../syntax';
import { MODULE_NAMESPACES } from '../../module-namespaces';
import { checkAnnotations } from './annotations';
import { errorEnvelope } from './conditional';
import { translateExpr } from './expressions';
import { rewrittenCall } from './call-workarounds';
import { translateFullTextCall } from './ft-calls';
import { translateInspectCall } from './inspect-calls';
import { indexedAggregate } from '../../accelerators/leaf-aggregates/paths-aggregate';
import { rangeCount, rangeOf } from './range-expression';
import { countedCall } from './flwor/join-count';
import { CONTEXT_ARG_FUNCTIONS, CONTEXT_SECOND_ARG_FUNCTIONS } from './focus';
import { CALLABLE_NAMESPACES, isCallableNamespace } from './callable';
import { utilIf } from './util-if';
import { NS, declaredName, displayName, eqname, xmlAttr, xpathError, xpathString, type QName } from './names';
import { functionKey, type Scope } from './scope';
import { translateSequenceType } from './types';
import type { TranslationUnit } from './unit';
import { braced, lexicalQName } from './emit';
import { functionItemCall, functionItemReference, inlineCall } from './function-items';
import { formatNumberCall } from './format-number';

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
 * DocumentSource (documents/source.ts), fn:uri-collection from the store's catalog
 * (functions/db.ts); calls of fn:codepoints-to-string without saxon-js's
 * limit on the number of codepoints (codepoints.ts); fn:transform by refusing
 * (functions/disabled-functions.ts); fn:put by storing into a database (update/put.ts).
 */
const ENGINE_FUNCTIONS: Readonly<Record<string, EngineFunction>> = {
  doc: { name: 'doc', arities: [0, 1], references: true },
  'doc-available': { name: 'doc-available', arities: [0, 1], references: true },
  collection: { name: 'collection', arities: [0, 1], references: true },
  'uri-collection': { name: 'uri-collection', arities: [0, 1], references: true },
  'codepoints-to-string': { name: 'codepoints-to-string', arities: [1], references: false },
  transform: { name: 'transform', arities: [1], references: true },
  put: { name: 'put', arities: [2, 3], references: false },
};

/** The generated function behind `fn:function-lookup#2` (`guardedLookup`). */
const LOOKUP_FUNCTION = `${braced(NS.gen)}function-lookup`;

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
  return RESERVED_LOCAL.has(name.local) && name.uri !== '' ? lexicalQName(unit.prefixFor(name.uri), name.local) : declaredName(name);
}

/** Checks that a function name with `arity` can exist; returns the name to call. */
function resolveCallee(name: QName, arity: number, scope: Scope, offset: number, unit: TranslationUnit, reference = false): string {
  const key = functionNameInXPath(name, unit);
  if (name.uri === NS.fn) {
    if (XSLT_ONLY.has(name.local)) throw scope.error('XPST0017', offset, displayName(name), arity);
    if (name.local === 'function-lookup' && arity === 2) {
      declareLookupFunction(scope, unit);
      return LOOKUP_FUNCTION;
    }
    const engine = Object.hasOwn(ENGINE_FUNCTIONS, name.local) ? ENGINE_FUNCTIONS[name.local] : undefined;
    if (engine && engine.arities.includes(arity) && (engine.references || !reference)) return `${braced(NS.engine)}${engine.name}`;
    return key;
  }
  if (name.uri === NS.xs) {
    if (arity !== 1 || ABSTRACT_CONSTRUCTORS.has(name.local)) throw scope.error('XPST0017', offset, displayName(name), arity);
    return key;
  }
  const declaredSomeArity = [...scope.ctx.functions.values()].some((f) => f.name.uri === name.uri && f.name.local === name.local);
  if (declaredSomeArity && !scope.ctx.functions.has(functionKey(name, arity))) throw scope.error('XPST0017', offset, displayName(name), arity);
  if (!declaredSomeArity && !isCallableNamespace(name.uri)) throw scope.error('XPST0017', offset, displayName(name), arity);
  return key;
}

/**
 * `fn:function-lookup($name, $arity)` under the allow-list (callable.ts): a name the query could
 * not write statically gives the empty sequence, as an unknown function does (F&O 3.1 §16.1.2);
 * fn functions the engine answers give the engine's, fn:function-lookup itself the guarded
 * version. A module function (db:, json:, …) gives the empty sequence too: saxon-js would find it
 * only by its local name, as a built-in function (see moduleFunctionItem). The test runs inline, so a context-dependent function keeps the caller's focus.
 */
function guardedLookup(name: string, arity: string, scope: Scope, unit: TranslationUnit): string {
  const n = `$${braced(NS.vars)}lookup-name.${scope.ctx.nextId()}`;
  const a = `$${braced(NS.vars)}lookup-arity.${scope.ctx.nextId()}`;
  declareLookupFunction(scope, unit);
  return `(let ${n} := ${name}, ${a} := ${arity} return ${lookupTest(n, a, scope)})`;
}

/** The XPath that answers a lookup of QName `$n` with arity `$a`. */
function lookupTest(n: string, a: string, scope: Scope): string {
  const F = braced(NS.fn);
  const list = (items: Iterable<string>): string => `(${[...items].map(xpathString).join(', ')})`;
  const u = `${F}namespace-uri-from-QName(${n})`;
  const l = `${F}local-name-from-QName(${n})`;
  const fn = `${u} eq ${xpathString(NS.fn)}`;
  const declared = `${F}concat("Q{", ${u}, "}", ${l}, "#", ${a})`;
  return `if (${fn} and ${l} eq "function-lookup") then (if (${a} eq 2) then ${LOOKUP_FUNCTION}#2 else ())
    ${engineReferences(l, a, fn)}
    else if ((${u} = ${list([...CALLABLE_NAMESPACES].filter((ns) => !MODULE_URIS.has(ns)))} and not(${fn} and ${l} = ${list(XSLT_ONLY)})) or ${declared} = ${list(scope.ctx.functions.keys())})
    then ${F}function-lookup(${n}, ${a}) else ()`;
}

/**
 * The lookup branches of the fn functions the engine answers: `fn:doc#1` and the like are the
 * engine's, as static references (saxon-js cannot look up extension functions by a computed name).
 */
function engineReferences(local: string, arity: string, isFn: string): string {
  const branches: string[] = [];
  for (const f of Object.values(ENGINE_FUNCTIONS)) {
    if (!f.references) continue;
    for (const n of f.arities) branches.push(`else if (${isFn} and ${local} eq ${xpathString(f.name)} and ${arity} eq ${n}) then ${engineReference(f.name, n)}`);
  }
  return branches.join('\n    ');
}

/** Atomic types without a constructor function (XQuery 3.1 §3.18.5: they are abstract). */
const ABSTRACT_CONSTRUCTORS = new Set(['NOTATION', 'anyAtomicType']);

/** Functions that need the static context of a compiled stylesheet (see the module comment). */
const STYLESHEET_FUNCTIONS = new Set(['format-number']);

function noteStylesheetNeed(name: QName, unit: TranslationUnit): void {
  if (name.uri === NS.fn && STYLESHEET_FUNCTIONS.has(name.local)) unit.requireStylesheet();
}

/** A function item that calls the engine's `name` with `arity` arguments. */
function engineReference(name: string, arity: number): string {
  const ps = Array.from({ length: arity }, (_, i) => `$${braced(NS.vars)}a${i}`);
  return `function(${ps.join(', ')}) { ${braced(NS.engine)}${name}(${ps.length ? ps.join(', ') : '()'}) }`;
}

/** The stylesheet's `Q{gen}function-lookup` (for references to fn:function-lookup#2), once. */
function declareLookupFunction(scope: Scope, unit: TranslationUnit): void {
  const n = `${braced(NS.vars)}lookup-name`;
  const a = `${braced(NS.vars)}lookup-arity`;
  unit.addDeclarationOnce(
    LOOKUP_FUNCTION,
    () => `<xsl:function name="${LOOKUP_FUNCTION}" as="function(*)?">
<xsl:param name="${n}" as="xs:QName"/>
<xsl:param name="${a}" as="xs:integer"/>
<xsl:sequence select="${xmlAttr(lookupTest(`$${n}`, `$${a}`, scope))}"/>
</xsl:function>`,
  );
}

export function translateFunctionCall(expr: FunctionCall, scope: Scope, unit: TranslationUnit): string {
  const name = scope.functionName(expr.name, expr.start);
  const callee = resolveCallee(name, expr.args.length, scope, expr.start, unit);
  const key = functionKey(name, expr.args.length);
  scope.ctx.noteDependency(key);
  const item = scope.ctx.functionItems?.get(key);
  const inline = scope.ctx.inlineFunctions.get(key);
  if (inline !== undefined && expr.args.every((a) => a.kind !== 'ArgumentPlaceholder')) return inlineCall(inline, args(expr.args, scope, unit));
  if (item !== undefined) return functionItemCall(item, args(expr.args, scope, unit));
  if (name.uri === NS.fn && name.local === 'format-number' && expr.args.length === 2 && expr.args.every((a) => a.kind !== 'ArgumentPlaceholder')) {
    const [value, picture] = args(expr.args, scope, unit);
    return formatNumberCall(value, picture, unit);
  }
  noteStylesheetNeed(name, unit);
  if (expr.args.some((arg) => arg.kind === 'ArgumentPlaceholder') && isModuleFunction(name, expr.args.length, scope)) return moduleFunctionItem(expr, scope, unit);
  const answered = translateFullTextCall(name, expr, scope, unit) ?? translateInspectCall(name, expr, scope, unit);
  if (answered !== undefined) return answered;
  const qname = qnameLiteral(name, expr, scope);
  if (qname) return qname;
  const conditional = utilIf(name, expr, scope);
  if (conditional) return translateExpr(conditional, scope, unit);
  const counted = countedCall(expr, scope);
  if (counted !== undefined) return counted;
  const range = name.uri === NS.fn && name.local === 'count' && expr.args.length === 1 ? rangeOf(expr.args[0] as Expr) : undefined;
  if (range) return rangeCount(range, scope, unit);
  const a = args(expr.args, scope, unit);
  const aggregate = name.uri === NS.fn && a.length === 1 ? indexedAggregate(name.local, expr.args[0] as Expr, () => `${callee}(${a[0]})`, scope, unit) : undefined;
  if (aggregate) return aggregate;
  const focus = scope.focus;
  if (name.uri === NS.fn && (focus.kind === 'params' || focus.kind === 'value')) {
    if (a.length === 0 && name.local === 'position') return `(${focus.position})`;
    if (a.length === 0 && name.local === 'last') return `(${focus.last})`;
    if (a.length === 0 && CONTEXT_ARG_FUNCTIONS.has(name.local)) return `${callee}(${focus.item})`;
    if (a.length === 1 && CONTEXT_SECOND_ARG_FUNCTIONS.has(name.local)) return `${callee}(${a[0]}, ${focus.item})`;
  }
  if (callee === LOOKUP_FUNCTION && !a.includes('?')) return guardedLookup(a[0], a[1], scope, unit);
  if (name.uri === NS.fn && name.local === 'collection' && a.length === 0) return `${callee}(())`;
  const rewritten = rewrittenCall(name, callee, expr.args, a, scope);
  if (rewritten) return rewritten;
  if (name.uri === NS.fn && name.local === 'error' && a.length >= 2 && !a.includes('?')) {
    const code = `$${braced(NS.vars)}error-code.${scope.ctx.nextId()}`;
    return `(let ${code} := ${a[0]} return ${callee}(${code}, ${a[1]}, ${errorEnvelope(code, a[2] ?? '()')}))`;
  }
  return `${callee}(${a.join(', ')})`;
}

export function translateNamedFunctionRef(expr: NamedFunctionRef, scope: Scope, unit: TranslationUnit): string {
  const name = scope.functionName(expr.name, expr.start);
  const key = functionKey(name, expr.arity);
  const item = scope.ctx.functionItems?.get(key);
  if (item !== undefined) {
    // the function runs when the item is called, not where it is referred to
    scope.ctx.conditionally(() => scope.ctx.noteDependency(key));
    return functionItemReference(item, expr.arity, scope.ctx.nextId());
  }
  const callee = resolveCallee(name, expr.arity, scope, expr.start, unit, true);
  noteStylesheetNeed(name, unit);
  const focus = scope.focus;
  if (name.uri === NS.fn && (focus.kind === 'params' || focus.kind === 'value')) {
    if (expr.arity === 0 && name.local === 'position') return `function() { ${focus.position} }`;
    if (expr.arity === 0 && name.local === 'last') return `function() { ${focus.last} }`;
    if (expr.arity === 0 && CONTEXT_ARG_FUNCTIONS.has(name.local)) return `function() { ${callee}(${focus.item}) }`;
  }
  if (callee.startsWith(braced(NS.engine))) return engineReference(callee.slice(braced(NS.engine).length), expr.arity);
  if (isModuleFunction(name, expr.arity, scope)) return moduleReference(expr, scope, unit);
  return `${callee}#${expr.arity}`;
}

const MODULE_URIS: ReadonlySet<string> = new Set(Object.values(MODULE_NAMESPACES));

/** A function of one of the modules (db:, json:, …) that the query did not declare itself. */
function isModuleFunction(name: QName, arity: number, scope: Scope): boolean {
  return MODULE_URIS.has(name.uri) && !scope.ctx.functions.has(functionKey(name, arity));
}

/**
 * A named reference to a module function (`db:list#0`) or a partial application of one
 * (`xquery:eval(?)`) is an inline function whose body is the call as written: saxon-js 2.7 calls a
 * function item of an extension function by its local name only, as if it were the built-in
 * function of that name (`db:list#0` ran fn:list, `ft:count(?)` fn:count). Translated as a call,
 * the body gets every rewrite and check a direct call gets. The fixed arguments are evaluated
 * once, where the partial application stands (XQuery 3.1 §3.1.5.1).
 */
function moduleFunctionItem(expr: FunctionCall, scope: Scope, unit: TranslationUnit): string {
  const at = { start: expr.start, end: expr.end };
  // Names without a namespace: the body below refers to nothing else, and the fixed arguments
  // are translated in the caller's scope, so a query's own variables are neither seen nor hidden.
  const name = (i: number): EQName => ({ local: `argument${i}` });
  let inner = scope;
  const fixed: string[] = [];
  const params: Param[] = [];
  const args: Argument[] = expr.args.map((arg, i) => {
    if (arg.kind === 'ArgumentPlaceholder') params.push({ kind: 'Param', name: name(i), type: null, ...at });
    else {
      const value = translateExpr(arg, scope, unit);
      const bound = inner.bind(name(i), expr.start);
      inner = bound.scope;
      fixed.push(`${bound.variable.ref} := ${value}`);
    }
    return { kind: 'VarRef', name: name(i), ...at };
  });
  const body: EnclosedExpr = { kind: 'EnclosedExpr', expr: { ...expr, args }, ...at };
  const fn = translateInlineFunction({ kind: 'InlineFunctionExpr', annotations: [], params, returnType: null, body, ...at }, inner, unit);
  return fixed.length > 0 ? `(let ${fixed.join(', ')} return ${fn})` : fn;
}

function moduleReference(expr: NamedFunctionRef, scope: Scope, unit: TranslationUnit): string {
  const placeholders: Argument[] = Array.from({ length: expr.arity }, () => ({ kind: 'ArgumentPlaceholder', start: expr.start, end: expr.end }));
  return moduleFunctionItem({ kind: 'FunctionCall', name: expr.name, args: placeholders, start: expr.start, end: expr.end }, scope, unit);
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
  if (m && uri === undefined) return xpathError('FONS0004', `No namespace is bound to prefix ${m[1]}.`);
  return `${braced(NS.fn)}QName(${xpathString(uri ?? '')}, ${xpathString(lexical)})`;
}
