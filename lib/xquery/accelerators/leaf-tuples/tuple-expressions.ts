/**
 * The expressions of a leaf-tuples plan (tuple-plan.ts) compiled into functions of a row of the
 * tuple stream (tuple-frame.ts), with the type of every value known before any row is seen,
 * from the leaves up:
 * - `L`: leaf nodes (a path of `$v`): their string values, which are also their atomized values,
 *   xs:untypedAtomic (the trees are untyped); `A`: such values atomized (`data()`);
 * - `U`: one xs:untypedAtomic or none (one leaf taken where one item is required);
 * - `S`, `I`, `D`, `B`: one xs:string, xs:integer, xs:double, xs:boolean or none;
 * - `N`: the for variable's element; after a group by clause, `G` before a type: per group, the
 *   values of its tuples.
 * Single values (`U`, `S`, `I`, `D`, `B`) are JavaScript strings, numbers and booleans, null for
 * none; sequences (`L`, `A`, `G…`) are read item by item, never built.
 *
 * Each operation is compiled only for the types whose rules (XQuery 3.1 and F&O 3.1, cited where
 * applied) it implements exactly; anything else declines the plan (`decline`), and a value that
 * would raise an error (a cast that fails, more than one item where one is allowed, an integer
 * beyond 2^53) declines the call while it runs: saxon-js then evaluates the FLWOR and raises it.
 * Strings compare by codepoints (the planner plans only under the codepoint collation).
 */
import { doubleValue, type XdmItem } from '../../../saxon';
import { compareCodepoints } from '../../functions/order-tuples';
import { numbersOf, type Column, type LeafStep } from '../leaf-columns/leaf-columns';
import { comparisonTest, numberValue, type NumericComparison } from '../leaf-columns/leaf-values';
import { decline, type Frame } from './tuple-frame';
import { FOR_SLOT, type PlanExpr } from './tuple-plan';

export type Base = 'N' | 'L' | 'A' | 'U' | 'S' | 'I' | 'D' | 'B';
export type Type = Base | `G${Base}`;
/** A single value: a string, number or boolean, null for none. */
export type Single = string | number | boolean | null;
export type RowFn<T> = (fr: Frame, r: number) => T;
/** Visits atomized items in order until `visit` answers true; answers whether it did. */
export type Each = (fr: Frame, r: number, visit: (v: Single) => boolean) => boolean;

export interface Code {
  readonly t: Type;
  /** Single types: the value; `N`: the element. */
  readonly f?: RowFn<unknown>;
  /** Sequence types: their atomized items, and how many there are. */
  readonly each?: Each;
  readonly count?: RowFn<number>;
  /** `L`, `A`: the one item, null for none (more declines). */
  readonly one?: RowFn<Single>;
  /** A leaf path before a group by: fn:number of its one leaf (NaN for none; more declines), from the column's numbers. */
  readonly number?: RowFn<number>;
  /** A leaf path: its leaves cast to xs:double as arithmetic casts them (one that does not cast declines), as `each` visits them. */
  readonly eachNumber?: (fr: Frame, r: number, visit: (v: number) => boolean) => boolean;
  /** `L` of a leaf path before a group by: the column the row's leaves are in (at the row's `at`). */
  readonly columnOf?: (fr: Frame, r: number) => Column;
  /** `L` of a leaf path: the path, and its nodes in document order (the function reading them, made on first use). */
  readonly path?: number;
  readonly nodes?: () => EachNode;
}

/** Visits nodes in order. */
export type EachNode = (fr: Frame, r: number, visit: (node: XdmItem) => void) => void;

/**
 * fn:zero-or-one and fn:exactly-one (F&O 3.1 §14.2.1, §14.2.3) of `a`: its items when there are at
 * most one (exactly one); with any other number the call declines, and saxon-js raises the
 * function's error (FORG0003, FORG0005) as the FLWOR as written would.
 */
