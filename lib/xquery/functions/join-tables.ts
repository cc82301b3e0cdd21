/**
 * The key table of a hash join (translate/flwor/join.ts), held in JavaScript:
 *
 *   Q{urn:xmldb-rest:engine}join-probe($items as array(*), $keys as array(*)*, $values as xs:anyAtomicType*) as xs:integer*
 *   Q{urn:xmldb-rest:engine}join-count($items as array(*), $keys as array(*)*, $values as xs:anyAtomicType*) as xs:integer
 *
 * `$items` is the join's inner sequence as an array, made once where the join is bound; its table
 * is built from `$keys` the first time join-probe is called with it, and kept as long as the
 * array (by the array object's identity). `$keys` has an array per item of `$items`, in order,
 * whose one member is the item's atomized key values (`for $b in B return [data(R)]`); it is
 * read only when the table is built, so later probes and a join whose probe never runs (a nested
 * FLWOR that engine:leaf-tuples answers) never compute the keys. join-probe gives the positions of
 * the items whose keys may equal one of `$values` under general comparison, ascending, each once;
 * the join's `where` clause still compares each pair itself, so a candidate too many costs time,
 * never an answer. join-count answers how many they are when they are exactly the items that
 * pass the comparison, else -1 (the caller then counts those that pass its `where` clause): a
 * join whose items are only counted (translate/flwor/join-count.ts) fetches none of them.
 *
 * The keys keep general comparison's rules (XQuery 3.1 §3.7.2, the codepoint collation): an
 * xs:untypedAtomic compares as a string with strings and untyped values and as an xs:double
 * with numbers; xs:anyURI as a string; numbers after promotion, which equal values survive as
 * doubles; NaN equals nothing. So a table holds `s` + the string of each untyped, string and URI
 * key, `n` + the double of each number, `u` + the double of each untyped key that casts to one.
 * Where the nested loop could raise an error (a string against a number, an untyped value that
 * casts to no number against a number) or values of other types take part, the probe answers
 * every position and the loop compares as written. Against no items, the values are not read.
 * Equal keys are equal values, so the candidates are exact, but where numbers meet numbers: two
 * xs:decimal or xs:integer values compare exactly, not as the doubles their keys are, and an
 * xs:float meets an xs:decimal as an xs:float.
 *
 * Both sides were XPath once, one conditional per key with a regular expression and a cast for
 * each untyped value, and the table and the probe two calls: XMark Q8 took 1.8 s at factor 1
 * (25,500 people against 9,750 auctions), 0.87 s with this. An XDM map from keys to positions was
 * the join's own before that: saxon-js's maps compare the keys of a bucket one by one as XDM
 * values.
 */
import { ENGINE_NS } from '../constants';
import { TypeCode, atomicDerivesFrom, castString, integerValue, registerFunctions, type XdmArray, type XdmAtomic, type XdmValue } from '../../saxon';

export const JOIN_PROBE_FUNCTION = 'join-probe';
export const JOIN_COUNT_FUNCTION = 'join-count';

interface Table {
  /** Positions (1-based, ascending, each once) by key. */
  readonly positions: Map<string, number[]>;
  /** Items in the inner sequence. */
  readonly size: number;
  /** Some key is a string or a URI, a number, an untyped value that is no number, of another type. */
  readonly str: boolean;
  readonly num: boolean;
  readonly badUntyped: boolean;
  readonly other: boolean;
}

const tables = new WeakMap<object, Table>();

/** The first character after whitespace of a string that may cast to xs:double (a sign, a digit, `.`, `INF`, `NaN`). */
const DOUBLE_START = /^\s*[0-9+\-.IN]/;

/** The xs:double an untyped value casts to, or undefined when it casts to none (saxon's cast decides). */
function untypedDouble(s: string): number | undefined {
  if (!DOUBLE_START.test(s)) return undefined;
  try {
    return Number(castString(s, 'double').value);
  } catch {
    return undefined;
  }
}

/**
 * What general comparison compares of one key or probe value (see the file comment): an untyped
 * value's string and the double it casts to (undefined: none), the string of a string or URI, the
 * double of a number (a decimal promoted as XPath promotes it: to the nearest double), or nothing
 * this table looks up. Both sides read their values through this, each making its own keys.
 */
type Compared =
  | { readonly kind: 'untyped'; readonly s: string; readonly d: number | undefined }
  | { readonly kind: 'string'; readonly s: string }
  | { readonly kind: 'number'; readonly d: number }
  | { readonly kind: 'other' };

