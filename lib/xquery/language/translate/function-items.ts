/**
 * Declared functions as function items of the query's one expression, so that a query that
 * declares functions can still run without a stylesheet of its own (translation.ts): on the XPath
 * evaluator or the runtime library, where a never-seen query waits for no XSLT compilation.
 *
 * Every declared function becomes an inline function (XQuery 3.1 §3.1.7) with the same parameter
 * and return types (an inline function's call applies the function conversion rules a declared
 * function's does, §3.1.5.2), the same absent focus, and one more first parameter: the map of
 * all of them, FUNCTIONS_VAR, through which bodies call each other and themselves (a `let` cannot
 * refer to itself). The map is bound around the query body after the global variables, or before
 * them when their initializers call the functions and no function reads a global (unit.ts
 * `withGlobals`); a call `local:f($a)` becomes `$F(n)($F, $a)`, `n` the function's number.
 * Numbers, not names, key the map: no text of the query reaches the generated code. A function
 * whose body calls no declared function and uses no focus is moreover written out at each call
 * translated after it (`inlineOf`, `inlineCall`): its arguments bound to its parameters
 * around its body, conversions and checks included, as the item would run them.
 *
 * Only where nothing can tell the difference (`functionsAsItems`): a named reference or a
 * `function-lookup` would give a function item whose name (`function-name`) and arity show
 * (but for a named reference that a built-in higher-order function only calls,
 * analysis/function-item-calls.ts `calledArgument`:
 * it becomes an inline function that calls the item, `functionItemReference`), the
 * inspect module lists declared functions by name, and an annotation other than `%public`,
 * `%private` or `%updating` (`%simple`, an implementation's own) keeps its declaration. Typed parameters and
 * results are converted in the item's body (`itemSignature` below), which reports a wrong
 * value against the declared function; a function, map or array type, converted by function
 * coercion, keeps the `xsl:function`, whose errors name the function too. A function that reads
 * a global variable while another global's initializer calls a function, or a call from an
 * external variable's default or the context item declaration (bound outside the globals), keeps
 * them as well. (Globals that stay `xsl:variable`s make the query's stylesheet, which translation.ts
 * then translates with `xsl:function`s.)
 */
import { MODULE_NAMESPACES } from '../../module-namespaces';
import { functionNames } from '../analysis/function-names';
import { calledArgument } from '../analysis/function-item-calls';
import { someNode, type FunctionDecl, type MainModule, type Node, type VarDecl } from '../syntax';
import { NS, displayName, type QName } from './names';
import { coercedAsFunction, coercedValue } from './types';
import type { Scope } from './scope';
import { braced } from './emit';
import { needsFocus } from './focus';

/** The variable (and first parameter of every declared function) holding the map of the declared functions. */
export const FUNCTIONS_VAR = `${braced(NS.vars)}functions`;

/** The annotations a declared function item may have: its visibility, and `%updating` (its pending updates are items of its result, as an `xsl:function`'s). */
const ITEM_ANNOTATIONS = new Set(['public', 'private', 'updating']);

/**
 * Whether the declared functions of `module` can be function items of its expression (see above),
 * and whether their map is then bound before the global variables or after them.
 */