function cardinalityChecked(a: Code, min: 0 | 1): Code {
  if (isSingle(a.t)) return min === 0 ? a : { t: a.t, f: (fr, r) => a.f!(fr, r) ?? decline() };
  if ((a.t !== 'L' && a.t !== 'A') || !a.count || !a.each || !a.one) return decline();
  const { count, each, one } = a;
  const checked = (fr: Frame, r: number): number => {
    const n = count(fr, r);
    return n < min || n > 1 ? decline() : n;
  };
  const nodes = a.nodes;
  return {
    t: a.t,
    each: (fr, r, visit) => (checked(fr, r), each(fr, r, visit)),
    count: checked,
    one: (fr, r) => (checked(fr, r), one(fr, r)),
    path: a.path,
    nodes:
      nodes &&
      (() => {
        const visitAll = nodes();
        return (fr, r, visit) => {
          checked(fr, r);
          visitAll(fr, r, visit);
        };
      }),
  };
}

/** fn:abs, fn:floor, fn:ceiling and fn:round on a number. */
const ROUNDING: Readonly<Record<string, (x: number) => number>> = { abs: Math.abs, floor: Math.floor, ceiling: Math.ceil, round: Math.round };

const SINGLE = new Set<Type>(['U', 'S', 'I', 'D', 'B']);
export const isSingle = (t: Type): boolean => SINGLE.has(t);
export const isNumeric = (t: Type): boolean => t === 'I' || t === 'D';
const isGrouped = (t: Type): boolean => t.startsWith('G');

/** An untyped value cast to xs:double (XPath 3.1 §3.7.1, F&O §19.2); a value that is no number raises FORG0001 there. */
export function castDouble(s: string): number {
  const n = numberValue(s);
  return n === undefined || Number.isNaN(n) ? decline() : n;
}

/** An integer result, declined beyond JavaScript's exact integers (xs:integer has no bound). */
export function exact(n: number): number {
  return Number.isSafeInteger(n) ? n : decline();
}

/** The value of a stored slot. */
export function stored(s: number, t: Type): Code {
  return { t, f: (fr, r) => fr.cols[s][r] };
}

/** A code of the stream before a group by clause, read per group over the group's tuples (type `G…`). */
export function grouped(inner: Code): Code {
  const t = `G${inner.t}` as Type;
  if (isGrouped(inner.t)) return decline();
  if (inner.t === 'N') return { t, count: (fr, g) => fr.start![g + 1] - fr.start![g] };
  const each: Each = inner.each
    ? (fr, g, visit) => {
        for (let k = fr.start![g]; k < fr.start![g + 1]; k++) if (inner.each!(fr.pre!, fr.rows![k], visit)) return true;
        return false;
      }
    : (fr, g, visit) => {
        for (let k = fr.start![g]; k < fr.start![g + 1]; k++) {
          const v = inner.f!(fr.pre!, fr.rows![k]) as Single;
          if (v !== null && visit(v)) return true;
        }
        return false;
      };
  const count: RowFn<number> = inner.count
    ? (fr, g) => {
        let n = 0;
        for (let k = fr.start![g]; k < fr.start![g + 1]; k++) n += inner.count!(fr.pre!, fr.rows![k]);
        return n;
      }
    : (fr, g) => {
        let n = 0;
        for (let k = fr.start![g]; k < fr.start![g + 1]; k++) if (inner.f!(fr.pre!, fr.rows![k]) !== null) n++;
        return n;
      };
  return { t, each, count };
}

/** The items of a value, visited (`Each`), for any type but `N` and `GN`. */
function eachOf(c: Code): Each {
  if (c.each) return c.each;
  if (!c.f || c.t === 'N') return decline();
  const f = c.f;
  return (fr, r, visit) => {
    const v = f(fr, r) as Single;
    return v !== null && visit(v);
  };
}

/** The type of the items of a value. */
function itemType(t: Type): Type {
  const base = (isGrouped(t) ? t.slice(1) : t) as Type;
  return base === 'L' || base === 'A' ? 'U' : base;
}