function compared(value: XdmAtomic): Compared {
  if (atomicDerivesFrom(value, TypeCode.untypedAtomic)) {
    const s = String(value);
    return { kind: 'untyped', s, d: untypedDouble(s) };
  }
  if (atomicDerivesFrom(value, TypeCode.string) || atomicDerivesFrom(value, TypeCode.anyURI)) return { kind: 'string', s: String(value) };
  if (atomicDerivesFrom(value, TypeCode.decimal)) return { kind: 'number', d: Number(String(value)) };
  if (atomicDerivesFrom(value, TypeCode.double) || atomicDerivesFrom(value, TypeCode.float)) return { kind: 'number', d: Number(value.value) };
  return { kind: 'other' };
}

/** The key of a double that is not NaN (−0 and 0 are equal). */
const numberKey = (d: number): string => (d === 0 ? '0' : String(d));

function build(members: XdmValue): Table {
  const positions = new Map<string, number[]>();
  const flags = { str: false, num: false, badUntyped: false, other: false };
  const add = (key: string, position: number): void => {
    const list = positions.get(key);
    if (list === undefined) positions.set(key, [position]);
    else if (list[list.length - 1] !== position) list.push(position);
  };
  members.forEach((member, i) => {
    const position = i + 1;
    for (const item of (member as XdmArray).value[0]) {
      const key = compared(item as XdmAtomic);
      if (key.kind === 'untyped') {
        add(`s${key.s}`, position);
        if (key.d === undefined) flags.badUntyped = true;
        else if (key.d === key.d) add(`u${numberKey(key.d)}`, position);
      } else if (key.kind === 'string') {
        flags.str = true;
        add(`s${key.s}`, position);
      } else if (key.kind === 'number') {
        flags.num = true;
        if (key.d === key.d) add(`n${numberKey(key.d)}`, position);
      } else flags.other = true;
    }
  });
  return { positions, size: members.length, ...flags };
}

/** The table of `items`, built from `keys` the first time. */
function tableOf(items: XdmValue, keys: () => XdmValue): Table {
  const handle = items[0] as object;
  let table = tables.get(handle);
  if (table === undefined) tables.set(handle, (table = build(keys())));
  return table;
}

/**
 * The keys to look up for `values`, and whether a number is among them; undefined where every
 * item is a candidate (see the file comment).
 */
function lookups(table: Table, values: XdmValue): { keys: string[]; numbers: boolean } | undefined {
  if (table.other) return undefined;
  const keys: string[] = [];
  let numbers = false;
  for (const item of values) {
    const value = compared(item as XdmAtomic);
    if (value.kind === 'untyped') {
      keys.push(`s${value.s}`);
      if (value.d === undefined) {
        if (table.num) return undefined;
      } else if (value.d === value.d) keys.push(`n${numberKey(value.d)}`);
    } else if (value.kind === 'string') {
      if (table.num) return undefined;
      keys.push(`s${value.s}`);
    } else if (value.kind === 'number') {
      if (table.str || table.badUntyped) return undefined;
      numbers = true;
      if (value.d === value.d) keys.push(`n${numberKey(value.d)}`, `u${numberKey(value.d)}`);
    } else return undefined;
  }
  return { keys, numbers };
}

/** The positions of the items with one of `keys`, ascending, each once. */
function positionsOf(table: Table, keys: readonly string[]): readonly number[] {
  if (keys.length === 1) return table.positions.get(keys[0]) ?? [];
  const all = new Set<number>();
  for (const key of keys) for (const p of table.positions.get(key) ?? []) all.add(p);
  return [...all].sort((a, b) => a - b);
}

function joinProbe([items, keys, values]: (() => XdmValue)[]): XdmValue {
  const table = tableOf(items(), keys);
  // the values are atomized only where the nested loop would compare them: not against no items
  if (table.size === 0) return [];
  const wanted = lookups(table, values());
  const positions = wanted === undefined ? Array.from({ length: table.size }, (_, i) => i + 1) : positionsOf(table, wanted.keys);
  return positions.map((p) => integerValue(p));
}

function joinCount([items, keys, values]: (() => XdmValue)[]): XdmValue {
  const table = tableOf(items(), keys);
  if (table.size === 0) return [integerValue(0)];
  const wanted = lookups(table, values());
  const exact = wanted !== undefined && !(wanted.numbers && table.num);
  return [integerValue(exact ? positionsOf(table, wanted.keys).length : -1)];
}

/** Registers engine:join-probe and engine:join-count with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerJoinTableFunctions(): void {
  registerFunctions(ENGINE_NS, {
    [JOIN_PROBE_FUNCTION]: { sig: '1F r[*ADI] a[1FA,*FA,*A]', lazy: true, impl: joinProbe },
    [JOIN_COUNT_FUNCTION]: { sig: '1F r[1ADI] a[1FA,*FA,*A]', lazy: true, impl: joinCount },
  });
}
