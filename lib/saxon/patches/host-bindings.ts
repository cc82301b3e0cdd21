/**
 * Runtime patch (saxon-js 2.7.0), the engine wall of the query sandbox: saxon-js's bindings to
 * host JavaScript are taken out of its tables, so that code which bypasses the translator and
 * the stylesheet guard (raw XPath, a stylesheet of a query's choosing, a SEF tree) finds nothing
 * to call. saxon-js 2.7.0 reaches the host through these, and only these (SaxonJS2N.js, and
 * saxonica.com/saxonjs "Extensibility"):
 *
 * - the `ixsl:` functions (`http://saxonica.com/ns/interactiveXSLT`): apply, call, contains,
 *   eval, event, get, location, page, query-params, source, style, window;
 * - every function in `http://saxonica.com/ns/globalJS` (`js:`), which the compiler turns into
 *   `ixsl:call(ixsl:window(), name, args)`;
 * - the `ixsl:` instructions, compiled to calls of the same name: ixsl:set-property,
 *   ixsl:remove-property, ixsl:set-attribute, ixsl:remove-attribute, ixsl:set-style,
 *   ixsl:schedule-action (2.7.0 has no ixsl:promise: it is a literal result element there);
 * - fn:transform, which compiles a stylesheet of the caller's choosing and runs a SEF text
 *   (`package-text`) that no compiler has seen.
 *
 * Each table is changed where saxon-js consults it:
 * 1. Function signatures: every static lookup (XPath and XSLT compilation, named function
 *    references, fn:function-lookup) goes through `XPath.getFnSignature`; it answers nothing for
 *    the names above, so a call is XPST0017 and a lookup is the empty sequence.
 * 2. `function-available` reads the platform's `functions` resource: the entries go.
 * 3. The instructions: the XSLT compiler (the platform's `compiler` resource, a SEF package)
 *    turns each into a call in its mode `sef`; those six rules raise XTSE0010 instead.
 * 4. Run time: calls in compiled trees go through one dispatcher, which sends
 *    `http://saxonica.com/ns/interactiveXSLT` to the host bindings by comparing with the
 *    namespace constant `NsConst.Yc`; the compiler recognises `js:` names by `NsConst.mi`. Both
 *    constants become an object that equals no namespace string, so a tree built by hand finds
 *    "Unknown function namespace" (SXJS0003) there too.
 * Checked first (another saxon-js version throws), applied once per thread, idempotent. Query
 * workers apply it before anything is compiled (apply.ts `applyQueryPatches`). The main thread
 * keeps the host application's saxon-js as shipped: it evaluates no query text, only the fixed
 * expressions of lib/saxon/xpath-parse.ts.
 */
import { saxon } from '..';
import type { SefTree, XdmAtomic } from '../types';

export const INTERACTIVE_XSLT_NS = 'http://saxonica.com/ns/interactiveXSLT';
export const GLOBAL_JS_NS = 'http://saxonica.com/ns/globalJS';
const FN_NS = 'http://www.w3.org/2005/xpath-functions';

/** The ixsl: functions of saxon-js 2.7.0 (its signature table), all removed. */
const IXSL_FUNCTIONS = ['apply', 'call', 'contains', 'eval', 'event', 'get', 'location', 'page', 'query-params', 'source', 'style', 'window'] as const;
/** The ixsl: instructions of saxon-js 2.7.0 (its compiler's mode `sef`), all removed. */
export const IXSL_INSTRUCTIONS = ['schedule-action', 'remove-property', 'remove-attribute', 'set-style', 'set-attribute', 'set-property'] as const;
/** fn functions removed (see the file comment). */
const REMOVED_FN = new Set(['transform']);

/** Whether the function `Q{uri}local` is one of the removed host bindings. */
export function isRemovedFunction(uri: string, local: string): boolean {
  return uri === INTERACTIVE_XSLT_NS || uri === GLOBAL_JS_NS || (uri === FN_NS && REMOVED_FN.has(local));
}

type QName = XdmAtomic & { readonly q: string; readonly local: string };
type SignatureLookup = ((name: QName, arity: number | null, context: unknown) => { sig?: string; variadic?: boolean } | null) & { __hostBindingsRemoved?: true };

interface Internals {
  XPath: { getFnSignature: SignatureLookup; compile(expr: string, options: object, raw: true): object; evaluateOnly(plan: object, context: null, options: object): unknown };
  internals: { NsConst: Record<string, unknown> };
}

/** What the namespace constants become: equal to no string, printed as a namespace no one binds. */
const REMOVED_NAMESPACE = Object.freeze({ toString: () => 'urn:xmldb-rest:removed-host-bindings' });

