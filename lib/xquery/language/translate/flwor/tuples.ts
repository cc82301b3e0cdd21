/**
 * The tuple stream of an advanced FLWOR (advanced.ts), as XPath.
 *
 * A FLWOR is translated as a chain of segments. Inside a segment, for/let/where/window clauses
 * nest as plain XPath (`for … return let … return if (…) then (…) else ()`), exactly like the
 * simple FLWOR. A clause that needs the whole stream at once (order by, group by, count) ends
 * the segment: `finish()` closes the nesting with one XPath array per tuple,
 *
 *   [$x, $y]   or, for order by,   [[$x, $y], <key 1>, …]
 *
 * (members may be sequences), the clause turns that sequence into a sequence of tuples, and
 * `restart()` opens the next segment over it, binding every tuple variable again under a fresh
 * generated name:
 *
 *   for $t in (STREAM) return let $x' := $t?1, $y' := $t?2 return …
 *
 * The variables of the tuple are the locals bound since the FLWOR began (shadowed ones are
 * gone from the scope, so they leave the tuple too). Everything stays in the XPath of the use
 * site, so the focus and the enclosing variables are simply visible: nothing but the
 * sort/group/window algorithms themselves is lifted, and those take data, never user code.
 */
import type { EQName } from '../../syntax';
import { NS } from '../names';
import type { Scope, Variable } from '../scope';
import { braced } from '../emit';

/** A generated XPath variable reference that cannot clash with any XQuery variable. */
export function tempVar(scope: Scope, what: string): string {
  return `$${braced(NS.vars)}${what}.${scope.ctx.nextId()}`;
}

export class TupleStream {
  private open: string[] = [];
  private close: string[] = [];
  private readonly outerParams: ReadonlySet<string>;
  /** The scope at the current point of the FLWOR (the outer scope plus the tuple variables). */
  scope: Scope;

  constructor(readonly outer: Scope) {
    this.scope = outer;
    this.outerParams = new Set(outer.locals().map((v) => v.param));
  }

  /**
   * Appends a clause: `open` is XPath ending where the rest goes (`… return `, `… then (`),
   * `close` what must follow the rest, and `scope` the scope after the clause.
   */
  push(open: string, scope: Scope, close = ''): void {
    this.open.push(open);
    this.close.push(close);
    this.scope = scope;
  }

  /** The variables of the tuple, innermost first. */
  vars(): Variable[] {
    return this.scope.locals().filter((v) => !this.outerParams.has(v.param));
  }

  /** The tuple variable named `name`, or undefined (an enclosing variable is not one). */
  lookup(name: EQName, offset: number): Variable | undefined {
    const qn = this.scope.variableName(name, offset);
    return this.vars().find((v) => v.name.uri === qn.uri && v.name.local === qn.local);
  }

  /**
   * Starts a new segment over `stream` (XPath, a sequence of tuple arrays): binds each of
   * `vars` again from the array's member number `member(v)`; with `count`, also binds that
   * variable to the tuple's number (xs:integer, from 1).
   */
  restart(stream: string, vars: readonly Variable[], member: (v: Variable) => number, count?: { name: EQName; offset: number }): void {
    const t = tempVar(this.outer, 't');
    let scope = this.outer;
    const lets: string[] = [];
    for (const v of [...vars].reverse()) {
      const bound = scope.bind({ uri: v.name.uri, local: v.name.local, prefix: v.name.prefix }, 0, v.atomic);
      // a lookup (`?N`) is cheaper in saxon-js than calling the array as a function (`$t(N)`)
      lets.push(`${bound.variable.ref} := ${t}?${member(v)}`);
      scope = bound.scope;
    }
    let head: string;
    if (count) {
      const all = tempVar(this.outer, 'tuples');
      const i = tempVar(this.outer, 'n');
      head = `let ${all} := (${stream}) return for ${i} in 1 to ${braced(NS.fn)}count(${all}) return let ${t} := ${all}[${i}] return `;
      const bound = scope.bind(count.name, count.offset, true);
      lets.push(`${bound.variable.ref} := ${i}`);
      scope = bound.scope;
    } else {
      head = `for ${t} in (${stream}) return `;
    }
    this.open = [lets.length ? `${head}let ${lets.join(', ')} return ` : head];
    this.close = [''];
    this.scope = scope;
  }

  /** The whole FLWOR so far, with `body` (XPath in the current scope) at the innermost place. */
  finish(body: string): string {
    return `(${this.open.join('')}(${body})${[...this.close].reverse().join('')})`;
  }
}
