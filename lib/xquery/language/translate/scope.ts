/**
 * The static context of a translation, and the scope chain every translator threads through.
 *
 * For the engineers adding construct families:
 * - A `Scope` is immutable. `bind()` returns a new scope with one more local variable;
 *   `withFocus()` and `withNamespaces()` return new scopes too. Pass the new scope to the
 *   sub-expressions that see the binding, and nothing else.
 * - Every local variable gets a generated, unique name (`Q{urn:xmldb-rest:var}x3`): use
 *   `variable.ref` (`$Q{…}x3`) in XPath and `variable.param` (the name without `$`) in
 *   `xsl:variable`/`xsl:param`/`xsl:for-each-group` bindings. Shadowing needs no care.
 * - `focus` tells how the focus (context item, position, last) is reached at this point:
 *   - `absent`: there is none; emit `.` natively and saxon raises XPDY0002 at run time (the
 *     main template without context, function bodies, inline function bodies);
 *   - `native`: the XPath/XSLT focus is the XQuery focus; emit `.`, `position()`, `last()`;
 *   - `params`: the focus lives in XPath expressions (parameters of a lifted function, or the
 *     context parameter of the stylesheet): `.` → `focus.item`, `position()` →
 *     `focus.position`, `last()` → `focus.last`; a relative path starts at `focus.item`.
 *     `value` is the same with a context that may be a sequence of documents (multi context).
 *   Inside an `xsl:for-each`/`xsl:for-each-group` you emit, switch to `{kind: 'native'}`.
 * - Names: resolve with `elementName`, `attributeName`, `functionName`, `typeName`,
 *   `variableName` (XPST0081 for an unknown prefix, at the XQuery position you pass).
 * - Errors: `scope.error(code, offset, ...args)` builds a catalog error (lib/xquery/static-errors.ts)
 *   positioned in the XQuery source; throw it.
 */
import { staticError, type LocatedQueryError, type StaticErrorCode } from '../../static-errors';
import type { EQName } from '../syntax';
import { isHiddenNamespace } from './callable';
import { LiteralParams } from './literals';
import { NS, displayName, eqname, type QName } from './names';
import { StaticPrefixes } from '../static-prefixes';
import { braced } from './emit';
import type { InlineFunction } from './function-items';
import type { FunctionNames } from '../analysis/function-names';

export type Focus =
  | { readonly kind: 'absent' }
  | { readonly kind: 'native' }
  | { readonly kind: 'params'; readonly item: string; readonly position: string; readonly last: string }
  | { readonly kind: 'value'; readonly item: string; readonly position: string; readonly last: string };

/** A variable visible in a scope. */
export interface Variable {
  readonly name: QName;
  /** The generated (local) or real (global) EQName, without `$`. */
  readonly param: string;
  /** `$` + param: the XPath reference. */
  readonly ref: string;
  readonly global: boolean;
  /** Whether every item of its value is statically known to be atomic (atomic-values.ts). */
  readonly atomic?: boolean;
  /** Whether its value is the context item or documents by its form (accelerators/child-paths/paths-child.ts `documentLike`). */
  readonly documents?: boolean;
}

/** A declared function (prolog `declare function`). */
export interface DeclaredFunction {
  readonly name: QName;
  readonly arity: number;
  readonly updating: boolean;
  readonly isPrivate: boolean;
}

/** The key of variable `name` among the prolog's declarations and references (StaticContext `currentDeclaration`): `$Q{u}l`. */
export function variableKey(name: { readonly uri: string; readonly local: string }): string {
  return `$${eqname(name)}`;
}

/**
 * The key of the function `name` of `arity` among the declared functions (StaticContext
 * `functions`, `functionItems`) and the prolog's declarations and references: `Q{u}l#n`.
 */
export function functionKey(name: { readonly uri: string; readonly local: string }, arity: number): string {
  return `${eqname(name)}#${arity}`;
}

