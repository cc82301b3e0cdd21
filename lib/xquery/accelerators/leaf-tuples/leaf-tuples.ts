/**
 * A FLWOR over the leaves of its for variable's elements, evaluated in JavaScript from the
 * per-document leaf columns (leaf-columns.ts), behind one extension function in the engine's
 * namespace:
 *
 *   Q{urn:xmldb-rest:engine}leaf-tuples($nodes as item()*, $plan as xs:string,
 *       $base as xs:string?) as array(*)?
 *
 * `$nodes` are the values of the for variable in order, `$plan` the rest of the FLWOR as JSON
 * (tuple-plan.ts, made by flwor-leaf-tuples.ts), `$base` the static base URI, the base URI of the
 * elements the return clause constructs. The answer is one array whose one member is the FLWOR's
 * value, or the empty sequence when this function cannot give it exactly; the caller then
 * evaluates the FLWOR as translated otherwise, which also raises the errors.
 *
 * The plan is compiled once per text (tuple-expressions.ts, tuple-clauses.ts) and run over the
 * stream of tuples by columns (tuple-frame.ts).
 *
 * Registered by `registerLeafTupleFunctions` (extension-functions.ts).
 */
import { ENGINE_NS } from '../../constants';
import { arrayValue, castString, registerFunctions, stringValue, type XdmValue } from '../../../saxon';
import type { Column, LeafStep } from '../leaf-columns/leaf-columns';
import { Locator, parsePaths } from '../leaf-columns/element-locator';
import { Decline, Frame } from './tuple-frame';
import { Compiler } from './tuple-expressions';
import { compileClause, compileReturn, Output, type Emit, type Step } from './tuple-clauses';
import { FOR_SLOT, type TuplePlan } from './tuple-plan';

/** The local name of the function in ENGINE_NS. */
export const LEAF_TUPLES_FUNCTION = 'leaf-tuples';

/** A plan compiled. */
interface Program {
  readonly paths: readonly (readonly LeafStep[])[];
  readonly steps: readonly Step[];
  readonly emit: Emit;
}

function compileProgram(plan: TuplePlan): Program | null {
  const paths = parsePaths(
    plan.paths.flat().map((s) => stringValue(s)),
    plan.paths.map((p) => castString(String(p.length), 'integer')),
  );
  if (!paths) return null;
  const compiler = new Compiler();
  compiler.vars[FOR_SLOT] = { t: 'N', f: (fr, r) => fr.cols[FOR_SLOT][r] };
  const steps = plan.clauses.map((clause) => compileClause(clause, compiler));
  return { paths, steps, emit: compileReturn(plan.ret, compiler) };
}

/** Compiled plans by text; null for a plan this function declines. Bounded: queries come and go. */
const programs = new Map<string, Program | null>();
const PROGRAMS = 256;

function programOf(text: string): Program | null {
  let program = programs.get(text);
  if (program !== undefined) return program;
  try {
    program = compileProgram(JSON.parse(text) as TuplePlan);
  } catch (e) {
    if (!(e instanceof Decline)) throw e;
    program = null;
  }
  if (programs.size >= PROGRAMS) programs.clear();
  programs.set(text, program);
  return program;
}

/** The FLWOR's value for the for variable's values `nodes` (see the file comment); undefined when declined. */
export function leafTuples(nodes: XdmValue, text: string, base: string | null): XdmValue | undefined {
  const program = programOf(text);
  if (!program) return undefined;
  const locator = new Locator(program.paths, []);
  const n = nodes.length;
  const at = new Int32Array(n);
  const src = new Array<readonly Column[]>(n);
  for (let i = 0; i < n; i++) {
    const index = locator.locate(nodes[i]);
    if (index < 0) return undefined;
    at[i] = index;
    src[i] = locator.source!.columns;
  }
  try {
    let fr = new Frame(n, [nodes.slice()], at, src);
    for (const step of program.steps) fr = step(fr);
    const out = new Output();
    for (let r = 0; r < fr.n; r++) program.emit(fr, r, out);
    return out.finish(base);
  } catch (e) {
    if (e instanceof Decline) return undefined;
    throw e;
  }
}

function leafTuplesFn([nodes, plan, base]: XdmValue[]): XdmValue {
  const value = leafTuples(nodes, String(plan[0]), base.length > 0 ? String(base[0]) : null);
  return value === undefined ? [] : [arrayValue([value])];
}

/** Registers engine:leaf-tuples with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerLeafTupleFunctions(): void {
  registerFunctions(ENGINE_NS, {
    [LEAF_TUPLES_FUNCTION]: { sig: '1F r[*] a[*,1AS,?AS]', impl: leafTuplesFn },
  });
}
