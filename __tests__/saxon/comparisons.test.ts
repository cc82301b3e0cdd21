/**
 * The comparer and string-order patches (lib/saxon/patches/comparers.ts, string-order.ts):
 * comparers that depend on their key alone are built once and handed out again, the others on
 * every call; strings compare by code point as before, with and without characters outside the
 * BMP and lone surrogates; and comparisons, sorts and groupings answer what they answered
 * unpatched.
 */
import { saxon } from '../../lib/saxon';
import { applyQueryPatches } from '../../lib/saxon/patches';

type Comparer = { equals(a: unknown, b: unknown): boolean; compare(a: unknown, b: unknown): number };
const compare = () => (saxon().internals as unknown as { Compare: { be(key: string, context: unknown): Comparer } }).Compare;
const str = (s: string) => saxon().Atomic.codes.AS!.fromString(s) as unknown as { compareTo(o: unknown): number };
const untyped = (s: string) => saxon().Atomic.codes.AZ!.fromString(s) as unknown as { compareTo(o: unknown): number };

/** Strings whose order by code point differs from their order by UTF-16 unit, and lone surrogates. */
const STRINGS = ['', 'a', 'ab', 'abc', 'b', 'B', '\u00e9', '\uffff', '\u{10000}', '\u{1F600}', 'a\u{1F600}', 'a\uffff', 'a\ud800', 'a\udc00', '\ud800', '\udc00', '\ud800\udc00', '\ud800a', 'x\ud83d', 'x\ud83d\ude00', '\ue000', 'a\ue000b'];

const QUERIES = [
  'for $a in $s, $b in $s return compare($a, $b)',
  'for $a in $s, $b in $s return ($a = $b, $a < $b, $a eq $b, $a ge $b)',
  'sort($s) ! string-to-codepoints(.) ! string(.) => string-join(",")',
  'distinct-values(($s, $s)) => count()',
  'for $a in $s, $b in $s return (xs:untypedAtomic($a) = $b, xs:anyURI($a) < xs:anyURI($b))',
  '(1, 2.5, 1e0, xs:float(2)) = (1, 2), (1, 2) < (0, 3), sort((3, 1.5, 2e0, -1)), min(("b", "a")), max((1, 2.5))',
  'sort((1, 3, 2), (), function($x) { 0 - $x }), reverse(sort($s, (), function($x) { $x }))',
  'for-each-pair($s, reverse($s), function($a, $b) { $a != $b })',
  'deep-equal(("a", 1), ("a", 1)), index-of(("a", "b", "a"), "a"), xs:date("2020-01-01") < xs:date("2021-01-01")',
];

function run(query: string): string {
  const s = STRINGS.map((v) => saxon().Atomic.codes.AS!.fromString(v));
  try {
    const value = saxon().XPath.evaluate(query, null, { params: { s }, resultForm: 'array' }) as unknown[];
    return value.map(String).join(' ');
  } catch (e) {
    return `error ${(e as { code?: string }).code}`;
  }
}

describe('comparisons', () => {
  const expected = new Map<string, string>();
  const order = new Map<string, number>();
  beforeAll(() => {
    // saxon-js's own answers, before the patches
    for (const q of QUERIES) expected.set(q, run(q));
    for (const a of STRINGS) for (const b of STRINGS) order.set(`${a}\u0000${b}`, str(a).compareTo(untyped(b)));
    applyQueryPatches();
  });

  test('a comparer that depends on its key alone is built once', () => {
    for (const key of ['GAC|http://www.w3.org/2005/xpath-functions/collation/codepoint', 'NC', 'DESC|DblSC', 'EQC']) {
      expect(compare().be(key, null)).toBe(compare().be(key, null));
    }
  });

  test('a comparer that reads the run (collations) is built on every call', () => {
    const context = { fixed: {} };
    const key = 'CAC|http://www.w3.org/2005/xpath-functions/collation/codepoint';
    let a: unknown;
    let b: unknown;
    try {
      a = compare().be(key, context);
      b = compare().be(key, context);
    } catch {
      // without a run's collations saxon-js cannot build it: then it fails every time, never kept
      expect(() => compare().be(key, context)).toThrow();
      return;
    }
    expect(a).not.toBe(b);
  });

  test('strings compare by code point as before, pair by pair', () => {
    for (const a of STRINGS) for (const b of STRINGS) expect([a, b, str(a).compareTo(untyped(b))]).toEqual([a, b, order.get(`${a}\u0000${b}`)]);
  });

  test('fixed answers by code point, not UTF-16 unit', () => {
    expect(str('\u{10000}').compareTo(str('\uffff'))).toBe(1);
    expect(str('\ue000').compareTo(str('\u{1F600}'))).toBe(-1);
    expect(str('ab').compareTo(str('abc'))).toBe(-1);
    expect(str('b').compareTo(str('abc'))).toBe(1);
    expect(str('abc').compareTo(str('abc'))).toBe(0);
  });

  test.each(QUERIES)('%s: the same answer as unpatched, twice', (q) => {
    expect(expected.get(q)).not.toMatch(/^error/);
    expect(run(q)).toBe(expected.get(q));
    expect(run(q)).toBe(expected.get(q));
  });

  test('a string against another type is still a type error', () => {
    expect(run('"a" < 1')).toBe('error XPTY0004');
    expect(() => str('a').compareTo(saxon().Atomic.codes.ADI!.fromString('1'))).toThrow(/Cannot compare/);
  });
});
