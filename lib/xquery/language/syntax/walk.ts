/** Walking the AST generically. */
import type { Expr, Node } from './ast';

/**
 * The AST nodes directly below `node`: every property holding a node or an array of nodes
 * (nested arrays included), and the expression of a lookup's key specifier.
 */
export function childNodes(node: Node): Node[] {
  const out: Node[] = [];
  // a `for…in` over the node's own fields (AST nodes are plain objects): every analysis walks each
  // node, and Object.entries made an array per node and one per field
  const fields = node as unknown as Record<string, unknown>;
  for (const k in fields) if (k !== 'kind' && k !== 'start' && k !== 'end') collectNodes(fields[k], out);
  return out;
}

function collectNodes(v: unknown, out: Node[]): void {
  if (Array.isArray(v)) {
    for (const x of v) collectNodes(x, out);
  } else if (v !== null && typeof v === 'object') {
    const o = v as { kind?: unknown; type?: unknown; expr?: unknown };
    if (typeof o.kind === 'string') out.push(v as Node);
    else if (o.type === 'expr') collectNodes(o.expr, out); // a lookup KeySpecifier
  }
}

/** Whether `test` holds for `node` or a node below it. */
export function someNode(node: Node, test: (node: Node) => boolean): boolean {
  return test(node) || childNodes(node).some((child) => someNode(child, test));
}

/**
 * Whether `expr` is a list of members that each pass `test`: a member, or a sequence of lists
 * (`a, b`), in parentheses or not; `()` is the empty list.
 */
export function everyMember(expr: Expr, test: (member: Expr) => boolean): boolean {
  switch (expr.kind) {
    case 'ParenthesizedExpr':
      return expr.expr === null || everyMember(expr.expr, test);
    case 'SequenceExpr':
      return expr.items.every((item) => everyMember(item, test));
    default:
      return test(expr);
  }
}
