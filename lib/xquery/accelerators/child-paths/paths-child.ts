/**
 * Runs of child steps by element name (`a/b/c` after a path's first step) through one call of
 * `Q{urn:xmldb-rest:engine}child-path(., ("Q{}a", "Q{}b", "Q{}c"))` (accelerators/child-paths/child-paths.ts),
 * which reads a stored document's rows instead of walking its nodes step by step.
 *
 * Only steps that cannot tell the difference are taken: `child::` with a concrete element name
 * and no predicate (a predicate sees each step's own context). After other steps the call stands
 * as one step of the path, so with several context nodes the `/` before it sorts and deduplicates
 * as the steps did; for one context node it answers document order itself. Right after a path's
 * head expression (`$doc/a/b`, `(E)/a/b`) the call takes the head's value itself
 * (`child-path($doc, …)`) and answers document order for any number of nodes: saxon-js would
 * otherwise sort the answer of a step it cannot prove ordered, which for the 25,500 people of
 * XMark factor 1 took a few milliseconds on every evaluation.
 */
import type { Expr } from '../../language/syntax';
import { NS, eqname, xpathString } from '../../language/translate/names';
import { MODULE_NAMESPACES } from '../../module-namespaces';
import type { Scope } from '../../language/translate/scope';
import { braced } from '../../language/translate/emit';

const CHILD_PATH = `${braced(NS.engine)}child-path`;
const CHILD_PATH_COVERS = `${braced(NS.engine)}child-path-covers`;
const PARENT_PATH_COVERS = `${braced(NS.engine)}parent-path-covers`;

/** The fewest steps worth one call (a single step is as cheap in saxon-js). */
const MIN_RUN = 2;

/** The expanded names of the run of plain child name steps starting at `steps[i]`, when it is long enough. */
export function childRun(steps: readonly Expr[], i: number, scope: Scope): string[] | undefined {
  const names: string[] = [];
  for (let j = i; j < steps.length; j++) {
    const step = steps[j];
    if (step.kind !== 'AxisStep' || step.axis !== 'child' || step.predicates.length > 0 || step.test.kind !== 'NameTest') break;
    names.push(eqname(scope.elementName(step.test.name, step.test.start)));
  }
  return names.length >= MIN_RUN ? names : undefined;
}

/** The step that stands for the run `names` (from `childRun`). */
export function childPathStep(names: readonly string[]): string {
  return childPathFrom('.', names);
}

/** The run `names` (from `childRun`) from the nodes of `head` (XPath): `head/a/b/…`. */
export function childPathFrom(head: string, names: readonly string[]): string {
  return `${CHILD_PATH}(${head}, (${names.map(xpathString).join(', ')}))`;
}

/**
 * `a/…/b/name[P]` from `steps[i]`: at least MIN_RUN child steps by element name, only the last
 * with predicates. Its names, that last step, and the index of the step after it. What the
 * predicates must be is the caller's: one the value indexes answer (translate/paths/paths.ts
 * `childPathMatch`), or position-free ones (`coveredStep`).
 */
export function predicatedChildRun(steps: readonly Expr[], i: number, scope: Scope): { names: string[]; step: Expr & { kind: 'AxisStep' }; end: number } | undefined {
  const names: string[] = [];
  for (let j = i; j < steps.length; j++) {
    const step = steps[j];
    if (step.kind !== 'AxisStep' || step.axis !== 'child' || step.test.kind !== 'NameTest') return undefined;
    names.push(eqname(scope.elementName(step.test.name, step.test.start)));
    if (step.predicates.length > 0) return names.length >= MIN_RUN ? { names, step, end: j + 1 } : undefined;
  }
  return undefined;
}

/**
 * A `predicatedChildRun` whose predicates are all position-free (`free`, from
 * name-index/paths-index.ts). From a document node whose `a/…/b/name` reaches every `name`
 * element (child-paths.ts `pathCoversName`, a fact of the data), the step selects what
 * `//name[P]` does, in the same order: the translation then answers it as that, with the indexes
 * and leaf columns of `//name[P]` (translate/paths/paths.ts), and as written otherwise.
 */
export function coveredStep(
  steps: readonly Expr[],
  i: number,
  scope: Scope,
  free: (predicates: readonly Expr[]) => boolean,
): { names: string[]; step: Expr & { kind: 'AxisStep' }; end: number } | undefined {
  const run = predicatedChildRun(steps, i, scope);
  return run && free(run.step.predicates) ? run : undefined;
}

/** Whether the child steps `names` from the node `context` (XPath) reach every element of the last name (`coveredStep`). */
export function childPathCoversCall(context: string, names: readonly string[]): string {
  return `${CHILD_PATH_COVERS}(${context}, (${names.map(xpathString).join(', ')}))`;
}

/**
 * Whether below the node `context` (XPath) every element of the last of `names` has parents named
 * as the names before it (child-paths.ts `parentsCoverName`): then `//N1/…/Nk[P]` from a document
 * node selects what `//Nk[P]` does (translate/paths/paths.ts).
 */
export function parentPathCoversCall(context: string, names: readonly string[]): string {
  return `${PARENT_PATH_COVERS}(${context}, (${names.map(xpathString).join(', ')}))`;
}

/** fn and db functions whose value is documents (`doc($uri)`, `db:get($db)`, …) or the root of a node. */
const DOCUMENT_FUNCTIONS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  [NS.fn, new Set(['doc', 'root', 'collection'])],
  [MODULE_NAMESPACES.db, new Set(['get', 'open'])],
]);

/**
 * Whether `expr` is by its form the context item (`.`), the root (`/`), a variable whose value is
 * one of these, or a call that answers documents: a path's head whose value may be a document,
 * where `coveredStep` is worth its check. Elsewhere (a for clause's elements, a function's
 * parameter) the head is most often an element, for which the check is one more test in a loop.
 */
export function documentLike(expr: Expr, scope: Scope): boolean {
  while (expr.kind === 'ParenthesizedExpr' && expr.expr) expr = expr.expr;
  switch (expr.kind) {
    case 'ContextItemExpr':
      return true;
    case 'PathExpr':
      return expr.root === '/' && expr.steps.length === 0;
    case 'VarRef':
      try {
        return scope.lookupVariable(expr.name, expr.start).documents === true;
      } catch {
        return false;
      }
    case 'FunctionCall':
      try {
        const fn = scope.functionName(expr.name, expr.start);
        return DOCUMENT_FUNCTIONS.get(fn.uri)?.has(fn.local) === true;
      } catch {
        return false;
      }
    default:
      return false;
  }
}
