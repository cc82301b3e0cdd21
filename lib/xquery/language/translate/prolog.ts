/**
 * The prolog: setters, namespace declarations, options, variables and functions.
 *
 * - Namespace and default namespace declarations change the StaticContext (XQST0033,
 *   XQST0070 for xml/xmlns).
 * - `declare variable $x external` → `xsl:param` named by the variable's EQName (the engine
 *   binds request values to it); with a value → a `let` around the body or an `xsl:variable`
 *   (variable-lets.ts), checked against its type with SequenceType matching. An initializer
 *   sees every global variable but its own (XPST0008).
 * - Cycles (XQDY0054, a dynamic error: XQuery 3.1 §5.16, W3C bug 29590): a variable whose
 *   evaluation is certain to need its own value is reported at compile time, even if the body
 *   never reads it (XQuery initializes every global; saxon would evaluate it lazily, or never).
 *   "Certain" follows references and function calls that are not under a condition (if, switch
 *   and typeswitch branches, catch clauses, function items, named function references); a cycle
 *   through a conditional path is left to saxon's run-time check (XTDE0640 → XQDY0054).
 * - `declare function` → `xsl:function` under the function's real EQName (so `local:f#1` and
 *   `function-name()` work), parameters typed with `as` (XSLT's coercion rules are XQuery's
 *   function conversion rules); or, where nothing can tell and it spares the query its
 *   stylesheet, an item of the map of functions bound around the body (function-items.ts). All
 *   functions are registered before any body is translated.
 * - `declare option output:NAME "v"` is checked (serialization/params.ts) and recorded for the
 *   engine (prolog wins over request).
 * - `declare decimal-format` → `xsl:decimal-format`.
 */
import { applyOptions } from './fulltext';
import { lineColumn, type DecimalFormatDecl, type FunctionDecl, type Prolog, type VarDecl } from '../syntax';
import { CONTEXT_PARAM } from '../../constants';
import { locate } from '../../static-errors';
import { staticUpdateError } from '../../update/update-errors';
import { invalidSerializationParam, isSerializationParam } from '../../serialization/params';
import { reachable } from './variable-lets';
import { isHiddenNamespace } from './callable';
import { translateExpr } from './expressions';
import { checkAnnotations } from './annotations';
import { NS, RESERVED_NAMESPACES, asAttribute, declaredName, displayName, eqname, xmlAttr, type QName } from './names';
import { functionKey, variableKey, type DeclaredFunction, type Focus, type Scope } from './scope';
import { checkedValue, coercedValue, translateSequenceType } from './types';
import { braced } from './emit';
import type { TranslationUnit } from './unit';
import { unsupported } from './unsupported';
import { functionItem, type ItemParam } from './function-items';

/** An external variable as the engine binds it. */
export interface ExternalVariable {
  /** Stylesheet parameter name (the variable's EQName). */
  readonly param: string;
  readonly uri: string;
  readonly local: string;
  /** The declared type (EQName syntax) for casting request strings, if any. */
  readonly type?: string;
  /** No default value: a missing binding is XPDY0002. */
  readonly required: boolean;
  /** XQuery offset of the declaration. */
  readonly offset: number;
  /**
   * For a run as one expression (variable-lets.ts): the variable's value as XPath, bound by a `let`
   * around the body (its default when `bound` says no value was given, converted to its type); undefined when
   * the parameter is the value as it is; null when only the stylesheet parameter can give it.
   */
  readonly value?: string | null;
  /** For a run as one expression: the xs:boolean parameter that says whether a value was given (variables with a default). */
  readonly bound?: string;
}

/** The value of `declare option output:NAME`, checked as the request's are (400 `[SEPM0016]`, at the declaration). */
function checkedOutputOption(name: string, value: string, source: string, offset: number): string {
  const error = invalidSerializationParam(name, value);
  if (error !== undefined) throw locate(error, lineColumn(source, offset));
  return value;
}

