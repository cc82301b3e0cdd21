/**
 * `E//name` through the worker's element-name index (modules/name-index.ts).
 *
 * The parser expands every `//` into an abbreviated `descendant-or-self::node()` step. When that
 * step is followed by a `child::` step whose node test is a concrete element name (no wildcard,
 * no kind test) and which has no predicates, the two steps select exactly the descendant
 * elements of that name of each context node, which
 * `Q{urn:xmldb-rest:engine}descendants(., "Q{uri}local")` answers (from an index when the
 * context node is a document node). Everything else keeps the axis steps: a predicate on the
 * child step is evaluated per parent (`//b[1]` is every first b child, not the first b), and
 * wildcards, kind tests and other axes are left to saxon-js.
 *
 * Order and duplicates: the call answers each context node's descendants in document order
 * without duplicates. It stands as a step of the path (`E/descendants(., n)`), so when E
 * yields several nodes the `/` operator sorts and deduplicates as the axis steps did; when the
 * pair starts a path at the root it is called on the root directly (one node: nothing to sort).
 */
import type { AxisStep, Expr } from '../syntax';
import { NS, eqname, xpathString } from './names';
import type { Scope } from './scope';

/** The index's function in the generated XPath. */
const DESCENDANTS = `Q{${NS.engine}}descendants`;

/**
 * When `steps[i]` is a `//` followed by an unpredicated element-name child step at `steps[i+1]`:
 * the expanded name (`Q{uri}local`) that step selects; otherwise undefined.
 */
export function indexedName(steps: readonly Expr[], i: number, scope: Scope): string | undefined {
  const dos = steps[i];
  const child = steps[i + 1];
  if (!dos || !child || dos.kind !== 'AxisStep' || child.kind !== 'AxisStep') return undefined;
  if (!isAbbreviatedDescendantOrSelf(dos)) return undefined;
  if (child.axis !== 'child' || child.predicates.length > 0 || child.test.kind !== 'NameTest') return undefined;
  return eqname(scope.elementName(child.test.name, child.test.start));
}

function isAbbreviatedDescendantOrSelf(step: AxisStep): boolean {
  return step.abbreviated && step.axis === 'descendant-or-self' && step.test.kind === 'AnyKindTest' && step.predicates.length === 0;
}

/** The descendant elements named `name` of the node `context` (an XPath expression). */
export function descendantsCall(context: string, name: string): string {
  return `${DESCENDANTS}(${context}, ${xpathString(name)})`;
}
