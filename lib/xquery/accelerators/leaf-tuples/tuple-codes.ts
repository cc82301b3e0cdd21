/**
 * The typed code of a leaf-tuples plan's expressions (tuple-expressions.ts): a function of a row
 * of the tuple stream (tuple-frame.ts) with the type of its value known before any row is seen:
 * - `L`: leaf nodes (a path of `$v`): their string values, which are also their atomized values,
 *   xs:untypedAtomic (the trees are untyped); `A`: such values atomized (`data()`);
 * - `U`: one xs:untypedAtomic or none (one leaf taken where one item is required);
 * - `S`, `I`, `D`, `B`: one xs:string, xs:integer, xs:double, xs:boolean or none;
 * - `N`: the for variable's element; after a group by clause, `G` before a type: per group, the
 *   values of its tuples.
 * Single values (`U`, `S`, `I`, `D`, `B`) are JavaScript strings, numbers and booleans, null for
 * none; sequences (`L`, `A`, `G…`) are read item by item, never built.
 *
 * Here: the types, and the conversions every operation applies to its operands (one item, a
 * number, a string, an effective boolean value, a count); an operand of a type a conversion has
 * no exact rule for declines the plan (`decline`), as in tuple-expressions.ts.
 */
import { doubleValue, type XdmItem } from '../../../saxon';
import { numberValue } from '../leaf-columns/leaf-values';
import type { Column } from '../leaf-columns/leaf-columns';
import { decline, type Frame } from './tuple-frame';

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

const SINGLE = new Set<Type>(['U', 'S', 'I', 'D', 'B']);
export const isSingle = (t: Type): boolean => SINGLE.has(t);
export const isNumeric = (t: Type): boolean => t === 'I' || t === 'D';
export const isGrouped = (t: Type): boolean => t.startsWith('G');

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
export function eachOf(c: Code): Each {
  if (c.each) return c.each;
  if (!c.f || c.t === 'N') return decline();
  const f = c.f;
  return (fr, r, visit) => {
    const v = f(fr, r) as Single;
    return v !== null && visit(v);
  };
}

/** The type of the items of a value. */
export function itemType(t: Type): Type {
  const base = (isGrouped(t) ? t.slice(1) : t) as Type;
  return base === 'L' || base === 'A' ? 'U' : base;
}

/** The string of an item as it is cast to xs:string (F&O §19.1.2): a double's as saxon-js writes it. */
export function stringOf(t: Type): (v: Single) => string {
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

/** At most one atomic item (more raises XPTY0004 where one is required): `U` for untyped values. */
export function single(c: Code): Code {
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
export function numberOf(c: Code): RowFn<number | null> {
  const f = c.f!;
  if (c.t === 'U') return (fr, r) => {
    const v = f(fr, r) as string | null;
    return v === null ? null : castDouble(v);
  };
  if (isNumeric(c.t)) return f as RowFn<number | null>;
  return decline();
}

/** The string of a single value, null for none. */
export function textOf(c: Code): RowFn<string | null> {
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
export function ebv(c: Code, predicate = false): RowFn<boolean> {
  const f = c.f;
  switch (c.t) {
    case 'B':
      return (fr, r) => f!(fr, r) === true;
    case 'L':
      return (fr, r) => c.count!(fr, r) > 0; // nodes
    case 'A': {
      const one = single(c).f!;
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

/** fn:count of a value. */
export function counter(c: Code): RowFn<number> {
  if (c.count) return c.count;
  if (c.t === 'N') return () => 1;
  const f = c.f!;
  return (fr, r) => (f(fr, r) === null ? 0 : 1);
}

/** The strings of a value's atomized items, joined by a separator. */
export function joinedStrings(c: Code): (fr: Frame, r: number, separator: string) => string {
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
