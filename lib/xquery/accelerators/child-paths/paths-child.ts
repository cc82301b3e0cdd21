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
import type { Scope } from '../../language/translate/scope';
import { braced } from '../../language/translate/emit';

const CHILD_PATH = `${braced(NS.engine)}child-path`;

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
