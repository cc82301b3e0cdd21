/**
 * How deeply a query may nest. The parser, the translator and the analyses (analysis/databases.ts,
 * analysis/updating.ts, ...) walk a query recursively on the HTTP thread's stack, so a query
 * nested deeply enough (a thousand parentheses, thousands of unary minus signs or nested
 * element constructors) would overflow it. Past these limits a query is a static error instead,
 * `[XPST0003] Expression nested too deeply`, at the construct that goes too deep.
 *
 * - MAX_NESTING bounds the expressions the parser has open at once (each takes it about 25
 *   frames, down through the precedence levels of XQuery 3.1 §A.1; a direct element
 *   constructor counts too). The parser overflows Node's default stack at about 260.
 * - MAX_DEPTH bounds the depth of the syntax tree, which the other walks follow; chains that
 *   the parser reads in a loop (`1 + 1 + ...`, `- - 1`) nest here, and so do the clauses of a
 *   FLWOR expression (the translator nests each clause in the previous one). The translator
 *   overflows at about 1,000.
 * The deepest query of the public QT3 suite has a tree 127 levels deep.
 */
import type { Node } from './ast';
import { eachChild } from './walk';

export const MAX_NESTING = 150;
export const MAX_DEPTH = 400;
export const NESTED_TOO_DEEPLY = 'Expression nested too deeply';

/** The first node (in document order) deeper than MAX_DEPTH below `root`, if any; iterative. */
export function tooDeep(root: Node): Node | undefined {
  // two stacks of plain values and one list of children reused for every node: every never-seen
  // query is walked here, and an object per node and a list per node were most of the walk
  const nodes: Node[] = [root];
  const depths: number[] = [1];
  const children: Node[] = [];
  const collect = (child: Node): void => {
    children.push(child);
  };
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (depth > MAX_DEPTH) return node;
    children.length = 0;
    eachChild(node, collect);
    const step = node.kind === 'FLWORExpr' ? 1 : 0;
    for (let i = children.length - 1; i >= 0; i--) {
      nodes.push(children[i]);
      depths.push(depth + 1 + step * i);
    }
  }
  return undefined;
}
