/** Walking the AST generically. */
import type { Expr, Node } from './ast';

/**
 * The AST nodes directly below `node`: every property holding a node or an array of nodes
 * (nested arrays included), and the expression of a lookup's key specifier.
 */
export function childNodes(node: Node): Node[] {
  const out: Node[] = [];
  eachChild(node, (child) => out.push(child));
  return out;
}

/**
 * Calls `visit` with each of the AST nodes directly below `node`, in the order of `childNodes`,
 * without making their list: the static walks of every never-seen query (analysis, purity, the
 * databases it reaches) pass each node of its tree here. A `for…in` over the node's own fields
 * (AST nodes are plain objects): Object.entries made an array per node and one per field.
 */
export function eachChild(node: Node, visit: (child: Node) => void): void {
  const fields = node as unknown as Record<string, unknown>;
  for (const k in fields) {
    const v = fields[k];
    if (v !== null && typeof v === 'object') eachNode(v, visit);
  }
}

function eachNode(v: object, visit: (child: Node) => void): void {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (x !== null && typeof x === 'object') eachNode(x, visit);
    }
    return;
  }
  const o = v as { kind?: unknown; type?: unknown; expr?: unknown };
  if (typeof o.kind === 'string') visit(v as Node);
  else if (o.type === 'expr' && o.expr !== null && typeof o.expr === 'object') eachNode(o.expr, visit); // a lookup KeySpecifier
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
