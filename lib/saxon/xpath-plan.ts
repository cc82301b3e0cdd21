/**
 * XPath expressions compiled once and run many times, on saxon-js 2.7.0's `XPath.compile` (with
 * the raw-tree flag: the compiled tree) and `XPath.evaluateOnly` (runs a tree). The tree lists the
 * variables it reads (`freeV`, EQNames); a run binds them by name, a name in no namespace (`Q{}x`)
 * by its local name.
 *
 * `XPath.evaluateOnly` of saxon-js 2.7.0 leaves the collations out of the run's dynamic context
 * (`fixed.la`, which `XPath.evaluate` sets up), so every function that looks up a collation
 * (fn:distinct-values, fn:compare, ...) fails with an internal error. A plan therefore starts with
 * a call of COLLATIONS, an extension function that gives the run the collations `XPath.evaluate`
 * uses (taken from one run of it): the plan of `E` is compiled from
 * `if (COLLATIONS()) then () else (E)`. The condition is the empty sequence (false), evaluated
 * before `E`, so a run answers what `E` answers (XPath 3.1 §3.12: only the branch chosen is
 * evaluated, and its errors are the expression's).
 *
 * The call is a condition rather than the first member of a sequence `(COLLATIONS(), E)`, the
 * obvious form: saxon-js 2.7.0's evaluation of a sequence constructor in `evaluateOnly` leaves
 * about a kilobyte per run reachable until the next full collection (every run's, not only the
 * last one's), so each young-generation collection of a worker running many small queries
 * copied hundreds of kilobytes to the old generation, and those collections cost more than
 * the queries themselves. Through the conditional, a run leaves nothing behind.
 */
import { withFastCalls } from './fast-calls';
import { loadSaxon, type Iterator } from './load';

/** A compiled expression. */
export interface XPathPlan {
  /** The variables the expression reads (EQNames), if any. */
  readonly freeV?: readonly string[];
}

/** The engine-internal namespace of the collations function (hidden from queries, translate/callable.ts). */
const NAMESPACE = 'urn:xmldb-rest:xpath-plan';
const COLLATIONS = `Q{${NAMESPACE}}collations()`;

interface RunContext {
  readonly fixed: { la?: unknown };
}

interface PlanApi {
  evaluate(expression: string, context: null, options: object): unknown;
  compile(expression: string, options: object, raw: true): XPathPlan;
  evaluateOnly(plan: XPathPlan, context: null, options: object): unknown;
}

const saxon = loadSaxon();
const xpath = saxon.XPath as unknown as PlanApi;

/** The collations of a run of `XPath.evaluate`, once one has called COLLATIONS. */
let collations: unknown;

/** Registers COLLATIONS (before any plan is compiled: saxon-js checks calls when it compiles). */
export function registerXPathPlanFunctions(): void {
  saxon.registerExtensionFunctions({
    namespace: NAMESPACE,
    signatures: {
      collations: {
        sig: '1F r[*] a[]',
        arity: [0],
        impl: (_args, context): Iterator => {
          const run = context as RunContext;
          if (run.fixed.la === undefined) run.fixed.la = collations;
          else collations ??= run.fixed.la;
          return saxon.internals.Iter.ForArray([]);
        },
      },
    },
  });
}

/**
 * Takes the collations from a run of `XPath.evaluate` and compiles a first plan, so that a
 * thread's first query does not pay for either (a query worker calls it while it loads, before
 * its time limits apply).
 */
export function prepareXPathPlans(): void {
  if (collations === undefined) xpath.evaluate(COLLATIONS, null, {});
  runXPathPlan(compileXPath('$x + 1', { x: [] }, {}), { params: { x: [] }, resultForm: 'xdm' });
}

/**
 * Compiles `expression` for runs that bind `params` (their values do not matter: saxon-js types
 * every parameter `item()*` when it compiles); throws what `XPath.compile` throws.
 */
export function compileXPath(expression: string, params: Record<string, unknown>, namespaceContext: Readonly<Record<string, string>>): XPathPlan {
  if (collations === undefined) xpath.evaluate(COLLATIONS, null, {});
  return withFastCalls(xpath.compile(`if (${COLLATIONS}) then () else (${expression})`, { params: { ...params }, namespaceContext }, true));
}

/** Runs a plan: `XPath.evaluateOnly` with `XPath.evaluate`'s options (faster calls: fast-calls.ts). */
export function runXPathPlan(plan: XPathPlan, options: Record<string, unknown>): unknown {
  return xpath.evaluateOnly(plan, null, options);
}