/** The string of an item as it is cast to xs:string (F&O §19.1.2): a double's as saxon-js writes it. */
function stringOf(t: Type): (v: Single) => string {
  switch (t) {
    case 'U':
    case 'S':
      return (v) => v as string;
    case 'I':
      return (v) => String(v);
    case 'B':
      return (v) => (v ? 'true' : 'false');
    case 'D':
      return (v) => doubleValue(v as number).toString();
    default:
      return decline();
  }
}

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
        const test = this.ebv(this.expr(e.test), true);
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
        const one = this.single(this.expr(e.a));
        if (e.f === 'data') return one;
        const s = this.text(one);
        return { t: 'S', f: s };
      }
      case 'call':
        return this.call(e.f, e.a.map((a) => this.expr(a)));
      case 'compare':
        return ['=', '!=', '<', '<=', '>', '>='].includes(e.op) ? this.general(e.op, this.expr(e.l), this.expr(e.r)) : this.value(e.op, this.expr(e.l), this.expr(e.r));
      case 'arith':
        return this.arith(e.op, this.expr(e.l), this.expr(e.r));
      case 'negate': {
        const a = this.single(this.expr(e.a));
        if (a.t === 'I') return { t: 'I', f: (fr, r) => {
          const v = a.f!(fr, r) as number | null;
          return v === null ? null : -v;
        } };
        const n = this.number(a);
        return { t: 'D', f: (fr, r) => {
          const v = n(fr, r);
          return v === null ? null : -v;
        } };
      }
      case 'and':
      case 'or': {
        const l = this.ebv(this.expr(e.l));
        const r = this.ebv(this.expr(e.r));
        return { t: 'B', f: e.x === 'and' ? (fr, row) => l(fr, row) && r(fr, row) : (fr, row) => l(fr, row) || r(fr, row) };
      }
      case 'sequence':
        return decline(); // only an enclosed expression of a constructor (`enclosedText`)
      case 'empty':
        return decline(); // only a branch of a conditional
      case 'if':
        return this.conditional(e.test, e.then, e.else);
      case 'cast':
        return this.cast(e.to, e.optional, this.single(this.expr(e.a)));
      case 'concat': {
        // XPath 3.1 §3.6: each operand atomized to at most one item, none as ""
        const l = this.text(this.single(this.expr(e.l)));
        const r = this.text(this.single(this.expr(e.r)));
        return { t: 'S', f: (fr, row) => (l(fr, row) ?? '') + (r(fr, row) ?? '') };
      }
    }
  }

  /**
   * `if (T) then A else B` (XQuery 3.1 §3.14): single values of one type, either branch `()`
   * for none.
   */
  private conditional(test: PlanExpr, then: PlanExpr, otherwise: PlanExpr): Code {
    const t = this.ebv(this.expr(test));
    const a = then.x === 'empty' ? undefined : this.expr(then);
    const b = otherwise.x === 'empty' ? undefined : this.expr(otherwise);
    const type = a?.t ?? b?.t ?? decline();
    if (!isSingle(type) || (a && a.t !== type) || (b && b.t !== type)) decline();
    const fa = a?.f ?? (() => null);
    const fb = b?.f ?? (() => null);
    return { t: type, f: (fr, r) => (t(fr, r) ? fa(fr, r) : fb(fr, r)) };
  }

  /**
   * `E cast as xs:integer | xs:double | xs:string` (XPath 3.1 §3.14.2, F&O §19): none gives none
   * for an optional target (XPTY0004 otherwise: declined); a value that does not cast (FORG0001,
   * FOCA0002) declines.
   */
  private cast(to: 'integer' | 'double' | 'string', optional: boolean, c: Code): Code {
    const f = c.f!;
    const none = optional ? () => null : decline;
    if (to === 'string') {
      const s = stringOf(c.t);
      return { t: 'S', f: (fr, r) => {
        const v = f(fr, r) as Single;
        return v === null ? none() : s(v);
      } };
    }
    const fromText = c.t === 'U' || c.t === 'S';
    const fromBoolean = c.t === 'B';
    if (!fromText && !fromBoolean && !isNumeric(c.t)) decline();
    if (to === 'double') {
      return { t: 'D', f: (fr, r) => {
        const v = f(fr, r) as Single;
        if (v === null) return none();
        return fromText ? castDouble(v as string) : fromBoolean ? (v ? 1 : 0) : (v as number);
      } };
    }
    return { t: 'I', f: (fr, r) => {
      const v = f(fr, r) as Single;
      if (v === null) return none();
      if (fromBoolean) return v ? 1 : 0;
      if (fromText) return INTEGER.test(v as string) ? exact(Number(v)) + 0 : decline();
      const n = v as number;
      return Number.isFinite(n) ? exact(Math.trunc(n)) + 0 : decline();
    } };
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

  /** At most one atomic item (more raises XPTY0004 where one is required): `U` for untyped values. */
  single(c: Code): Code {
    if (isSingle(c.t)) return c;
    if ((c.t === 'L' || c.t === 'A') && c.one) return { t: 'U', f: c.one };
    if (c.t === 'L' || c.t === 'A') {
      const each = c.each!;
      return { t: 'U', f: (fr, r) => {
        let v: Single = null;
        let n = 0;
        each(fr, r, (x) => {
          v = x;
          return ++n > 1;
        });
        return n > 1 ? decline() : v;
      } };
    }
    return decline();
  }

  /** A single value as xs:double (untyped cast as in arithmetic), null for none. */
  private number(c: Code): RowFn<number | null> {
    const f = c.f!;
    if (c.t === 'U') return (fr, r) => {
      const v = f(fr, r) as string | null;
      return v === null ? null : castDouble(v);
    };
    if (isNumeric(c.t)) return f as RowFn<number | null>;
    return decline();
  }

  /** The string of a single value, null for none. */
  private text(c: Code): RowFn<string | null> {
    const f = c.f!;
    const s = stringOf(c.t);
    return (fr, r) => {
      const v = f(fr, r) as Single;
      return v === null ? null : s(v);
    };
  }

  /**
   * The effective boolean value (F&O §7.3.1). `predicate`: in a predicate, where a number would
   * select by position, which is left to saxon-js.
   */
  ebv(c: Code, predicate = false): RowFn<boolean> {
    const f = c.f;
    switch (c.t) {
      case 'B':
        return (fr, r) => f!(fr, r) === true;
      case 'L':
        return (fr, r) => c.count!(fr, r) > 0; // nodes
      case 'A': {
        const one = this.single(c).f!;
        return (fr, r) => ((one(fr, r) as string | null) ?? '') !== ''; // more than one: FORG0006
      }
      case 'U':
      case 'S':
        return (fr, r) => ((f!(fr, r) as string | null) ?? '') !== '';
      case 'I':
      case 'D':
        if (predicate) return decline();
        return (fr, r) => {
          const v = f!(fr, r) as number | null;
          return v !== null && v !== 0 && !Number.isNaN(v);
        };
      case 'N':
        return () => true;
      default:
        return decline();
    }
  }

  /**
   * A general comparison (XPath 3.1 §3.7.2): true when some pair of atomized items compares
   * true, an untyped item cast to the other's type: to xs:double against a number, compared as
   * a string against a string or another untyped item. Every cast is made before any pair is
   * compared, so a cast that fails declines whatever the pairs before it gave.
   */
  private general(op: string, left: Code, right: Code): Code {
    const [lt, rt] = [itemType(left.t), itemType(right.t)];
    if (left.t === 'N' || right.t === 'N' || left.t === 'GN' || right.t === 'GN') decline();
    const strings = (lt === 'U' || lt === 'S') && (rt === 'U' || rt === 'S');
    const numbers = (isNumeric(lt) || lt === 'U') && (isNumeric(rt) || rt === 'U') && (isNumeric(lt) || isNumeric(rt));
    if (!strings && !numbers && !(lt === 'B' && rt === 'B')) decline();
    const test = comparison(op, strings);
    const le = eachOf(left);
    const re = eachOf(right);
    const check = (each: Each, t: Type): RowFn<void> | undefined =>
      numbers && t === 'U' ? (fr, r) => void each(fr, r, (v) => (castDouble(v as string), false)) : undefined;
    const lcheck = check(le, lt);
    const rcheck = check(re, rt);
    const lconv = numbers && lt === 'U' ? (v: Single) => castDouble(v as string) : (v: Single) => v;
    const rconv = numbers && rt === 'U' ? (v: Single) => castDouble(v as string) : (v: Single) => v;
    return {
      t: 'B',
      f: (fr, r) => {
        lcheck?.(fr, r);
        rcheck?.(fr, r);
        return le(fr, r, (a) => {
          const x = lconv(a);
          return re(fr, r, (b) => test(x, rconv(b)));
        });
      },
    };
  }

  /** A value comparison (XPath 3.1 §3.7.1): one item each (none: none), untyped as xs:string. */
  private value(op: string, left: Code, right: Code): Code {
    const l = this.single(left);
    const r = this.single(right);
    const kind = (t: Type): string => (t === 'U' || t === 'S' ? 'S' : isNumeric(t) ? 'D' : t);
    if (kind(l.t) !== kind(r.t) || !['S', 'D', 'B'].includes(kind(l.t))) decline();
    const test = comparison(({ eq: '=', ne: '!=', lt: '<', le: '<=', gt: '>', ge: '>=' } as Record<string, string>)[op] ?? decline(), kind(l.t) === 'S');
    return {
      t: 'B',
      f: (fr, row) => {
        const a = l.f!(fr, row) as Single;
        const b = r.f!(fr, row) as Single;
        return a === null || b === null ? null : test(a, b);
      },
    };
  }

  /**
   * Arithmetic (XPath 3.1 §3.5): one item each (none: none), untyped cast to xs:double;
   * integers stay integers except for `div` (an xs:decimal, left to saxon-js).
   */
  private arith(op: string, left: Code, right: Code): Code {
    const l = this.single(left);
    const r = this.single(right);
    if (l.t === 'I' && r.t === 'I') {
      if (op === 'div') decline();
      const calc = integerOp(op);
      return { t: 'I', f: (fr, row) => {
        const a = l.f!(fr, row) as number | null;
        const b = a === null ? null : (r.f!(fr, row) as number | null);
        return a === null || b === null ? null : calc(a, b);
      } };
    }
    if (op === 'idiv') decline();
    const a = this.number(l);
    const b = this.number(r);
    const calc = doubleOp(op);
    return { t: 'D', f: (fr, row) => {
      const x = a(fr, row);
      const y = x === null ? null : b(fr, row);
      return x === null || y === null ? null : calc(x, y);
    } };
  }

  /** A call of a function of the fn namespace (F&O 3.1), by local name. */
  private call(name: string, args: Code[]): Code {
    if (name === 'string-join' || name === 'concat') return this.join(name, args);
    if (STRING_FUNCTIONS.has(name)) return this.stringFunction(name, args);
    if (args.length !== 1) decline();
    const [a] = args;
    switch (name) {
      case 'string': {
        const s = this.text(this.single(a));
        return { t: 'S', f: (fr, r) => s(fr, r) ?? '' };
      }
      case 'number': {
        // F&O §4.5.1: the value cast to xs:double, NaN for none or for no number
        if (a.number) return { t: 'D', f: a.number };
        const one = this.single(a);
        const f = one.f!;
        if (one.t === 'B') return { t: 'D', f: (fr, r) => (f(fr, r) === null ? NaN : f(fr, r) ? 1 : 0) };
        if (isNumeric(one.t)) return { t: 'D', f: (fr, r) => f(fr, r) ?? NaN };
        return { t: 'D', f: (fr, r) => {
          const s = f(fr, r) as string | null;
          return s === null ? NaN : numberValue(s) ?? decline();
        } };
      }
      case 'data':
        if (a.t === 'L') return { ...a, t: 'A', nodes: undefined };
        if (a.t === 'N' || isGrouped(a.t)) decline();
        return a;
      case 'zero-or-one':
      case 'exactly-one':
        return cardinalityChecked(a, name === 'exactly-one' ? 1 : 0);
      case 'count':
        return { t: 'I', f: this.counter(a) };
      case 'exists':
      case 'empty': {
        const n = this.counter(a);
        return { t: 'B', f: name === 'exists' ? (fr, r) => n(fr, r) > 0 : (fr, r) => n(fr, r) === 0 };
      }
      case 'not':
      case 'boolean': {
        const b = this.ebv(a);
        return { t: 'B', f: name === 'not' ? (fr, r) => !b(fr, r) : b };
      }
      case 'sum':
      case 'avg':
      case 'min':
      case 'max':
        return aggregate(name, a);
      case 'abs':
      case 'floor':
      case 'ceiling':
      case 'round': {
        // F&O 3.1 §4.4: of the argument's type (an untyped value cast to xs:double); JavaScript's
        // functions agree on doubles (NaN, infinities, negative zero, round(-2.5) = -2)
        const one = this.single(a);
        const t = one.t === 'U' ? 'D' : one.t;
        const v = this.number(one);
        const op = ROUNDING[name];
        return { t, f: (fr, r) => {
          const x = v(fr, r);
          return x === null ? null : op(x);
        } };
      }
      default:
        return decline();
    }
  }

  /**
   * fn:string-join (F&O §5.4.2: the atomized items' strings joined by the separator, "" without
   * one) and fn:concat (§5.4.1: two or more arguments, each atomized to at most one item, none
   * as "").
   */
  private join(name: string, args: Code[]): Code {
    if (name === 'string-join') {
      if (args.length < 1 || args.length > 2) decline();
      const [items, separator] = args;
      const sep = separator ? this.single(separator) : undefined;
      if (sep && sep.t !== 'S' && sep.t !== 'U') decline();
      const strings = this.strings(items);
      return { t: 'S', f: (fr, r) => strings(fr, r, sep ? ((sep.f!(fr, r) as string | null) ?? '') : '') };
    }
    if (args.length < 2) decline();
    const parts = args.map((a) => this.text(this.single(a)));
    return { t: 'S', f: (fr, r) => {
      let out = '';
      for (const p of parts) out += p(fr, r) ?? '';
      return out;
    } };
  }

  /**
   * An argument declared `xs:string?` (F&O 3.1 §5.4): one item or none, "" for none, an
   * untyped value as its string; other types raise XPTY0004 (left to saxon-js).
   */
  private stringArg(c: Code): RowFn<string> {
    const one = this.single(c);
    if (one.t !== 'U' && one.t !== 'S') decline();
    const f = one.f!;
    return (fr, r) => (f(fr, r) as string | null) ?? '';
  }

  /** An argument declared `xs:double`: one number, an untyped value cast (FORG0001 when it does not cast: declined). */
  private doubleArg(c: Code): RowFn<number> {
    const n = this.number(this.single(c));
    return (fr, r) => n(fr, r) ?? decline(); // none: XPTY0004
  }

  /**
   * The string functions of F&O 3.1 §5.4 under the codepoint collation: contains, starts-with,
   * ends-with (§5.5), string-length and substring by codepoints, normalize-space, upper-case
   * and lower-case (JavaScript's full case mappings, as saxon-js's).
   */
  private stringFunction(name: string, args: Code[]): Code {
    if (name === 'substring') {
      if (args.length < 2 || args.length > 3) decline();
      const text = this.stringArg(args[0]);
      const start = this.doubleArg(args[1]);
      const length = args[2] ? this.doubleArg(args[2]) : undefined;
      return { t: 'S', f: (fr, r) => substring(text(fr, r), start(fr, r), length?.(fr, r)) };
    }
    const strings = args.map((a) => this.stringArg(a));
    const [a, b] = strings;
    if (strings.length !== (TWO_STRINGS.has(name) ? 2 : 1)) decline();
    switch (name) {
      case 'contains':
        return { t: 'B', f: (fr, r) => a(fr, r).includes(b(fr, r)) };
      case 'starts-with':
        return { t: 'B', f: (fr, r) => a(fr, r).startsWith(b(fr, r)) };
      case 'ends-with':
        return { t: 'B', f: (fr, r) => a(fr, r).endsWith(b(fr, r)) };
      case 'string-length':
        return { t: 'I', f: (fr, r) => codepoints(a(fr, r)) };
      case 'normalize-space':
        return { t: 'S', f: (fr, r) => a(fr, r).replace(/[ \t\n\r]+/g, ' ').replace(/^ | $/g, '') };
      case 'upper-case':
        return { t: 'S', f: (fr, r) => a(fr, r).toUpperCase() };
      default:
        return { t: 'S', f: (fr, r) => a(fr, r).toLowerCase() };
    }
  }

  /** fn:count of a value. */
  counter(c: Code): RowFn<number> {
    if (c.count) return c.count;
    if (c.t === 'N') return () => 1;
    const f = c.f!;
    return (fr, r) => (f(fr, r) === null ? 0 : 1);
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
      const strings = this.strings(codes[0]);
      return (fr, r) => strings(fr, r, ' ');
    }
    const parts = codes.map((c) => this.strings(c));
    const counts = codes.map((c) => this.counter(c));
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

  /** The strings of a value's atomized items, joined by a separator. */
  private strings(c: Code): (fr: Frame, r: number, separator: string) => string {
    if (c.t === 'N' || c.t === 'GN') decline();
    const s = stringOf(itemType(c.t));
    if (!c.each) {
      const f = c.f!;
      return (fr, r) => {
        const v = f(fr, r) as Single;
        return v === null ? '' : s(v);
      };
    }
    const each = c.each;
    return (fr, r, separator) => {
      let text = '';
      let first = true;
      each(fr, r, (v) => {
        text += first ? s(v) : separator + s(v);
        first = false;
        return false;
      });
      return text;
    };
  }
}

