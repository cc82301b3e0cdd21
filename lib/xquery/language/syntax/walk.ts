/** Walking the AST generically. */
import type { Node } from './ast';

/**
 * The AST nodes directly below `node`: every property holding a node or an array of nodes
 * (nested arrays included), and the expression of a lookup's key specifier.
 */
export function childNodes(node: Node): Node[] {
  const out: Node[] = [];
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) {
      for (const x of v) visit(x);
    } else if (v && typeof v === 'object') {
      const o = v as { kind?: unknown; type?: unknown; expr?: unknown };
      if (typeof o.kind === 'string') out.push(v as Node);
      else if (o.type === 'expr') visit(o.expr); // a lookup KeySpecifier
    }
  };
  for (const [k, v] of Object.entries(node)) if (k !== 'kind' && k !== 'start' && k !== 'end') visit(v);
  return out;
}
