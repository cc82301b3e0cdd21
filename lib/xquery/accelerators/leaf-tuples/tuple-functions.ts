/**
 * The calls of functions of the fn namespace (F&O 3.1) in a leaf-tuples plan's expressions,
 * compiled for the types of their arguments (tuple-codes.ts), each only where its rules are
 * implemented exactly (cited where applied); anything else declines the plan. Strings compare
 * by codepoints (the planner plans only under the codepoint collation).
 */
import { numberValue } from '../leaf-columns/leaf-values';
import { decline, type Frame } from './tuple-frame';
import { castDouble, counter, ebv, exact, isGrouped, isNumeric, isSingle, itemType, joinedStrings, numberOf, single, textOf, type Code, type RowFn, type Single, type Type } from './tuple-codes';

/** A call of a function of the fn namespace (F&O 3.1), by local name. */
export function functionCall(name: string, args: Code[]): Code {
  if (name === 'string-join' || name === 'concat') return join(name, args);
  if (STRING_FUNCTIONS.has(name)) return stringFunction(name, args);
  if (args.length !== 1) decline();
  const [a] = args;
  switch (name) {
    case 'string': {
      const s = textOf(single(a));
      return { t: 'S', f: (fr, r) => s(fr, r) ?? '' };
    }
    case 'number': {
      // F&O §4.5.1: the value cast to xs:double, NaN for none or for no number
      if (a.number) return { t: 'D', f: a.number };
      const one = single(a);
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
      return { t: 'I', f: counter(a) };
    case 'exists':
    case 'empty': {
      const n = counter(a);
      return { t: 'B', f: name === 'exists' ? (fr, r) => n(fr, r) > 0 : (fr, r) => n(fr, r) === 0 };
    }
    case 'not':
    case 'boolean': {
      const b = ebv(a);
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
      const one = single(a);
      const t = one.t === 'U' ? 'D' : one.t;
      const v = numberOf(one);
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

/**
 * fn:string-join (F&O §5.4.2: the atomized items' strings joined by the separator, "" without
 * one) and fn:concat (§5.4.1: two or more arguments, each atomized to at most one item, none
 * as "").
 */
function join(name: string, args: Code[]): Code {
  if (name === 'string-join') {
    if (args.length < 1 || args.length > 2) decline();
    const [items, separator] = args;
    const sep = separator ? single(separator) : undefined;
    if (sep && sep.t !== 'S' && sep.t !== 'U') decline();
    const strings = joinedStrings(items);
    return { t: 'S', f: (fr, r) => strings(fr, r, sep ? ((sep.f!(fr, r) as string | null) ?? '') : '') };
  }
  if (args.length < 2) decline();
  const parts = args.map((a) => textOf(single(a)));
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
function stringArg(c: Code): RowFn<string> {
  const one = single(c);
  if (one.t !== 'U' && one.t !== 'S') decline();
  const f = one.f!;
  return (fr, r) => (f(fr, r) as string | null) ?? '';
}

/** An argument declared `xs:double`: one number, an untyped value cast (FORG0001 when it does not cast: declined). */
function doubleArg(c: Code): RowFn<number> {
  const n = numberOf(single(c));
  return (fr, r) => n(fr, r) ?? decline(); // none: XPTY0004
}

/**
 * The string functions of F&O 3.1 §5.4 under the codepoint collation: contains, starts-with,
 * ends-with (§5.5), string-length and substring by codepoints, normalize-space, upper-case
 * and lower-case (JavaScript's full case mappings, as saxon-js's).
 */
function stringFunction(name: string, args: Code[]): Code {
  if (name === 'substring') {
    if (args.length < 2 || args.length > 3) decline();
    const text = stringArg(args[0]);
    const start = doubleArg(args[1]);
    const length = args[2] ? doubleArg(args[2]) : undefined;
    return { t: 'S', f: (fr, r) => substring(text(fr, r), start(fr, r), length?.(fr, r)) };
  }
  const strings = args.map((a) => stringArg(a));
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