/** Everything static shared by all scopes of one translation. */
export class StaticContext {
  readonly namespaces = new StaticPrefixes();
  defaultElementNamespace = '';
  defaultFunctionNamespace: string = NS.fn;
  boundarySpace: 'strip' | 'preserve' = 'strip';
  constructionMode: 'preserve' | 'strip' = 'preserve';
  copyNamespaces = { preserve: true, inherit: true };
  defaultCollation: string | null = null;
  /** `declare default order empty greatest|least` (spec default: least). */
  defaultEmptyOrder: 'greatest' | 'least' = 'least';
  baseUri: string | null = null;
  readonly globals = new Map<string, Variable>();
  /** Declared functions by `Q{uri}local#arity`. */
  readonly functions = new Map<string, DeclaredFunction>();
  /**
   * When the declared functions are function items of the query's expression
   * (function-items.ts): each one's number, by `Q{uri}local#arity`; null: `xsl:function`s.
   */
  functionItems: Map<string, number> | null = null;
  /** Of those, the ones written out where they are called (function-items.ts `inlineOf`), once their body is translated. */
  readonly inlineFunctions = new Map<string, InlineFunction>();
  /** With function items: the query's uses of function names (analysis/function-names.ts), which `inlineOf` reads. */
  functionUses: FunctionNames | null = null;
  /** Whether try/catch is a call of the runtime library's lib.try (conditional.ts) rather than a lifted xsl:try. */
  tryAsCall = false;
  /** Set when a try/catch was translated as that call. */
  triedAsCall = false;
  /**
   * The query body as written, when only the call tried first for it is wanted
   * (translation.ts `translateFirstCall`): its FLWOR's plain form is then not translated.
   */
  firstOnly: object | null = null;
  /** Set when that FLWOR's plain form was left out. */
  leftPlain = false;
  /** `declare option output:*` values, by parameter name. */
  readonly outputOptions: Record<string, string> = {};
  /**
   * Prolog dependencies (XQuery 3.1 §5.16): the declaration being translated (`$Q{u}l` for a
   * variable, `Q{u}l#n` for a function) and what each one refers to, for the cycle check.
   */
  currentDeclaration: string | null = null;
  readonly dependencies = new Map<string, Set<string>>();
  /** Every reference of each declaration, certain or under a condition (prolog.ts; variable-lets.ts). */
  readonly references = new Map<string, Set<string>>();
  /** The global variable whose initializer is being translated: not in its own scope. */
  declaringVariable: string | null = null;
  /** Literals emitted as stylesheet parameters (literals.ts); none unless the translation chose some. */
  literals = new LiteralParams(new Map());
  /**
   * Whether plain direct element constructors become calls of the runtime library's functions
   * (xpath.ts); false: every constructor builds its node with nested instructions.
   */
  plainConstructors = true;
  /** Set when a plain constructor call builds an element that its parent's call then copies. */
  copiesConstructedElements = false;
  private conditionalDepth = 0;
  private counter = 0;

  constructor(readonly source: string) {}

  /**
   * Translates code that is evaluated only under a condition (an if/switch/typeswitch branch, a
   * catch clause, the body of a function item): its references are not certain dependencies.
   */
  conditionally<T>(translate: () => T): T {
    this.conditionalDepth++;
    try {
      return translate();
    } finally {
      this.conditionalDepth--;
    }
  }

  /**
   * Records that the current prolog declaration refers to `target` (same key syntax): in
   * `references`, and in `dependencies` when on a path that is evaluated whenever the
   * declaration is.
   */
  noteDependency(target: string): void {
    if (this.currentDeclaration === null) return;
    let refs = this.references.get(this.currentDeclaration);
    if (!refs) this.references.set(this.currentDeclaration, (refs = new Set()));
    refs.add(target);
    if (this.conditionalDepth > 0) return;
    let set = this.dependencies.get(this.currentDeclaration);
    if (!set) this.dependencies.set(this.currentDeclaration, (set = new Set()));
    set.add(target);
  }

  /** A fresh number for generated names. */
  nextId(): number {
    return ++this.counter;
  }

  error(code: StaticErrorCode, offset: number, ...args: unknown[]): LocatedQueryError {
    return staticError(code, this.source, offset, ...args);
  }
}

interface VarLink {
  readonly variable: Variable;
  readonly next: VarLink | null;
}

interface NsLink {
  readonly prefix: string | null;
  readonly uri: string;
  readonly next: NsLink | null;
}

export class Scope {
  private constructor(
    readonly ctx: StaticContext,
    readonly focus: Focus,
    private readonly vars: VarLink | null,
    private readonly ns: NsLink | null,
  ) {}

  /** The outermost scope of a translation. */
  static root(ctx: StaticContext, focus: Focus): Scope {
    return new Scope(ctx, focus, null, null);
  }

  /**
   * A new scope with a local variable `name` bound; `offset` positions errors. `atomic`: every
   * item of the variable's value is known to be atomic (atomic-values.ts); `documents`: its value
   * is the context item or documents by its form (Variable `documents`).
   */
  bind(name: EQName, offset: number, atomic = false, documents = false): { scope: Scope; variable: Variable } {
    const qn = this.variableName(name, offset);
    const param = `${braced(NS.vars)}${sanitize(qn.local)}.${this.ctx.nextId()}`;
    const variable: Variable = { name: qn, param, ref: `$${param}`, global: false, ...(atomic ? { atomic } : {}), ...(documents ? { documents } : {}) };
    return { scope: new Scope(this.ctx, this.focus, { variable, next: this.vars }, this.ns), variable };
  }

