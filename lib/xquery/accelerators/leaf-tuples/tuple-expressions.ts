/**
 * The expressions of a leaf-tuples plan (tuple-plan.ts) compiled into functions of a row of the
 * tuple stream (tuple-frame.ts), with the type of every value known before any row is seen, from
 * the leaves up (the types: tuple-codes.ts). Here: variables, literals, the leaf paths of the for
 * variable and the reading of their columns, filters, conditionals and the text of enclosed
 * expressions; the operators are compiled in tuple-operators.ts, the function calls in
 * tuple-functions.ts.
 *
 * Each operation is compiled only for the types whose rules (XQuery 3.1 and F&O 3.1, cited where
 * applied) it implements exactly; anything else declines the plan (`decline`), and a value that
 * would raise an error (a cast that fails, more than one item where one is allowed, an integer
 * beyond 2^53) declines the call while it runs: saxon-js then evaluates the FLWOR and raises it.
 */
import { numbersOf, type Column, type LeafStep } from '../leaf-columns/leaf-columns';
import { numberValue } from '../leaf-columns/leaf-values';
import { decline, type Frame } from './tuple-frame';
import { FOR_SLOT, type PlanExpr } from './tuple-plan';
import { castDouble, counter, ebv, exact, grouped, isSingle, joinedStrings, numberOf, single, textOf, type Code, type EachNode, type RowFn, type Type } from './tuple-codes';
import { arithmetic, castAs, generalComparison, valueComparison } from './tuple-operators';
import { functionCall } from './tuple-functions';

export class Compiler {
  /** Per slot, how the current stream reads it (the clauses set them in order). */
  readonly vars: (Code | undefined)[] = [];
  /** Whether the stream is past the group by clause. */
  groupedStream = false;

  /** The paths whose nodes are read (`Code.nodes`), in the order of the sources' node columns. */
  readonly nodePaths: number[] = [];

  /**
   * `outer`: the types of the values of the variables bound outside the FLWOR (single values);
   * `paths`: the plan's leaf paths.
   */
  constructor(
    private readonly outer: readonly Type[],
    readonly paths: readonly (readonly LeafStep[])[],
  ) {}

  /**
   * `$v/path = $outer` (either way round) with an outer value compared as a string: the leaf path
   * and the outer value's index, for a where clause to answer from the column's values
   * (where-probe.ts); undefined for any other expression, or past a group by.
   */
  leafEquality(e: PlanExpr): { readonly path: number; readonly outer: number } | undefined {
    if (this.groupedStream || e.x !== 'compare' || e.op !== '=') return undefined;
    const pair = e.l.x === 'leaf' && e.r.x === 'outer' ? { leaf: e.l, outer: e.r } : e.r.x === 'leaf' && e.l.x === 'outer' ? { leaf: e.r, outer: e.l } : undefined;
    if (pair === undefined) return undefined;
    const t = this.outer[pair.outer.i];
    return t === 'S' || t === 'U' ? { path: pair.leaf.p, outer: pair.outer.i } : undefined;
  }

  /** The index of path `p` among the paths whose nodes are read. */
  private nodeColumn(p: number): number {
    const k = this.nodePaths.indexOf(p);
    return k >= 0 ? k : this.nodePaths.push(p) - 1;
  }

