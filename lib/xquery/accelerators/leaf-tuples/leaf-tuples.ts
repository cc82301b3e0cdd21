/**
 * A FLWOR over the leaves of its for variable's elements, evaluated in JavaScript from the
 * per-document leaf columns (leaf-columns.ts), behind one extension function in the engine's
 * namespace:
 *
 *   Q{urn:xmldb-rest:engine}leaf-tuples($nodes as item()*, $plan as xs:string,
 *       $base as xs:string?, $outer as array(*)) as array(*)?
 *
 * `$nodes` are the values of the for variable in order (for a range, the array of its two
 * bounds: tuple-plan.ts `range`), `$plan` the rest of the FLWOR as JSON
 * (tuple-plan.ts, made by flwor-leaf-tuples.ts), `$base` the static base URI, the base URI of the
 * elements the return clause constructs, `$outer` the values of the variables bound outside the
 * FLWOR that it reads and of its literals made parameters (translate/literals.ts), each one
 * atomic value of a type tuple-codes.ts knows, or the function declines. The answer is one
 * array whose one member is the FLWOR's value, or the empty sequence when this function cannot
 * give it exactly; the caller then
 * evaluates the FLWOR as translated otherwise, which also raises the errors.
 *
 * The plan is compiled once per text (tuple-expressions.ts, tuple-clauses.ts) and run over the
 * stream of tuples by columns (tuple-frame.ts).
 *
 * Registered by `registerLeafTupleFunctions` (extension-functions.ts).
 */
import { ENGINE_NS } from '../../constants';
import { TypeCode, arrayValue, castString, isAtomic, registerFunctions, stringValue, type XdmArray, type XdmValue } from '../../../saxon';
import type { LeafStep } from '../leaf-columns/leaf-columns';
import { Locator, parsePaths, type Source } from '../leaf-columns/element-locator';
import { Decline, Frame } from './tuple-frame';
import { stored, type Single, type Type } from './tuple-codes';
import { Compiler } from './tuple-expressions';
import { compileClause, compileReturn, Output, type Emit, type Step } from './tuple-clauses';
import { FOR_SLOT, type TuplePlan } from './tuple-plan';
import { SecondSightCache } from '../../../threads/second-sight-cache';

/** The local name of the function in ENGINE_NS. */
export const LEAF_TUPLES_FUNCTION = 'leaf-tuples';

/** A plan compiled. */
interface Program {
  /** The for variable binds the integers of a range (tuple-plan.ts `range`). */
  readonly range: boolean;
  readonly paths: readonly (readonly LeafStep[])[];
  /** The paths whose nodes the plan reads, in the order of the sources' node columns. */
  readonly nodePaths: readonly number[];
  readonly steps: readonly Step[];
  readonly emit: Emit;
}

/**
 * A value bound outside the FLWOR as a single value of tuple-codes.ts, with its type:
 * one item of exactly xs:string, xs:untypedAtomic, xs:integer, xs:double or xs:boolean (other
 * types, derived ones included, keep rules of their own); undefined for anything else.
 */
function outerValue(value: XdmValue): { readonly t: Type; readonly v: Single } | undefined {
  if (value.length !== 1 || !isAtomic(value[0])) return undefined;
  const item = value[0];
  const text = String(item);
  switch (item.code) {
    case TypeCode.string:
      return { t: 'S', v: text };
    case TypeCode.untypedAtomic:
      return { t: 'U', v: text };
    case 'ADI': {
      const n = Number(text);
      return Number.isSafeInteger(n) ? { t: 'I', v: n } : undefined;
    }
    case TypeCode.double:
      return typeof item.value === 'number' ? { t: 'D', v: item.value } : undefined;
    case TypeCode.boolean:
      return { t: 'B', v: text === 'true' };
    default:
      return undefined;
  }
}

function compileProgram(plan: TuplePlan, outer: readonly Type[]): Program | null {
  const paths = parsePaths(
    plan.paths.flat().map((s) => stringValue(s)),
    plan.paths.map((p) => castString(String(p.length), 'integer')),
  );
  if (!paths) return null;
  const compiler = new Compiler(outer, paths);
  compiler.vars[FOR_SLOT] = plan.range ? stored(FOR_SLOT, 'I') : { t: 'N', f: (fr, r) => fr.cols[FOR_SLOT][r] };
  const steps = plan.clauses.map((clause) => compileClause(clause, compiler));
  const emit = compileReturn(plan.ret, compiler);
  return { range: plan.range === true, paths, nodePaths: compiler.nodePaths, steps, emit };
}

/**
 * Compiled plans by text and outer types; null for a plan this function declines. Bounded:
 * queries come and go; kept from a plan's second run (second-sight-cache.ts tells why).
 */
const programs = new SecondSightCache<Program | null>(256);

function programOf(text: string, outer: readonly Type[]): Program | null {
  const key = `${outer.join('')} ${text}`;
  let program = programs.get(key);
  if (program !== undefined) return program;
  try {
    program = compileProgram(JSON.parse(text) as TuplePlan, outer);
  } catch (e) {
    if (!(e instanceof Decline)) throw e;
    program = null;
  }
  programs.offer(key, program);
  return program;
}