  /** The variable `name` refers to here; XPST0008 if there is none. */
  lookupVariable(name: EQName, offset: number): Variable {
    const qn = this.resolve(name, offset, '');
    if (isHiddenNamespace(qn.uri)) throw this.error('XPST0008', offset, displayName(qn));
    for (let l = this.vars; l; l = l.next) {
      if (l.variable.name.uri === qn.uri && l.variable.name.local === qn.local) return l.variable;
    }
    const key = eqname(qn);
    const g = key === this.ctx.declaringVariable ? undefined : this.ctx.globals.get(key);
    if (g) {
      this.ctx.noteDependency(variableKey(qn));
      return g;
    }
    throw this.error('XPST0008', offset, qn.prefix ? `${qn.prefix}:${qn.local}` : qn.local);
  }

  /** The visible local variables, innermost first (a shadowed one is left out). */
  locals(): Variable[] {
    const seen = new Set<string>();
    const out: Variable[] = [];
    for (let l = this.vars; l; l = l.next) {
      const key = eqname(l.variable.name);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(l.variable);
    }
    return out;
  }

  /** The same scope with another focus. */
  withFocus(focus: Focus): Scope {
    return new Scope(this.ctx, focus, this.vars, this.ns);
  }

  /** The same scope without local variables (a function body: only globals are visible). */
  withoutLocals(): Scope {
    return new Scope(this.ctx, this.focus, null, this.ns);
  }

  /** Namespace declarations of a direct constructor (prefix null: the default element namespace). */
  withNamespaces(decls: readonly { prefix: string | null; uri: string }[]): Scope {
    let ns = this.ns;
    for (const d of decls) ns = { prefix: d.prefix, uri: d.uri, next: ns };
    return new Scope(this.ctx, this.focus, this.vars, ns);
  }

  /**
   * The namespace declaration attributes of the direct constructors around this point, innermost
   * first, one per prefix (null: the default element namespace); a URI of '' undeclares.
   */
  constructorNamespaces(): { prefix: string | null; uri: string }[] {
    const seen = new Set<string | null>();
    const out: { prefix: string | null; uri: string }[] = [];
    for (let l = this.ns; l; l = l.next) {
      if (seen.has(l.prefix)) continue;
      seen.add(l.prefix);
      out.push({ prefix: l.prefix, uri: l.uri });
    }
    return out;
  }

  /** The URI bound to `prefix`, or undefined. */
  namespaceOf(prefix: string): string | undefined {
    for (let l = this.ns; l; l = l.next) if (l.prefix === prefix) return l.uri;
    return this.ctx.namespaces.get(prefix);
  }

  /** The default element namespace here. */
  defaultElementNamespace(): string {
    for (let l = this.ns; l; l = l.next) if (l.prefix === null) return l.uri;
    return this.ctx.defaultElementNamespace;
  }

  /** Resolves a prefix or throws XPST0081. */
  resolvePrefix(prefix: string, offset: number): string {
    const uri = this.namespaceOf(prefix);
    if (uri === undefined || (uri === '' && prefix !== '')) throw this.error('XPST0081', offset, prefix);
    return uri;
  }

  private resolve(name: EQName, offset: number, unprefixed: string): QName {
    if (name.uri !== undefined) return { uri: name.uri, local: name.local };
    if (name.prefix !== undefined && name.prefix !== '') {
      return { uri: this.resolvePrefix(name.prefix, offset), local: name.local, prefix: name.prefix };
    }
    return { uri: unprefixed, local: name.local };
  }

  /** An element name or element name test (default element namespace applies). */
  elementName(name: EQName, offset: number): QName {
    return this.resolve(name, offset, this.defaultElementNamespace());
  }

  /** A type name (default element namespace applies, as for elements). */
  typeName(name: EQName, offset: number): QName {
    return this.resolve(name, offset, this.defaultElementNamespace());
  }

  /** An attribute name (no namespace without a prefix). */
  attributeName(name: EQName, offset: number): QName {
    return this.resolve(name, offset, '');
  }

  /**
   * A variable name to bind or declare (no namespace without a prefix); XQST0045 in the
   * engine's or saxon-js's namespaces, where the generated variables live (callable.ts).
   */
  variableName(name: EQName, offset: number): QName {
    const qn = this.resolve(name, offset, '');
    if (isHiddenNamespace(qn.uri)) throw this.error('XQST0045', offset, 'Variable', `$${displayName(qn)}`);
    return qn;
  }

  /** A function name (default function namespace applies). */
  functionName(name: EQName, offset: number): QName {
    return this.resolve(name, offset, this.ctx.defaultFunctionNamespace);
  }

  error(code: StaticErrorCode, offset: number, ...args: unknown[]): LocatedQueryError {
    return this.ctx.error(code, offset, ...args);
  }
}

/**
 * A local name made into the readable part of a generated variable name: short, and in ASCII
 * (saxon-js reads no other characters in `Q{uri}local`, see names.ts); the number after it
 * makes the name unique.
 */
function sanitize(local: string): string {
  const ascii = local.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 24);
  return /^[A-Za-z_]/.test(ascii) ? ascii : `_${ascii}`;
}