  expr(e: PlanExpr): Code {
    switch (e.x) {
      case 'var':
        return this.vars[e.s] ?? decline();
      case 'outer': {
        const t = this.outer[e.i] ?? decline();
        const i = e.i;
        return { t, f: (fr) => fr.outer[i] };
      }
      case 'string':
        return { t: 'S', f: () => e.v };
      case 'integer': {
        const v = exact(Number(e.v));
        return { t: 'I', f: () => v };
      }
      case 'double': {
        const v = Number(e.v);
        return { t: 'D', f: () => v };
      }
      case 'leaf':
        return this.leaf(e.p);
      case 'filter': {
        if (this.groupedStream) decline();
        const test = ebv(this.expr(e.test), true);
        const leaf = this.leaf(e.p);
        return {
          t: 'L',
          each: (fr, r, visit) => test(fr, r) && leaf.each!(fr, r, visit),
          count: (fr, r) => (test(fr, r) ? leaf.count!(fr, r) : 0),
          one: (fr, r) => (test(fr, r) ? leaf.one!(fr, r) : null),
          path: e.p,
          nodes: () => {
            const nodes = leaf.nodes!();
            return (fr, r, visit) => {
              if (test(fr, r)) nodes(fr, r, visit);
            };
          },
        };
      }
      case 'each': {
        // XPath 3.1 §3.3.1: the last step's value for each leaf in turn; as one value here, none
        // when there is no leaf (more than one declines)
        const one = single(this.expr(e.a));
        if (e.f === 'data') return one;
        const s = textOf(one);
        return { t: 'S', f: s };
      }
      case 'call':
        return functionCall(e.f, e.a.map((a) => this.expr(a)));
      case 'compare':
        return ['=', '!=', '<', '<=', '>', '>='].includes(e.op) ? generalComparison(e.op, this.expr(e.l), this.expr(e.r)) : valueComparison(e.op, this.expr(e.l), this.expr(e.r));
      case 'arith':
        return arithmetic(e.op, this.expr(e.l), this.expr(e.r));
      case 'negate': {
        const a = single(this.expr(e.a));
        if (a.t === 'I') return { t: 'I', f: (fr, r) => {
          const v = a.f!(fr, r) as number | null;
          return v === null ? null : -v;
        } };
        const n = numberOf(a);
        return { t: 'D', f: (fr, r) => {
          const v = n(fr, r);
          return v === null ? null : -v;
        } };
      }
      case 'and':
      case 'or': {
        const l = ebv(this.expr(e.l));
        const r = ebv(this.expr(e.r));
        return { t: 'B', f: e.x === 'and' ? (fr, row) => l(fr, row) && r(fr, row) : (fr, row) => l(fr, row) || r(fr, row) };
      }
      case 'sequence':
        return decline(); // only an enclosed expression of a constructor (`enclosedText`)
      case 'empty':
        return decline(); // only a branch of a conditional
      case 'if':
        return this.conditional(e.test, e.then, e.else);
      case 'cast':
        return castAs(e.to, e.optional, single(this.expr(e.a)));
      case 'concat': {
        // XPath 3.1 §3.6: each operand atomized to at most one item, none as ""
        const l = textOf(single(this.expr(e.l)));
        const r = textOf(single(this.expr(e.r)));
        return { t: 'S', f: (fr, row) => (l(fr, row) ?? '') + (r(fr, row) ?? '') };
      }
    }
  }

  /**
   * `if (T) then A else B` (XQuery 3.1 §3.14): single values of one type, either branch `()`
   * for none.
   */
  private conditional(test: PlanExpr, then: PlanExpr, otherwise: PlanExpr): Code {
    const t = ebv(this.expr(test));
    const a = then.x === 'empty' ? undefined : this.expr(then);
    const b = otherwise.x === 'empty' ? undefined : this.expr(otherwise);
    const type = a?.t ?? b?.t ?? decline();
    if (!isSingle(type) || (a && a.t !== type) || (b && b.t !== type)) decline();
    const fa = a?.f ?? (() => null);
    const fb = b?.f ?? (() => null);
    return { t: type, f: (fr, r) => (t(fr, r) ? fa(fr, r) : fb(fr, r)) };
  }