/** The lexical form of xs:integer, with the whitespace a cast strips. */
const INTEGER = /^[ \t\r\n]*[+-]?[0-9]+[ \t\r\n]*$/;

const TWO_STRINGS = new Set(['contains', 'starts-with', 'ends-with']);
const STRING_FUNCTIONS = new Set([...TWO_STRINGS, 'substring', 'string-length', 'normalize-space', 'upper-case', 'lower-case']);

/** The number of codepoints of a string (a surrogate pair is one). */
function codepoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** fn:round of a double (F&O §4.4.4): halves towards positive infinity. */
function round(x: number): number {
  return Number.isFinite(x) ? Math.floor(x + 0.5) : x;
}

/**
 * fn:substring (F&O §5.4.3): the codepoints at positions p (from 1) with round(start) <= p and,
 * with a length, p < round(start) + round(length); NaN compares false, so it selects none.
 */
function substring(text: string, start: number, length?: number): string {
  const from = round(start);
  const to = length === undefined ? Infinity : from + round(length);
  if (!(to > from)) return '';
  let out = '';
  let p = 0;
  for (const c of text) {
    p++;
    if (p >= from && p < to) out += c;
  }
  return out;
}

/** A comparison of two items of the same kind: strings by codepoints, numbers and booleans as JavaScript compares them. */
function comparison(op: string, strings: boolean): (a: Single, b: Single) => boolean {
  const test = comparisonTest(op as NumericComparison) as unknown as (a: Single, b: Single) => boolean;
  if (!strings || op === '=' || op === '!=') return test;
  return (a, b) => test(compareCodepoints(a as string, b as string), 0);
}

