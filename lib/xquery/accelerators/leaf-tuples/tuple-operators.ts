/**
 * The operators of a leaf-tuples plan's expressions, compiled for the types of their operands
 * (tuple-codes.ts): general and value comparisons, arithmetic and casts, each only for the types
 * whose rules (XPath 3.1, F&O 3.1, cited where applied) it implements exactly; anything else
 * declines the plan, and a value that would raise an error declines the call while it runs.
 */
import { compareCodepoints } from '../../functions/order-tuples';
import { comparisonTest, type NumericComparison } from '../leaf-columns/leaf-values';
import { decline } from './tuple-frame';
import { castDouble, eachOf, exact, isNumeric, itemType, numberOf, single, stringOf, type Code, type Each, type RowFn, type Single, type Type } from './tuple-codes';

/**
 * `E cast as xs:integer | xs:double | xs:string` (XPath 3.1 §3.14.2, F&O §19): none gives none
 * for an optional target (XPTY0004 otherwise: declined); a value that does not cast (FORG0001,
 * FOCA0002) declines.
 */
export function castAs(to: 'integer' | 'double' | 'string', optional: boolean, c: Code): Code {
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

/**
 * A general comparison (XPath 3.1 §3.7.2): true when some pair of atomized items compares
 * true, an untyped item cast to the other's type: to xs:double against a number, compared as
 * a string against a string or another untyped item. Every cast is made before any pair is
 * compared, so a cast that fails declines whatever the pairs before it gave.
 */
export function generalComparison(op: string, left: Code, right: Code): Code {
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
export function valueComparison(op: string, left: Code, right: Code): Code {
  const l = single(left);
  const r = single(right);
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
export function arithmetic(op: string, left: Code, right: Code): Code {
  const l = single(left);
  const r = single(right);
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
  const a = numberOf(l);
  const b = numberOf(r);
  const calc = doubleOp(op);
  return { t: 'D', f: (fr, row) => {
    const x = a(fr, row);
    const y = x === null ? null : b(fr, row);
    return x === null || y === null ? null : calc(x, y);
  } };
}

/** The lexical form of xs:integer, with the whitespace a cast strips. */
const INTEGER = /^[ \t\r\n]*[+-]?[0-9]+[ \t\r\n]*$/;

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
