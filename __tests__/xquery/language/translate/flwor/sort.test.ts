/**
 * `for $v in E let $x := X where W order by K return R` sorted without tuple maps
 * (language/translate/flwor/sort.ts, xquery/functions/order-tuples.ts), and the order by clause of the general tuple
 * stream sorted the same way: every query must answer exactly what the clause's own sort
 * (`xsl:perform-sort`, order.ts) answers, errors included, and what XQuery 3.1 §3.12.8 says.
 * That sort answers the query with a last order spec `0.5` added: an xs:decimal key, which the
 * JavaScript sort leaves to it, and which orders nothing (equal keys keep their order).
 */
import { compareCodepoints } from '../../../../../lib/xquery/functions/order-tuples';
import { doc, engineFixture } from '../helpers';
import { translate } from '../../../../helpers/translation';

const e = engineFixture();
const CALL = 'Q{urn:xmldb-rest:engine}order-tuples';
/**
 * The sorted tuples feed the for clause binding `$v` (or the tuple) directly, not a tuple stream's
 * segment; with keys that are leaves of `$v`, when the sort by leaves (leaf-order.ts) declines.
 */
const SORTED_FOR = /for \$Q\{urn:xmldb-rest:var\}[^ ]+ in (\(if \([^)]*exists\(\$Q\{urn:xmldb-rest:var\}sorted\.\d+\)\) then \$Q\{urn:xmldb-rest:var\}sorted\.\d+\(1\) else )?Q\{urn:xmldb-rest:gen\}lib\.order-\d/;
const rewritten = (query: string): boolean => SORTED_FOR.test(translate(query, 'single').xslt);
const sortedInJs = (query: string): boolean => translate(query, 'single').xslt.includes(CALL);
/** The same FLWOR through the general tuple stream: a count clause before its first let, where or order by. */
const generalOf = (query: string): string => query.replace(/ (let|where|stable order by|order by) /, ' count $unused $1 ');
/** The same FLWOR sorted by the clause's own sort: `0.5` added as the last order spec. */
const ownSortOf = (query: string): string => {
  const at = query.indexOf(' return ', query.indexOf('order by'));
  return `${query.slice(0, at)}, 0.5${query.slice(at)}`;
};

async function answer(query: string, xml: string): Promise<string> {
  try {
    return await e.adaptive(query, { context: doc(xml), serialization: { 'item-separator': ' | ' } });
  } catch (err) {
    return `[${(err as { code?: string }).code ?? String(err)}]`;
  }
}

async function same(query: string, expected: string, xml = '<r/>'): Promise<void> {
  const general = generalOf(query);
  expect(general).not.toBe(query);
  expect(rewritten(query)).toBe(true);
  expect(rewritten(general)).toBe(false);
  expect(sortedInJs(general)).toBe(true);
  const [got, inStream, want] = await Promise.all([answer(query, xml), answer(general, xml), answer(ownSortOf(query), xml)]);
  expect(got).toBe(want);
  expect(inStream).toBe(want);
  expect(got).toBe(expected);
}

const ITEMS =
  '<items><item id="a"><price>10</price><name>x</name></item><item id="b"><price>9.5</price><name>y</name></item>' +
  '<item id="c"><price>10</price><name>X</name></item><item id="d"><name>z</name></item><item id="e"><price>NaN</price><name>x</name></item></items>';