/** Translates the prolog; `globalFocus` is the focus of variable initializers. */
export function translateProlog(prolog: Prolog, scope: Scope, unit: TranslationUnit, globalFocus: Focus): PrologDeclarations {
  const ctx = scope.ctx;
  const externals: ExternalVariable[] = [];
  const declaredPrefixes = new Set<string>();
  const imported = new Set<string>();
  const functions: { decl: FunctionDecl; info: DeclaredFunction }[] = [];
  const variables: GlobalValue[] = [];
  let registered = false;
  // functions are registered at the first variable or function declaration (after all
  // namespace declarations, which the grammar puts first): any body may call any function
  for (const d of prolog.decls) {
    switch (d.kind) {
      case 'DefaultNamespaceDecl':
        // XQuery 3.1 §4.14: neither default namespace may be the xml or xmlns namespace
        if (d.uri === NS.xml || d.uri === NS.xmlns) throw ctx.error('XQST0070', d.start, d.uri);
        if (d.target === 'element') ctx.defaultElementNamespace = d.uri;
        else ctx.defaultFunctionNamespace = d.uri;
        break;
      case 'NamespaceDecl':
        if (d.prefix === 'xml' || d.prefix === 'xmlns' || d.uri === NS.xml || d.uri === NS.xmlns) throw ctx.error('XQST0070', d.start, d.prefix);
        if (declaredPrefixes.has(d.prefix)) throw ctx.error('XQST0033', d.start, d.prefix);
        declaredPrefixes.add(d.prefix);
        if (d.uri === '') ctx.namespaces.delete(d.prefix);
        else ctx.namespaces.set(d.prefix, d.uri);
        break;
      case 'BoundarySpaceDecl':
        ctx.boundarySpace = d.mode;
        break;
      case 'ConstructionDecl':
        ctx.constructionMode = d.mode;
        break;
      case 'CopyNamespacesDecl':
        ctx.copyNamespaces = { preserve: d.preserve, inherit: d.inherit };
        break;
      case 'DefaultCollationDecl':
        if (d.uri !== 'http://www.w3.org/2005/xpath-functions/collation/codepoint') throw ctx.error('XMLR0001', d.start, `default collation ${d.uri}`);
        ctx.defaultCollation = d.uri;
        break;
      case 'BaseURIDecl':
        ctx.baseUri = d.uri;
        break;
      case 'EmptyOrderDecl':
        ctx.defaultEmptyOrder = d.order;
        break;
      case 'OrderingModeDecl':
        break;
      case 'RevalidationDecl':
        // XQuery Update 1.0 §2.2.1 / 3.0 §2.3.1: the supported modes are implementation-defined,
        // and an unsupported one is XUST0026. Nothing is ever revalidated here (no schemas), so
        // no mode is supported: even `skip` would promise a choice the engine does not make.
        throw staticUpdateError('XUST0026', ctx.source, d.start, d.mode);
      case 'FTOptionDecl':
        unit.ftOptions = applyOptions(unit.ftOptions, d.options);
        break;
      case 'DecimalFormatDecl':
        unit.addDeclaration(decimalFormat(d, scope), d);
        break;
      case 'SchemaImport':
        throw ctx.error('XMLR0001', d.start, 'schema import');
      case 'ModuleImport':
        if (d.uri === '') throw ctx.error('XQST0088', d.start);
        if (imported.has(d.uri)) throw ctx.error('XQST0047', d.start, d.uri);
        imported.add(d.uri);
        throw ctx.error('XQST0059', d.start, d.uri);
      case 'ContextItemDecl':
        break; // context-item.ts
      case 'OptionDecl': {
        const name = scope.functionName({ ...d.name, prefix: d.name.prefix ?? undefined }, d.start);
        if (d.name.prefix === undefined && d.name.uri === undefined) break; // unprefixed: the XQuery option namespace
        if (name.uri === NS.output) {
          if (!isSerializationParam(name.local) || name.local === 'parameter-document') {
            if (name.local !== 'parameter-document') throw ctx.error('XQST0109', d.start, name.local);
          } else ctx.outputOptions[name.local] = checkedOutputOption(name.local, d.value.trim(), ctx.source, d.start);
        }
        break;
      }
      case 'VarDecl':
        if (!registered) registered = registerAll(prolog, scope, functions);
        declareVariable(d, scope, unit, globalFocus, externals, variables);
        break;
      case 'FunctionDecl':
        if (!registered) registered = registerAll(prolog, scope, functions);
        break;
      default: {
        const never: never = d;
        throw new Error(`prolog: unknown declaration ${(never as { kind: string }).kind}`);
      }
    }
  }
  if (!registered) registerAll(prolog, scope, functions);
  for (const f of functions) {
    ctx.currentDeclaration = functionKey(f.info.name, f.info.arity);
    declareFunction(f.decl, scope, unit);
  }
  ctx.currentDeclaration = null;
  checkVariableCycles(prolog, scope);
  return { externals, globals: variables };
}

