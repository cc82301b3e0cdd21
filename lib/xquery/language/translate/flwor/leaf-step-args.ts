/**
 * Leaf paths as arguments of the engine's leaf-column functions (engine:group-leaves,
 * engine:order-leaves, engine:leaf-returns): each step an XPath string `kind leaf` (`kind` alone
 * for the element itself), which accelerators/leaf-columns/element-locator.ts `parsePaths` reads.
 */
import type { LeafStep } from '../../../accelerators/leaf-columns/leaf-columns';
import { xpathString } from '../names';

/** The steps of one leaf path, as XPath string literals. */
export function leafStepArgs(steps: readonly LeafStep[]): string[] {
  return steps.map((step) => xpathString(step.leaf === '' ? step.kind : `${step.kind} ${step.leaf}`));
}
