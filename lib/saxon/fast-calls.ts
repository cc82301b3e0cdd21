/**
 * Faster evaluations of some built-in function calls in compiled expression trees, set up once
 * per tree (per XPath plan, xpath-plan.ts) rather than paid per call.
 *
 * saxon-js 2.7.0 turns each node of a compiled tree into a closure the first time the tree runs
 * (`Expr.elaborate`, which keeps the closure on the node as `ELAB` and reuses it on every later
 * run). A node whose `ELAB` is already set is never elaborated again, so setting it beforehand
 * chooses how that node is evaluated. This module does so for calls whose saxon-js
 * implementation allocates per call where the answer needs nothing of the kind, and only where
 * the replacement computes exactly what saxon-js's own implementation computes:
 *
 * - `fn:string-length($s)`: saxon-js expands the string into an array of code points
 *   (`Array.from(s).map(c => c.codePointAt(0))`) to take its length, for every call (a
 *   predicate such as `//*[string-length(local-name()) > 5]` makes one call per element). The
 *   replacement counts the code points in place (XPath F&O 3.1 §5.4.4: the number of
 *   characters, a surrogate pair being one character and, as `Array.from` counts, a lone
 *   surrogate one too). Its argument is evaluated as saxon-js evaluates it (the argument's own
 *   closure, with the conversions the compiler put around it), and the answer is built as
 *   saxon-js builds it (`Iter.oneInteger`).
 *
 * Applied only when `Expr.elaborate` is saxon-js 2.7.0's (checked once); otherwise trees are left
 * to saxon-js as they are.
 */
import { loadSaxon, type Iterator } from './load';
import type { XdmItem } from './types';

/** A node of a compiled expression tree, as this module reads it. */
interface TreeNode {
  readonly N?: string;
  readonly name?: string;
  readonly C?: readonly TreeNode[];
  ELAB?: Elaborated;
}

/** What elaboration makes of a node: a function of the dynamic context. */
type Elaborated = (context: unknown) => Iterator;

interface Internals {
  Expr?: { elaborate?: (node: TreeNode) => Elaborated };
  Iter?: { oneInteger?: (n: number) => Iterator };
}

interface Hooks {
  readonly elaborate: (node: TreeNode) => Elaborated;
  readonly oneInteger: (n: number) => Iterator;
}

let hooks: Hooks | null | undefined;

/** saxon-js's elaboration and integer iterator, when they are 2.7.0's; null otherwise. */
function saxonHooks(): Hooks | null {
  if (hooks !== undefined) return hooks;
  const internals = loadSaxon().internals as unknown as Internals;
  const elaborate = internals.Expr?.elaborate;
  const oneInteger = internals.Iter?.oneInteger;
  const expected =
    typeof elaborate === 'function' &&
    /var F=k\.ELAB;F\|\|\(\(F=pa\[k\.N\]\)/.test(String(elaborate)) &&
    typeof oneInteger === 'function' &&
    /return new Eb\(zb\.integer\.fromNumber\(a\)\)/.test(String(oneInteger));
  hooks = expected ? { elaborate, oneInteger } : null;
  return hooks;
}

/** The number of code points of `s`, as `Array.from(s).length` counts them, without the array. */
export function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** saxon-js's string-length of one argument value (its `b()`: the first item's value, else ""). */
function lengthOf(item: XdmItem | null): number {
  const value = item ? (item as { value?: unknown }).value : '';
  if (typeof value === 'string') return codePointLength(value);
  // not reached for a compiled call (the compiler converts the argument to xs:string), kept exact
  return Array.from(value as Iterable<string>).map((c) => c.codePointAt(0)).length;
}

/** The replacement of a `fn` node, or undefined to leave it to saxon-js. */
function fastCall(node: TreeNode, { elaborate, oneInteger }: Hooks): Elaborated | undefined {
  if (node.name === 'string-length' && node.C?.length === 1) {
    const child = node.C[0]!;
    // elaborated on the first call, as saxon-js elaborates a call's arguments when the call runs first
    let argument: Elaborated | undefined;
    return (context) => oneInteger(lengthOf((argument ??= elaborate(child))(context).next()));
  }
  return undefined;
}

/**
 * Sets the faster evaluations on the calls of a compiled tree that has not run yet (iterative:
 * a deep tree cannot exhaust the stack). Returns the tree.
 */
export function withFastCalls<T extends object>(tree: T): T {
  const saxon = saxonHooks();
  if (saxon === null) return tree;
  const stack: TreeNode[] = [tree as TreeNode];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.N === 'fn' && node.ELAB === undefined) {
      const fast = fastCall(node, saxon);
      if (fast !== undefined) node.ELAB = fast;
    }
    if (node.C) for (const child of node.C) stack.push(child);
  }
  return tree;
}
