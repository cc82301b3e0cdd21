/**
 * Leaf paths as arguments of the engine's leaf-column functions (engine:group-leaves,
 * engine:order-leaves, engine:leaf-returns): each step an XPath string of its `stepText`
 * (accelerators/leaf-columns/leaf-columns.ts), which element-locator.ts `parsePaths` reads.
 */
import { stepText, type LeafStep } from '../../../accelerators/leaf-columns/leaf-columns';
import { xpathString } from '../names';

/** The steps of one leaf path, as XPath string literals. */
export function leafStepArgs(steps: readonly LeafStep[]): string[] {
  return steps.map((step) => xpathString(stepText(step)));
}