/**
 * The most integers a range may give the for clause here: a longer one is left to saxon-js,
 * which need not make them all (`(for $i in 1 to 1e9 return $i)[1]`).
 */
const MAX_RANGE = 1_000_000;

/** The integers of a range from its bounds (`[A, B]`), each one xs:integer or none; undefined for other bounds or a range too long. */
function rangeValues(bounds: XdmValue): number[] | undefined {
  const [from, to] = (bounds[0] as XdmArray).value;
  if (from.length === 0 || to.length === 0) return [];
  const a = outerValue(from);
  const b = outerValue(to);
  // xs:integer exactly: other types (untypedAtomic, derived types, doubles) keep the rules of `to`
  if (a?.t !== 'I' || b?.t !== 'I') return undefined;
  const low = a.v as number;
  const high = b.v as number;
  if (high - low >= MAX_RANGE) return undefined;
  const values: number[] = [];
  for (let i = low; i <= high; i++) values.push(i);
  return values;
}

/** The FLWOR's value for the for variable's values `nodes` (see the file comment); undefined when declined. */
export function leafTuples(nodes: XdmValue, text: string, base: string | null, outerValues: readonly XdmValue[] = []): XdmValue | undefined {
  const outer = outerValues.map(outerValue);
  if (!outer.every((o) => o !== undefined)) return undefined;
  const program = programOf(
    text,
    outer.map((o) => o!.t),
  );
  if (!program) return undefined;
  if (program.range) {
    const values = rangeValues(nodes);
    return values && run(program, new Frame(values.length, [values], null, null, [], outer.map((o) => o!.v)), base);
  }
  const where = located(program, nodes);
  return where && run(program, new Frame(nodes.length, [nodes], where.at, where.doc, where.sources, outer.map((o) => o!.v)), base);
}

/** Where the for clause's nodes are: each one's element index and document (see `located`). */
interface Located {
  readonly at: Int32Array;
  readonly doc: Int32Array;
  readonly sources: Source[];
}

/**
 * The last sequence located, for its program: a FLWOR nested in a loop runs again over the same
 * nodes for each outer item (XMark Q10: the 25,500 people once per category), and comparing the
 * nodes with the last ones costs a small part of locating them again. Kept for the query that
 * runs now only (a query runs synchronously; it is dropped at the next turn of the event loop),
 * so that it never holds a document the worker has let go.
 */
let lastLocated: { readonly program: Program; readonly nodes: readonly unknown[]; readonly located: Located } | undefined;

/** Where `nodes` are, for `program`'s leaf paths; undefined when one is not an element of a stored document. */
function located(program: Program, nodes: XdmValue): Located | undefined {
  const kept = lastLocated;
  if (kept !== undefined && kept.program === program && sameItems(kept.nodes, nodes)) return kept.located;
  const locator = new Locator(
    program.paths,
    program.nodePaths.map((p) => program.paths[p]),
  );
  const n = nodes.length;
  const at = new Int32Array(n);
  const doc = new Int32Array(n);
  const sources: Source[] = [];
  const sourceIndex = new Map<Source, number>();
  let last: Source | undefined;
  for (let i = 0; i < n; i++) {
    const index = locator.locate(nodes[i]);
    if (index < 0) return undefined;
    at[i] = index;
    const source = locator.source!;
    if (source !== last) {
      last = source;
      let known = sourceIndex.get(source);
      if (known === undefined) sourceIndex.set(source, (known = sources.push(source) - 1));
      doc[i] = known;
    } else doc[i] = doc[i - 1];
  }
  const found = { at, doc, sources };
  if (lastLocated === undefined) setImmediate(() => (lastLocated = undefined));
  lastLocated = { program, nodes: nodes.slice(), located: found };
  return found;
}

function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The FLWOR's value from the stream of its for clause; undefined when declined. */
function run(program: Program, first: Frame, base: string | null): XdmValue | undefined {
  try {
    let fr = first;
    for (const step of program.steps) fr = step(fr);
    const out = new Output();
    for (let r = 0; r < fr.n; r++) program.emit(fr, r, out);
    return out.finish(base);
  } catch (e) {
    if (e instanceof Decline) return undefined;
    throw e;
  }
}

function leafTuplesFn([nodes, plan, base, outer]: XdmValue[]): XdmValue {
  const value = leafTuples(nodes, String(plan[0]), base.length > 0 ? String(base[0]) : null, (outer[0] as XdmArray).value);
  return value === undefined ? [] : [arrayValue([value])];
}

/** Registers engine:leaf-tuples with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerLeafTupleFunctions(): void {
  registerFunctions(ENGINE_NS, {
    [LEAF_TUPLES_FUNCTION]: { sig: '1F r[*] a[*,1AS,?AS,1FA]', impl: leafTuplesFn },
  });
}
