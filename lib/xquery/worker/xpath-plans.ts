/**
 * Compiled XPath expressions, kept per thread: a query that runs as one XPath expression
 * (translate/translation.ts `Translation.xpath`) is parsed and compiled by saxon-js (saxon/xpath-plan.ts)
 * and the plan is kept from the second run of its text and parameter names on, not compiled on
 * every run as `XPath.evaluate` does. Queries that
 * differ only in literals outside predicates have the same text (those literals are parameters,
 * translate/literals.ts), so they share one plan too.
 *
 * A plan answers what `XPath.evaluate` answers: both compile the parameters with the static type
 * `item()*` (they arrive as XDM sequences), and each run gets its own static base URI, namespaces
 * and parameters. Where the two could differ, the expression runs through `XPath.evaluate` as
 * before: when it does not compile as a plan (`XPath.evaluate` then raises its static error with
 * its own message; saxon-js's `XPath.compile` also fails on some expressions `XPath.evaluate`
 * takes), and when a run leaves a variable of the plan unbound.
 *
 * The literals of predicates are written into the expression (translate/literals.ts
 * `inlinePredicateLiterals`): saxon-js then compares each node with a constant it planned for,
 * instead of a parameter it atomizes and finds a comparer for at every node. But each new literal
 * is then a new text and a new compilation, which costs 1-3 ms, and a run of an indexed lookup or
 * of a query over a small document costs less than that. So the query also comes as its shape
 * (the same expression with those literals left as parameters, one plan for every literal), and
 * for an expression not compiled yet the worker chooses by what the shape's runs cost so far: the
 * shape's plan when a run takes less than a compilation, else the expression with its literals.
 * A run's cost is the least of the shape's last RECENT_RUNS runs: a pause of the garbage collector
 * or a busy machine only ever adds time, so one slow run does not make the next literals compile,
 * while runs that all grew (a larger document) do.
 * The first run of a shape has its literals written in (nothing is known of it yet); a run whose
 * own text has a kept plan uses that plan, whatever the shape costs.
 */
import { LRUCache } from 'lru-cache';
import { saxon } from '../../saxon';
import { compileXPath, runXPathPlan, type XPathPlan } from '../../saxon/xpath-plan';
import { SecondSightCache } from '../../threads/second-sight-cache';

/** Plans kept per thread; an expression is at most translate/translation.ts XPATH_MAX_LENGTH long. */
const MAX_PLANS = 512;

/** A kept plan and the parameter names it was compiled for; plan false: the expression runs through `XPath.evaluate`. */
interface PlanEntry {
  readonly names: string;
  readonly plan: XPathPlan | false;
}

/**
 * By expression text; runs of one text nearly always bind the same names, and one that binds
 * others replaces the entry. Keyed by the text alone, a lookup hashes the text as it came rather
 * than a new string built from names and text. A plan is kept from the second run of its text
 * on: a text run once (a never-seen query) leaves no compiled plan behind in the old generation
 * (threads/second-sight-cache.ts tells what that costs).
 */
const plans = new SecondSightCache<PlanEntry>(MAX_PLANS);

export interface XPathRun {
  readonly params: Record<string, unknown>;
  readonly staticBaseURI: string;
  readonly namespaceContext: Readonly<Record<string, string>>;
}

/** The plan of `expression` for runs binding `params` (by their names), compiled now or found. */
function planOf(expression: string, params: Record<string, unknown>, namespaceContext: Readonly<Record<string, string>>): XPathPlan | false {
  const names = Object.keys(params).join('\n');
  const entry = plans.get(expression);
  if (entry !== undefined && entry.names === names) return entry.plan;
  let plan: XPathPlan | false;
  compilations++;
  try {
    plan = compileXPath(expression, params, namespaceContext);
  } catch {
    plan = false;
  }
  plans.offer(expression, { names, plan });
  return plan;
}

/** Whether every variable the plan reads is bound, by EQName or (no namespace) by local name. */
function binds(plan: XPathPlan, params: Record<string, unknown>): boolean {
  return (plan.freeV ?? []).every((name) => Object.hasOwn(params, name.startsWith('Q{}') ? name.slice(3) : name));
}

/** What the runs of a shape cost: its last compilation and its last runs (up to RECENT_RUNS), in milliseconds. */
interface ShapeCosts {
  compileMs: number;
  runsMs: number[];
}

/** How many of a shape's last runs its run cost is the least of. */
const RECENT_RUNS = 4;

/** By shape text. */
const shapes = new LRUCache<string, ShapeCosts>({ max: MAX_PLANS });

/** Plans compiled in this thread so far, for tests. */
let compilations = 0;

/** The number of plans compiled in this thread so far. */
export function xpathCompilations(): number {
  return compilations;
}

/** The text to run: `expression`, or its shape when the shape's plan is the cheaper way (see the file comment). */
function chosenText(expression: string, shape: string | undefined): string {
  if (shape === undefined || plans.has(expression)) return expression;
  const costs = shapes.get(shape);
  return costs !== undefined && Math.min(...costs.runsMs) < costs.compileMs ? shape : expression;
}

/**
 * Evaluates an XPath expression as `XPath.evaluate` does with these options (result form `xdm`),
 * from its kept plan or from the plan of its shape (see the file comment). Plans of different
 * namespace contexts are not told apart: the engine uses one.
 */
export function evaluatePlanned(expression: string, run: XPathRun, shape?: string): unknown {
  const options = { params: run.params, resultForm: 'xdm', staticBaseURI: run.staticBaseURI, namespaceContext: run.namespaceContext };
  const text = chosenText(expression, shape);
  const compiled = plans.has(text);
  const started = performance.now();
  const plan = planOf(text, run.params, run.namespaceContext);
  if (plan === false || !binds(plan, run.params)) return saxon().XPath.evaluate(text, null, options);
  const ran = performance.now();
  const result = runXPathPlan(plan, options);
  if (shape !== undefined) {
    const costs = shapes.get(shape) ?? { compileMs: 0, runsMs: [] };
    if (!compiled) costs.compileMs = ran - started;
    costs.runsMs.push(performance.now() - ran);
    if (costs.runsMs.length > RECENT_RUNS) costs.runsMs.shift();
    shapes.set(shape, costs);
  }
  return result;
}