/** What the prolog declared: its external variables, and its global variables with a value, to declare after the body. */
export interface PrologDeclarations {
  readonly externals: ExternalVariable[];
  readonly globals: readonly GlobalValue[];
}

/** A global variable with a value, translated: its stylesheet name and its value (XPath). */
export interface GlobalValue {
  readonly key: string;
  readonly decl: VarDecl;
  readonly param: string;
  readonly value: string;
}

/** The xs:boolean parameter that says whether external variable `i` (0-based) was given a value. */
export function externalBound(i: number): string {
  return `${braced(NS.vars)}bound.${i + 1}`;
}

/** XQDY0054 for a global variable whose initializer depends on itself. */
function checkVariableCycles(prolog: Prolog, scope: Scope): void {
  const deps = scope.ctx.dependencies;
  for (const d of prolog.decls) {
    if (d.kind !== 'VarDecl') continue;
    const name = scope.variableName(d.name, d.start);
    const self = variableKey(name);
    if (reachable(deps, self).has(self)) throw scope.error('XQDY0054', d.start, displayName(name));
  }
}

/**
 * Registers every function and global variable of the prolog (XQuery 3.1 lets any
 * initializer or body refer to any of them; circularity is XQDY0054 at run time).
 */
function registerAll(prolog: Prolog, scope: Scope, out: { decl: FunctionDecl; info: DeclaredFunction }[]): true {
  for (const d of prolog.decls) {
    if (d.kind !== 'VarDecl') continue;
    checkAnnotations(d.annotations, 'variable', scope);
    const name = scope.variableName(d.name, d.start);
    const key = eqname(name);
    if (scope.ctx.globals.has(key)) throw scope.error('XQST0049', d.start, displayName(name));
    const param = declaredName(name);
    scope.ctx.globals.set(key, { name, param, ref: `$${param}`, global: true });
  }
  registerFunctions(prolog, scope, out);
  return true;
}

function registerFunctions(prolog: Prolog, scope: Scope, out: { decl: FunctionDecl; info: DeclaredFunction }[]): void {
  for (const d of prolog.decls) {
    if (d.kind !== 'FunctionDecl') continue;
    const name = scope.functionName(d.name, d.start);
    if (name.uri === '') throw scope.error('XQST0060', d.start, displayName(name));
    if (RESERVED_NAMESPACES.has(name.uri) || isHiddenNamespace(name.uri)) throw scope.error('XQST0045', d.start, 'Function', displayName(name));
    checkAnnotations(d.annotations, 'function', scope);
    const key = functionKey(name, d.params.length);
    if (scope.ctx.functions.has(key)) throw scope.error('XQST0034', d.start, displayName(name), d.params.length);
    const names = (a: { name: { prefix?: string; uri?: string; local: string } }): string => eqname(scope.variableName(a.name, d.start));
    const isPrivate = d.annotations.some((a) => a.name.local === 'private');
    const info: DeclaredFunction = { name, arity: d.params.length, updating: d.annotations.some((a) => a.name.local === 'updating'), isPrivate };
    const seen = new Set<string>();
    for (const p of d.params) {
      if (seen.has(names(p))) throw scope.error('XQST0039', p.start, p.name.local);
      seen.add(names(p));
    }
    scope.ctx.functions.set(key, info);
    scope.ctx.functionItems?.set(key, scope.ctx.functionItems.size);
    out.push({ decl: d, info });
  }
}