export function functionsAsItems(module: MainModule): 'before-globals' | 'after-globals' | undefined {
  const functions = module.prolog.decls.filter((d) => d.kind === 'FunctionDecl');
  if (functions.length === 0) return undefined;
  // unprefixed annotations are in the XQuery namespace (annotations.ts)
  const plain = (f: (typeof functions)[number]): boolean =>
    f.body !== null &&
    f.annotations.every((a) => a.name.prefix === undefined && a.name.uri === undefined && ITEM_ANNOTATIONS.has(a.name.local)) &&
    [f.returnType, ...f.params.map((p) => p.type)].every((t) => t === null || !coercedAsFunction(t));
  if (!functions.every(plain)) return undefined;
  const names = functionNames(module);
  /** The named references that a higher-order function only calls (`calledArgument`). */
  const called = new Set<Node>();
  some([module.body, ...module.prolog.decls], (node) => {
    const use = names.useOf(node);
    const at = use?.args === undefined ? undefined : calledArgument(use.uri, use.local);
    const arg = at === undefined ? undefined : use?.args?.[at];
    if (arg?.kind === 'NamedFunctionRef') called.add(arg);
    return false;
  });
  /** Whether a part of the query shows the declared functions as named items, or reaches them by name. */
  const reflects = (node: Node): boolean => {
    const use = names.useOf(node);
    if (use === undefined) return false;
    if (use.declared && node.kind === 'NamedFunctionRef') return !called.has(node);
    return (use.uri === NS.fn && use.local === 'function-lookup') || use.uri === MODULE_NAMESPACES.inspect;
  };
  const callsDeclared = (node: Node): boolean => names.useOf(node)?.declared === true;
  if (some([module.body, ...module.prolog.decls], reflects)) return undefined;
  const isGlobal = (d: Node): d is VarDecl => d.kind === 'VarDecl' && !d.external;
  const globals = module.prolog.decls.filter(isGlobal);
  const outside = module.prolog.decls.filter((d) => d.kind !== 'FunctionDecl' && !isGlobal(d));
  if (some(outside, callsDeclared)) return undefined;
  if (!some(globals, callsDeclared)) return 'after-globals';
  // the globals need the map: no function may need a global (by local name, whatever its prefix)
  const globalNames = new Set(globals.map((g) => g.name.local));
  const readsGlobal = (node: Node): boolean => node.kind === 'VarRef' && globalNames.has(node.name.local);
  return some(functions, readsGlobal) ? undefined : 'before-globals';
}

/** Whether `test` holds for a node of the trees under `roots`. */
function some(roots: readonly Node[], test: (node: Node) => boolean): boolean {
  return roots.some((root) => someNode(root, test));
}

/**
 * The inline function of declared function `d`, number `index` (an entry of the map), from its
 * translated parameters and body; and how its calls are written out where they may be
 * (`inlineOf`), from the same signature.
 */
export function functionItem(
  index: number,
  d: FunctionDecl,
  name: QName,
  params: readonly ItemParam[],
  returnType: string | undefined,
  body: string,
  scope: Scope,
): { readonly item: string; readonly inline: InlineFunction | undefined } {
  const f = itemSignature(d, name, params, returnType, body, scope);
  const as = f.returnType === undefined ? '' : ` as ${f.returnType}`;
  return { item: `${index}: function(${[`$${FUNCTIONS_VAR}`, ...f.params].join(', ')})${as} { ${f.body} }`, inline: inlineOf(d, params, f, scope) };
}

/** A declared function's parameter: its reference and stylesheet name, its name as written, its type (XPath). */
export interface ItemParam {
  readonly ref: string;
  readonly param: string;
  readonly name: QName;
  readonly type?: string;
}

/** A declared function's item: its parameters (typed ones `$p as T`), its result type when the item's signature converts it, and its body. */
interface ItemSignature {
  readonly params: readonly string[];
  readonly returnType?: string;
  readonly body: string;
}

/**
 * The parameters and body of a declared function as a function item (see above). A typed
 * parameter or result is converted and checked in the body (types.ts `coercedValue`), so that a
 * value of the wrong type is reported against the function and parameter as declared, not
 * against the item's signature, which has the map of functions as one more parameter; a function,
 * map or array type keeps saxon-js's conversion of the item's signature.
 */