describe('translate: order by over one for variable without tuple maps', () => {
  it.each([
    ['for $x in (3, 1, 2) order by $x return $x', '1 | 2 | 3'],
    ['for $x in (3, 1, 2) order by $x descending return $x', '3 | 2 | 1'],
    ['for $x in () order by $x return $x', ''],
    // integers beside doubles compare as doubles; floats alone, doubles beside floats
    ['for $x in (2, 1.5e0, -3, 1) order by $x return $x', '-3 | 1 | 1.5e0 | 2'],
    ['for $x in (xs:float(2.5), 1e0, xs:float(-1)) order by $x return $x', 'xs:float("-1") | 1.0e0 | xs:float("2.5")'],
    // a float beside an integer, and decimals: the general sort answers
    ['for $x in (xs:float(2.5), 1, 3) order by $x return $x', '1 | xs:float("2.5") | 3'],
    ['for $x in (2.5, 1, 3e0, 0.1) order by $x descending return $x', '3.0e0 | 2.5 | 1 | 0.1'],
    // empty and NaN: () < NaN < values, or values < NaN < (), in either direction
    ['for $x in (2, 0, 1, -1) order by (if ($x eq 0) then () else if ($x lt 0) then xs:double("NaN") else $x) return $x', '0 | -1 | 1 | 2'],
    ['for $x in (2, 0, 1, -1) order by (if ($x eq 0) then () else if ($x lt 0) then xs:double("NaN") else $x) empty greatest return $x', '1 | 2 | -1 | 0'],
    ['for $x in (2, 0, 1, -1) order by (if ($x eq 0) then () else if ($x lt 0) then xs:double("NaN") else $x) descending return $x', '2 | 1 | -1 | 0'],
    ['for $x in (2, 0, 1, -1) order by (if ($x eq 0) then () else if ($x lt 0) then xs:float("NaN") else $x) descending empty greatest return $x', '0 | -1 | 2 | 1'],
    ['declare default order empty greatest; for $x in (1, 2, 3) order by (if ($x eq 2) then () else $x) return $x', '1 | 3 | 2'],
    ['for $x in (xs:double("-INF"), xs:double("INF"), -0e0, 0e0) order by $x descending return $x', 'INF | -0.0e0 | 0.0e0 | -INF'],
    // equal keys keep their input order, ascending and descending
    ['for $x in (1, 2, 3, 4, 5, 6) order by $x mod 3 return $x', '3 | 6 | 1 | 4 | 2 | 5'],
    ['for $x in (1, 2, 3, 4, 5, 6) order by $x mod 3 descending return $x', '2 | 5 | 1 | 4 | 3 | 6'],
    ['for $x in (1, 2, 3, 4) stable order by () descending return $x', '1 | 2 | 3 | 4'],
    ['for $x in ("b", "a", "b", "a") order by $x descending return $x', '"b" | "b" | "a" | "a"'],
    // strings by codepoint: astral characters sort after U+FFFD (not by UTF-16 code units)
    ['for $c in (65533, 119070, 97, 55295, 57344) order by codepoints-to-string($c) return $c', '97 | 55295 | 57344 | 65533 | 119070'],
    ['for $s in ("b", "B", "a", "A", "", "ab") order by $s return $s', '"" | "A" | "B" | "a" | "ab" | "b"'],
    // untypedAtomic keys compare as strings, anyURI as strings beside strings
    ['for $e in (<a>10</a>, <a>9</a>, <a>100</a>) order by $e return string($e)', '"10" | "100" | "9"'],
    ['for $x in (xs:anyURI("b"), "c", xs:untypedAtomic("a")) order by $x return string($x)', '"a" | "b" | "c"'],
    // another collation, and other types: the general sort answers
    [
      'for $s in ("b", "B", "a", "A") order by $s collation "http://www.w3.org/2005/xpath-functions/collation/html-ascii-case-insensitive" return $s',
      '"a" | "A" | "b" | "B"',
    ],
    ['for $d in (xs:date("2020-02-01"), xs:date("2019-12-31")) order by $d return string($d)', '"2019-12-31" | "2020-02-01"'],
    ['for $b in (true(), false(), true()) order by $b descending return $b', 'true() | true() | false()'],
    // several specs
    ['for $p in ([1, "b"], [2, "a"], [1, "a"], [2, "b"]) order by $p(1) descending, $p(2) return $p(1) || $p(2)', '"2a" | "2b" | "1a" | "1b"'],
    ['for $p in ([1, "b"], [2, "a"], [1, "a"], [2, xs:date("2000-01-01")]) order by $p(1), $p(2) return $p(1)', '[XPTY0004]'],
    // where clauses, the binding's type, outer variables and the focus
    ['for $x in 1 to 10 where $x mod 2 = 0 where $x gt 2 order by -$x return $x', '10 | 8 | 6 | 4'],
    ['for $x as xs:integer in (2, 1) order by $x return $x', '1 | 2'],
    ['for $x as xs:string in (2, 1) order by $x return $x', '[XPTY0004]'],
    ['let $k := 10 return for $x in (3, 1, 2) order by $k - $x return $x + $k', '13 | 12 | 11'],
    ['let $x := 5 return for $x in (3, 1) order by $x return $x', '1 | 3'],
    ['for $x in (2, 1) order by $x return name(.) || "|" || name(*)', '"|r" | "|r"'],
    // errors: a key of two items, keys of incomparable types, a key that cannot be atomized
    ['for $x in (1, 2) order by ($x, $x) return $x', '[XPTY0004]'],
    ['for $x in (1, "a") order by $x return $x', '[XPTY0004]'],
    ['for $x in (1, 2) order by map{} return $x', '[FOTY0013]'],
    ['for $x in (1, 2) order by $x return error(xs:QName("err:FOER0000"))', '[FOER0000]'],
    // let clauses: their values travel with the tuple, in binding order, evaluated once
    ['for $x in (3, 1, 2) let $y := $x * 10 order by $y descending return $y + $x', '33 | 22 | 11'],
    ['for $i in 1 to 20 let $x := ($i * 7) mod 9 where $x mod 3 = 1 order by $x descending, $i return $i || ":" || $x', '"1:7" | "10:7" | "19:7" | "7:4" | "16:4" | "4:1" | "13:1"'],
    ['for $x in (3, 1, 2) let $y := ($x, $x) where $x ne 2 order by $x return count($y)', '2 | 2'],
    ['for $x in (2, 1) let $y := () order by $x return count($y)', '0 | 0'],
    ['for $x in (3, 1, 2) let $x := -$x order by $x return $x', '-3 | -2 | -1'],
    ['for $x in (3, 1, 2) let $y := $x mod 2 where $y = 1 let $z := $x + $y, $y := $z * 2 order by $z descending, $x return $z || "/" || $y', '"4/8" | "2/4"'],
    ['for $x in (2, 1) let $m := map{"k": $x}, $a := [$x, ($x, $x)] order by $x return $m?k + array:size($a) + count($a(2))', '5 | 6'],
    ['for $x in (2, 1) let $e := <e n="{$x}"/> let $f := $e order by $x return ($e is $f) and $e/@n = $x', 'true() | true()'],
    ['for $x in (2, 1) let $e := <e n="{$x}"/> order by $e/@n return $e', '<e n="1"/> | <e n="2"/>'],
    ['for $x in (2, 1) let $y as xs:integer+ := ($x, 1) order by $x return sum($y)', '2 | 3'],
    ['for $x in (1, 2) let $y as xs:string := $x order by $x return $y', '[XPTY0004]'],
    ['for $x in (1, 2) let $y := 1 div ($x - 2) order by $x return $x', '[FOAR0001]'],
    ['for $x in (1, 2) let $y := ($x, $x) order by $y return $x', '[XPTY0004]'],
    ['for $x in (1, 2) let $y := if ($x = 1) then "a" else 1 order by $y return $x', '[XPTY0004]'],
    ['for $x in (2, 1) let $k := 10 - $x order by $k empty greatest return .', '<r/> | <r/>'],
  ])('%s', async (query, expected) => {
    await same(query, expected, '<r/>');
  });

  it.each([
    ['for $i in //item where $i/price > 9 order by number($i/price) descending return string($i/@id)', '"a" | "c" | "b"'],
    ['for $i in //item order by number($i/price) return string($i/@id)', '"d" | "e" | "b" | "a" | "c"'],
    ['for $i in //item order by number($i/price) descending empty greatest return string($i/@id)', '"d" | "e" | "a" | "c" | "b"'],
        // untyped keys are strings: "NaN" after "10"
    ['for $i in //item order by $i/name, $i/price descending return string($i/@id)', '"c" | "e" | "a" | "b" | "d"'],
    ['for $i in //item order by $i/price return string($i/@id)', '"d" | "a" | "c" | "b" | "e"'],
    ['for $i in //item order by $i/price cast as xs:double? return string($i/@id)', '"d" | "e" | "b" | "a" | "c"'],
    ['for $n in //item/name order by $n return $n/../@id/string()', '"c" | "a" | "e" | "b" | "d"'],
    ['for $i in //item order by xs:decimal($i/price) return string($i/@id)', '[FORG0001]'],
  ])('%s (documents)', async (query, expected) => {
    await same(query, expected, ITEMS);
  });

  it('leaves other FLWORs to the general tuple stream', () => {
    for (const query of [
      'for $x at $i in (3, 1) order by $x return $i',
      'for $x allowing empty in () order by $x return count($x)',
      'for $x in (3, 1), $y in (1, 2) order by $x return $y',
      'for $x in (3, 1) let $y := $x order by $y count $c return $c',
      'for $x in (2, 1) let $f := function() { $x } order by $x return $f()',
      'for $x in (2, 1) let $f := (1, 2, function() { $x }) order by $x return $f[3]()',
      'for $x in (2, 1) let $f := concat($x, ?) order by $x return $f("")',
      'for $x in (3, 1) order by $x count $c return $c',
      'let $y := 1 for $x in (3, 1) order by $x return $x',
    ]) {
      expect(rewritten(query)).toBe(false);
    }
  });

  it('raises static errors in the order of the clauses', async () => {
    const sorted = await e.error('for $x in (1, 2) where $a order by $b return $x');
    expect(sorted.body).toBe('Stopped at ., 1/24:\n[XPST0008] Undeclared variable: $a.');
    const lets = await e.error('for $x in (1, 2) let $y := $b where $a order by $c return $x');
    expect(lets.body).toBe('Stopped at ., 1/28:\n[XPST0008] Undeclared variable: $b.');
  });

  it('answers the general forms the same', async () => {
    expect(await answer('for $x allowing empty in () order by $x return count($x)', '<r/>')).toBe('0');
    expect(await answer('for $x at $i in ("c", "a", "b") order by $x descending return $i', '<r/>')).toBe('1 | 3 | 2');
  });
});

describe('compareCodepoints', () => {
  it.each([
    ['a', 'b', -1],
    ['b', 'a', 1],
    ['a', 'a', 0],
    ['', 'a', -1],
    ['ab', 'a', 1],
    ['\uFFFD', '\u{1D11E}', -1],
    ['\u{1D11E}', '\uE000', 1],
    ['\uD7FF', '\u{10000}', -1],
    ['\u{10000}', '\u{10001}', -1],
  ])('%j vs %j', (a, b, sign) => {
    expect(Math.sign(compareCodepoints(a, b))).toBe(sign);
  });
});