function declareVariable(d: VarDecl, scope: Scope, unit: TranslationUnit, focus: Focus, externals: ExternalVariable[], variables: GlobalValue[]): void {
  const name = scope.variableName(d.name, d.start);
  scope.ctx.currentDeclaration = variableKey(name);
  scope.ctx.declaringVariable = eqname(name);
  try {
    translateVariable(d, name, scope, unit, focus, externals, variables);
  } finally {
    scope.ctx.currentDeclaration = null;
    scope.ctx.declaringVariable = null;
  }
}

function translateVariable(
  d: VarDecl,
  name: QName,
  scope: Scope,
  unit: TranslationUnit,
  focus: Focus,
  externals: ExternalVariable[],
  variables: GlobalValue[],
): void {
  const type = d.type ? translateSequenceType(d.type, scope) : undefined;
  const init = scope.withFocus(focus);
  const as = type ? ` as="${asAttribute(type)}"` : '';
  if (d.external) {
    const fallback = d.value ? translateExpr(d.value, init, unit) : undefined;
    const select = fallback !== undefined ? ` select="${xmlAttr(fallback)}"` : ' required="yes"';
    const param = declaredName(name);
    unit.addParam(`<xsl:param name="${xmlAttr(param)}"${as}${select}/>`, d);
    const bound = fallback !== undefined ? externalBound(externals.length) : undefined;
    const given = bound !== undefined ? `(if ($${bound}) then $${param} else ${fallback})` : `$${param}`;
    const value = d.type ? (coercedValue(given, d.type, type!, `$${displayName(name)}`, scope) ?? null) : bound !== undefined ? given : undefined;
    externals.push({ param, uri: name.uri, local: name.local, type, required: !d.value, offset: d.start, value, ...(bound !== undefined ? { bound } : {}) });
  } else {
    let value = translateExpr(d.value!, init, unit);
    if (type) value = checkedValue(value, type, `$${displayName(name)}`);
    variables.push({ key: variableKey(name), decl: d, param: declaredName(name), value });
  }
}

function declareFunction(d: FunctionDecl, scope: Scope, unit: TranslationUnit): void {
  const name = scope.functionName(d.name, d.start);
  if (!d.body) throw unsupported(scope, d, `external function ${displayName(name)}`);
  let inner = scope.withoutLocals().withFocus({ kind: 'absent' });
  const params: ItemParam[] = [];
  for (const p of d.params) {
    const bound = inner.bind(p.name, p.start);
    inner = bound.scope;
    params.push({ ref: bound.variable.ref, param: bound.variable.param, name: bound.variable.name, type: p.type ? translateSequenceType(p.type, scope) : undefined });
  }
  const returnType = d.returnType ? translateSequenceType(d.returnType, scope) : undefined;
  const body = d.body.expr ? translateExpr(d.body.expr, inner, unit) : '()';
  const key = functionKey(name, d.params.length);
  const item = scope.ctx.functionItems?.get(key);
  if (item !== undefined) {
    const declared = functionItem(item, d, name, params, returnType, body, scope);
    unit.addFunctionItem(declared.item);
    if (declared.inline) scope.ctx.inlineFunctions.set(key, declared.inline);
    return;
  }
  const as = returnType ? ` as="${asAttribute(returnType)}"` : '';
  const xslParams = params.map((p) => `<xsl:param name="${xmlAttr(p.param)}"${p.type ? ` as="${asAttribute(p.type)}"` : ''}/>`);
  const mark = unit.marker(d.body.expr ?? d.body);
  unit.addDeclaration(
    `<xsl:function name="${xmlAttr(declaredName(name))}"${as} visibility="public">\n${xslParams.join('\n')}\n${mark}<xsl:sequence select="${xmlAttr(body)}"/>\n</xsl:function>`,
    d,
  );
}

function decimalFormat(d: DecimalFormatDecl, scope: Scope): string {
  const name = d.name ? ` name="${xmlAttr(eqname(scope.variableName(d.name, d.start)))}"` : '';
  const props = d.properties.map((p) => ` ${p.name}="${xmlAttr(p.value)}"`).join('');
  return `<xsl:decimal-format${name}${props}/>`;
}

/** The stylesheet parameter of the context documents (runtime's CONTEXT_PARAM). */
export { CONTEXT_PARAM };