function itemSignature(
  d: FunctionDecl,
  name: QName,
  params: readonly ItemParam[],
  returnType: string | undefined,
  body: string,
  scope: Scope,
): ItemSignature {
  const fn = `${displayName(name)}#${d.params.length}`;
  const signature: string[] = [];
  const lets: string[] = [];
  params.forEach((p, i) => {
    const declared = d.params[i].type;
    const converted = p.type !== undefined && declared ? coercedValue(p.ref, declared, p.type, `Argument $${displayName(p.name)} of ${fn}`, scope) : undefined;
    if (converted !== undefined) lets.push(`${p.ref} := ${converted}`);
    signature.push(p.type !== undefined && converted === undefined ? `${p.ref} as ${p.type}` : p.ref);
  });
  const result = returnType !== undefined && d.returnType ? coercedValue(`(${body})`, d.returnType, returnType, `The result of ${fn}`, scope) : undefined;
  const inner = result ?? body;
  return {
    params: signature,
    ...(returnType !== undefined && result === undefined ? { returnType } : {}),
    body: lets.length > 0 ? `let ${lets.join(', ')} return (${inner})` : inner,
  };
}

/**
 * A declared function written out where it is called: its parameters' references and its body as
 * a function item has it (conversions included). `inlineCall` binds the arguments to the
 * parameters with a `let` around the body, which saves saxon-js's dynamic call (a context and an
 * application per call: most of a call's time when the body is small).
 */
export interface InlineFunction {
  readonly refs: readonly string[];
  readonly body: string;
}

/** Longest body written out at each call (a longer one is called: its text would be repeated per call). */
const INLINE_BODY_CHARS = 2000;

/**
 * `d` as an InlineFunction, from its item's signature `f`, where a call and its body written out
 * cannot differ: the body uses no declared function by name (no call, arrow or reference: so no
 * recursion, and no map of functions is needed), nor `function-lookup`, and no focus (a
 * function's is absent, a call site's may not be: `.` must stay XPDY0002); it has no annotation
 * but its visibility, and each typed parameter and its result are converted in the body (none by
 * the item's signature).
 */
function inlineOf(d: FunctionDecl, params: readonly ItemParam[], f: ItemSignature, scope: Scope): InlineFunction | undefined {
  const expr = d.body?.expr;
  const uses = scope.ctx.functionUses;
  if (!expr || !uses || d.annotations.some((a) => a.name.local === 'updating') || needsFocus(expr)) return undefined;
  const named = (node: Node): boolean => {
    const use = uses.useOf(node);
    return use !== undefined && (use.declared || (use.uri === NS.fn && use.local === 'function-lookup'));
  };
  if (someNode(expr, named)) return undefined;
  if (f.returnType !== undefined || f.params.some((p, i) => p !== params[i].ref) || f.body.length > INLINE_BODY_CHARS) return undefined;
  return { refs: f.params, body: f.body };
}

/** A call of `f` written out with `args` (XPath, no placeholder): its parameters bound to them around its body. */
export function inlineCall(f: InlineFunction, args: readonly string[]): string {
  if (f.refs.length === 0) return `(${f.body})`;
  return `(let ${f.refs.map((ref, i) => `${ref} := (${args[i]})`).join(', ')} return (${f.body}))`;
}

/** A call of declared function number `index` with `args` (XPath, `?` for a placeholder). */
export function functionItemCall(index: number, args: readonly string[]): string {
  return `$${FUNCTIONS_VAR}(${index})(${[`$${FUNCTIONS_VAR}`, ...args].join(', ')})`;
}

/**
 * A named reference to the item of declared function `index` (see the file comment): an inline
 * function of `arity` parameters, named `refID.N` so that they meet no other name, that calls it.
 */
export function functionItemReference(index: number, arity: number, id: number): string {
  const params = Array.from({ length: arity }, (_, k) => `$${braced(NS.vars)}ref${id}.${k + 1}`);
  return `function(${params.join(', ')}) { ${functionItemCall(index, params)} }`;
}

/** The map of the declared functions' items, by their entries. */
export function functionsMap(entries: readonly string[]): string {
  return `map { ${entries.join(', ')} }`;
}