function versionError(what: string): Error {
  return new Error(`saxon-js host-bindings patch: ${what} of saxon-js 2.7.0 was not found; review lib/saxon/patches/host-bindings.ts for this saxon-js version`);
}

function qname(uri: string, local: string): QName {
  return saxon().XS.QName.fromParts('', uri, local) as QName;
}

/** The compiler's rules for the ixsl: instructions (mode `Q{}sef`), in IXSL_INSTRUCTIONS order. */
function instructionRules(compiler: SefTree): SefTree[] {
  const modes: SefTree[] = [];
  const visit = (node: SefTree): void => {
    if (node.N === 'mode' && node.name === 'Q{}sef') modes.push(node);
    else for (const child of node.C ?? []) visit(child);
  };
  visit(compiler);
  const prefix = `NE nQ{${INTERACTIVE_XSLT_NS}}`;
  const rules = modes.length === 1 ? (modes[0].C ?? []).filter((r) => r.N === 'templateRule' && String(r.matches).startsWith(prefix)) : [];
  const names = rules.map((r) => String(r.matches).slice(prefix.length));
  if (names.length !== IXSL_INSTRUCTIONS.length || IXSL_INSTRUCTIONS.some((name) => !names.includes(name))) throw versionError("the compiler's rules for the ixsl: instructions");
  return rules;
}

/** The SEF of `error(xs:QName('err:XTSE0010'), message)`, as the compiler's rule action. */
function refusingAction(rule: SefTree, instruction: string): SefTree {
  const action: SefTree = {
    N: 'fn',
    name: 'error',
    role: 'action',
    C: [
      { N: 'fn', name: 'QName', C: [{ N: 'str', val: 'http://www.w3.org/2005/xqt-errors' }, { N: 'str', val: 'err:XTSE0010' }] },
      { N: 'str', val: `Unknown XSLT instruction ixsl:${instruction}: saxon-js's host bindings are not available.` },
    ],
  };
  const link = (node: SefTree, parent: SefTree): void => {
    node.parentNode = parent;
    for (const child of node.C ?? []) link(child, node);
  };
  link(action, rule);
  return action;
}

/** Applies the patch in this thread (idempotent; throws for another saxon-js version). */
export function removeHostBindings(): void {
  const api = saxon() as unknown as Internals;
  const lookup = api.XPath.getFnSignature;
  if (lookup.__hostBindingsRemoved) return;
  const platform = saxon().getPlatform() as unknown as { resource(name: string): unknown };
  const constants = api.internals.NsConst;
  const functions = platform.resource('functions') as Record<string, Record<string, unknown> | undefined>;
  const compiler = platform.resource('compiler') as SefTree;
  // the tables as saxon-js 2.7.0 has them
  const found =
    constants.Yc === INTERACTIVE_XSLT_NS &&
    constants.mi === GLOBAL_JS_NS &&
    lookup(qname(INTERACTIVE_XSLT_NS, 'get'), 2, {})?.sig === '1F r[*] a[1,1AS]' &&
    lookup(qname(GLOBAL_JS_NS, 'anything'), 1, {})?.variadic === true &&
    lookup(qname(FN_NS, 'transform'), 1, {})?.sig === '1F r[1FM] a[1FM]' &&
    IXSL_FUNCTIONS.every((local) => functions[INTERACTIVE_XSLT_NS]?.[local] !== undefined) &&
    functions[FN_NS]?.transform !== undefined;
  if (!found) throw versionError('the function tables');
  const rules = instructionRules(compiler);
  // a call compiled now, run after the patch, proves the run-time dispatcher reads the constant
  const probe = api.XPath.compile(`Q{${INTERACTIVE_XSLT_NS}}contains(map{}, 'x')`, {}, true);

  for (const rule of rules) {
    const index = (rule.C ?? []).findIndex((c) => c.role === 'action');
    if (index < 0) throw versionError("the compiler's rules for the ixsl: instructions");
    rule.C![index] = refusingAction(rule, String(rule.matches).replace(/^.*\}/, ''));
  }
  delete functions[INTERACTIVE_XSLT_NS];
  for (const local of REMOVED_FN) delete functions[FN_NS]![local];
  constants.Yc = REMOVED_NAMESPACE;
  constants.mi = REMOVED_NAMESPACE;
  const removing: SignatureLookup = function getFnSignature(this: unknown, name, arity, context) {
    return isRemovedFunction(name.q, name.local) ? null : lookup.call(this, name, arity, context);
  };
  api.XPath.getFnSignature = Object.assign(removing, { __hostBindingsRemoved: true as const });

  try {
    api.XPath.evaluateOnly(probe, null, {});
  } catch (e) {
    if ((e as { code?: string }).code === 'SXJS0003') return;
    throw e;
  }
  throw versionError("the run-time dispatcher's namespace constant");
}