function integerOp(op: string): (a: number, b: number) => number {
  switch (op) {
    case '+':
      return (a, b) => exact(a + b);
    case '-':
      return (a, b) => exact(a - b);
    case '*':
      return (a, b) => exact(a * b);
    case 'mod':
      // the sign of the dividend, as JavaScript's %; by zero FOAR0001
      return (a, b) => (b === 0 ? decline() : a % b === 0 ? 0 : a % b);
    default:
      return (a, b) => (b === 0 ? decline() : exact(Math.trunc(a / b)));
  }
}

function doubleOp(op: string): (a: number, b: number) => number {
  switch (op) {
    case '+':
      return (a, b) => a + b;
    case '-':
      return (a, b) => a - b;
    case '*':
      return (a, b) => a * b;
    case 'div':
      return (a, b) => a / b;
    default:
      return (a, b) => a % b; // IEEE remainder with the dividend's sign (F&O §4.2.6)
  }
}

/**
 * fn:sum, avg, min and max (F&O §14.4) of untyped values, each cast to xs:double, of doubles,
 * or of integers: the sum of none is 0, the others of none none; a NaN makes min and max NaN.
 */
function aggregate(name: string, c: Code): Code {
  const item = itemType(c.t);
  if (!c.each || (item !== 'U' && !isNumeric(item))) return decline();
  const integers = item === 'I';
  if (integers && name === 'avg') decline(); // an xs:decimal
  // leaves are read as numbers from their column's numbers when it has them
  const each = (c.eachNumber ?? c.each) as (fr: Frame, r: number, visit: (v: Single) => boolean) => boolean;
  const value = item === 'U' && !c.eachNumber ? (v: Single) => castDouble(v as string) : (v: Single) => v as number;
  const t: Type = integers ? 'I' : 'D';
  return {
    t,
    f: (fr, r) => {
      let n = 0;
      let acc = name === 'sum' || name === 'avg' ? 0 : NaN;
      let nan = false;
      each(fr, r, (v) => {
        const x = value(v);
        if (Number.isNaN(x)) nan = true;
        if (name === 'sum' || name === 'avg') acc += x;
        else if (n === 0 || (name === 'max' ? x > acc : x < acc)) acc = x;
        n++;
        return false;
      });
      // the sum of no items is the xs:integer 0, not a double: left to saxon-js
      if (name === 'sum') return integers ? exact(acc) : n === 0 ? decline() : acc;
      if (n === 0) return null;
      if (name === 'avg') return acc / n;
      return nan ? NaN : acc;
    },
  };
}
