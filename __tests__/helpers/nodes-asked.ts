/** Counting the nodes a compact tree's view is asked for (tree/tree-dom.ts makes each on its first ask). */
import type { TreeView } from '../../lib/tree/tree-dom';

/** From now on, counts `view.node` calls; answers the count so far. */
export function countNodesAsked(view: TreeView): () => number {
  let asked = 0;
  const node = view.node.bind(view);
  view.node = (pre: number) => {
    asked++;
    return node(pre);
  };
  return () => asked;
}