  /** `$v/path`: the leaves below the row's element, or after a group by below each of the group's elements in turn. */
  private leaf(p: number): Code {
    const column = (fr: Frame, r: number): Column => fr.sources[fr.doc![r]].columns[p];
    const nodes = (): EachNode => {
      const k = this.nodeColumn(p);
      return (fr, r, visit) => {
        const { offsets, nodes: below } = fr.sources[fr.doc![r]].values[k];
        const i = fr.at![r];
        for (let j = offsets[i]; j < offsets[i + 1]; j++) visit(below[j]);
      };
    };
    const leaf: Code = {
      t: 'L',
      each: (fr, r, visit) => {
        const { offsets, strings } = column(fr, r);
        const i = fr.at![r];
        for (let j = offsets[i]; j < offsets[i + 1]; j++) if (visit(strings[j])) return true;
        return false;
      },
      count: (fr, r) => {
        const { offsets } = column(fr, r);
        const i = fr.at![r];
        return offsets[i + 1] - offsets[i];
      },
      one: (fr, r) => {
        const { offsets, strings } = column(fr, r);
        const i = fr.at![r];
        const n = offsets[i + 1] - offsets[i];
        return n === 0 ? null : n === 1 ? strings[offsets[i]] : decline();
      },
      eachNumber: (fr, r, visit) => {
        const c = column(fr, r);
        const i = fr.at![r];
        const numbers = numbersOf(c);
        for (let j = c.offsets[i]; j < c.offsets[i + 1]; j++) if (visit(numbers !== null ? numbers[j] : castDouble(c.strings[j]))) return true;
        return false;
      },
      number: (fr, r) => {
        const c = column(fr, r);
        const i = fr.at![r];
        const at = c.offsets[i];
        const n = c.offsets[i + 1] - at;
        if (n !== 1) return n === 0 ? NaN : decline();
        const numbers = numbersOf(c);
        return numbers !== null ? numbers[at] : (numberValue(c.strings[at]) ?? decline());
      },
      path: p,
      nodes,
      columnOf: column,
    };
    if (!this.groupedStream) return leaf;
    if (this.vars[FOR_SLOT]?.t !== 'GN') decline();
    // a path over the group's elements gives document order: the order of the tuples when all
    // are in one document; across documents, an order of its own (declined)
    const g = grouped(leaf);
    const oneDocument = (fr: Frame, r: number): void => {
      const doc = fr.pre!.doc!;
      const first = doc[fr.rows![fr.start![r]]];
      for (let k = fr.start![r] + 1; k < fr.start![r + 1]; k++) if (doc[fr.rows![k]] !== first) decline();
    };
    return {
      t: 'L',
      each: (fr, r, visit) => {
        oneDocument(fr, r);
        return g.each!(fr, r, visit);
      },
      count: g.count,
      eachNumber: (fr, g, visit) => {
        for (let k = fr.start![g]; k < fr.start![g + 1]; k++) if (leaf.eachNumber!(fr.pre!, fr.rows![k], visit)) return true;
        return false;
      },
      path: p,
      nodes: () => {
        const inner = nodes();
        return (fr, g, visit) => {
          oneDocument(fr, g);
          for (let k = fr.start![g]; k < fr.start![g + 1]; k++) inner(fr.pre!, fr.rows![k], visit);
        };
      },
    };
  }

  /**
   * The text an enclosed expression makes: its atomized items' strings joined by spaces (XQuery
   * 3.1 §3.9.1.1, §3.9.1.3 1.e). `content`: of element content, where nodes would be copied
   * (left to saxon-js).
   */
  enclosedText(e: PlanExpr, content: boolean): RowFn<string> {
    const codes = (e.x === 'sequence' ? e.items : [e]).map((p) => this.expr(p));
    if (content && codes.some((c) => c.t === 'L' || c.t === 'GL')) decline();
    if (codes.length === 1) {
      const strings = joinedStrings(codes[0]);
      return (fr, r) => strings(fr, r, ' ');
    }
    const parts = codes.map((c) => joinedStrings(c));
    const counts = codes.map((c) => counter(c));
    return (fr, r) => {
      let text = '';
      let first = true;
      for (let k = 0; k < parts.length; k++) {
        if (counts[k](fr, r) === 0) continue; // an empty sequence adds no item, "" does
        text += first ? parts[k](fr, r, ' ') : ` ${parts[k](fr, r, ' ')}`;
        first = false;
      }
      return text;
    };
  }
}
