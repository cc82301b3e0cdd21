/**
 * FLWOR with order by, group by, count and window clauses (language/translate/flwor/advanced.ts and
 * its flwor-*.ts parts): XQuery text → exact adaptive serialization (items separated by
 * " | "), or the error code, through the engine facade.
 */
import { createEngine, type Engine, type QueryContext } from '../../../../../lib/xquery/engine/engine';
import { QueryError } from '../../../../../lib/xquery/query-error';

let engine: Engine;
beforeAll(() => {
  engine = createEngine({ workers: 1, timeoutMs: 20000 });
});
afterAll(async () => {
  await engine.close();
});

async function run(query: string, context: QueryContext = { kind: 'none' }): Promise<string> {
  try {
    const out = await engine.evaluate({ query, context, variables: new Map(), serialization: { method: 'adaptive', 'item-separator': ' | ' } });
    return String(out.body);
  } catch (e) {
    if (e instanceof QueryError) return `[${e.code}]`;
    throw e;
  }
}

type Case = readonly [query: string, expected: string];

function table(name: string, cases: readonly Case[], context?: QueryContext): void {
  describe(name, () => {
    it.each(cases)('%s', async (query, expected) => {
      expect(await run(query, context)).toBe(expected);
    });
  });
}

table('order by', [
  ['for $x in (3, 1, 2) order by $x return $x', '1 | 2 | 3'],
  ['for $x in (3, 1, 2) order by $x descending return $x', '3 | 2 | 1'],
  ['for $x in (3, 1, 2) stable order by $x ascending return $x', '1 | 2 | 3'],
  ['for $x in ("b", "a", "c") order by $x return $x', '"a" | "b" | "c"'],
  // ties keep the input order (stable), second key breaks ties
  ['for $p in ([1, "b"], [2, "a"], [1, "a"], [2, "b"]) order by $p(1) return $p(2)', '"b" | "a" | "a" | "b"'],
  ['for $p in ([1, "b"], [2, "a"], [1, "a"], [2, "b"]) order by $p(1) descending, $p(2) return $p(1) || $p(2)', '"2a" | "2b" | "1a" | "1b"'],
  // empty least (default), empty greatest, with NaN next to the empty sequence
  ['for $x in (2, 0, 1) order by (if ($x eq 0) then () else $x) return $x', '0 | 1 | 2'],
  ['for $x in (1, 2, 3) order by (if ($x eq 2) then () else $x) empty greatest return $x', '1 | 3 | 2'],
  ['declare default order empty greatest; for $x in (1, 2, 3) order by (if ($x eq 2) then () else $x) return $x', '1 | 3 | 2'],
  ['for $x in (1, 2, 3) order by (if ($x eq 2) then () else $x) descending empty greatest return $x', '2 | 3 | 1'],
  ['for $x in (1, 2, 3) order by (if ($x eq 2) then () else $x) descending return $x', '3 | 1 | 2'],
  [
    'let $n := (1, xs:double("NaN"), -1, xs:double("-INF")) return (for $i in $n order by $i return $i, "|", for $i in $n order by $i empty greatest return $i)',
    'NaN | -INF | -1 | 1 | "|" | -INF | -1 | 1 | NaN',
  ],
  ['for $i in (xs:double("NaN"), 1, ()) order by $i empty least return $i', 'NaN | 1'],
  // mixed numeric types compare numerically
  ['for $x in (2.5, 1, 3e0, xs:float(0.5)) order by $x return $x', 'xs:float("0.5") | 1 | 2.5 | 3.0e0'],
  // untypedAtomic compares as a string
  ['for $e in (<a>10</a>, <a>9</a>, <a>100</a>) order by $e return string($e)', '"10" | "100" | "9"'],
  ['for $e in (<a>10</a>, <a>9</a>, <a>100</a>) order by number($e) return string($e)', '"9" | "10" | "100"'],
  // collations
  ['for $s in ("b", "B", "a", "A") order by $s return $s', '"A" | "B" | "a" | "b"'],
  [
    'for $s in ("b", "B", "a", "A") order by $s collation "http://www.w3.org/2005/xpath-functions/collation/html-ascii-case-insensitive" return $s',
    '"a" | "A" | "b" | "B"',
  ],
  ['for $s in ("b", "a") order by $s collation "http://www.w3.org/2005/xpath-functions/collation/codepoint" return $s', '"a" | "b"'],
  ['for $s in ("b", "a") order by $s collation "http://example.com/unknown" return $s', '[XQST0076]'],
  // type errors
  ['for $x in (1, "a") order by $x return $x', '[XPTY0004]'],
  ['for $x in (1, 2) order by ($x, $x) return $x', '[XPTY0004]'],
  ['for $x in (1, 2) order by map{} return $x', '[FOTY0013]'],
  // with the other clauses, positional variables, nested FLWORs, constructors
  ['for $x at $i in ("c", "a", "b") let $y := upper-case($x) where $i gt 1 order by $y return $y || $i', '"A2" | "B3"'],
  ['for $x in (3, 1, 2) order by $x where $x gt 1 return $x', '2 | 3'],
  ['for $x in (3, 1, 2) order by $x for $y in (1 to $x) return $x * 10 + $y', '11 | 21 | 22 | 31 | 32 | 33'],
  ['let $k := 10 return for $x in (3, 1, 2) order by $k - $x return <r v="{$x}">{$k}</r>', '<r v="3">10</r> | <r v="2">10</r> | <r v="1">10</r>'],
  ['for $x in (2, 1) order by (for $y in (3, $x) order by $y return $y)[1] return $x', '1 | 2'],
  ['for $x in (2, 1) order by $x let $x := $x * 100 return $x', '100 | 200'],
  ['for $x as xs:integer in (2, 1) order by $x return $x', '1 | 2'],
  ['for $x as xs:string in (2, 1) order by $x return $x', '[XPTY0004]'],
  ['declare function local:f($n) { for $x in 1 to $n order by -$x return $x }; local:f(3)', '3 | 2 | 1'],
  ['for $x in () order by $x return $x', ''],
]);

table('group by', [
  ['for $x in 1 to 7 group by $k := $x mod 3 return $k || ":" || string-join($x, ",")', '"1:1,4,7" | "2:2,5" | "0:3,6"'],
  ['for $x in 1 to 7 let $y := $x * 10 group by $k := $x mod 2 return sum($y)', '160 | 120'],
  ['for $x in (1, 2, 1, 3) group by $x return $x', '1 | 2 | 3'],
  ['for $x in 1 to 4 let $k := $x mod 2 group by $k order by $k return $k || ":" || count($x)', '"0:2" | "1:2"'],
  // empty keys form one group; keys of different specs do not merge
  ['for $x in (1, 2, 3, 4) group by $k := (if ($x le 2) then () else "a") return count($x)', '2 | 2'],
  ['for $x in (1, 2) let $a := (if ($x eq 1) then "v" else ()), $b := (if ($x eq 1) then () else "v") group by $a, $b return count($x)', '1 | 1'],
  // untypedAtomic equals the string, 1 equals 1.0e0, NaN equals NaN, incomparable keys differ
  ['for $x in (<a>x</a>, "x", <a>y</a>) group by $k := $x return count($x)', '2 | 1'],
  ['for $x in (1, 1.0e0, 1.0, xs:float(1)) group by $k := $x return count($x)', '4'],
  ['for $x in (xs:double("NaN"), xs:float("NaN")) group by $k := $x return count($x)', '2'],
  ['for $x in (1, "1") group by $k := $x return count($x)', '1 | 1'],
  // the grouping variable holds the atomized key
  ['for $x in (<a>x</a>, <a>x</a>) group by $k := $x return ($k instance of xs:untypedAtomic, count($x))', 'true() | 2'],
  ['for $x in (<a>x</a>) group by $k as xs:untypedAtomic := $x return $k instance of xs:untypedAtomic', 'true()'],
  ['for $x in (<a>x</a>) group by $k as element() := $x return $k', '[XPTY0004]'],
  ['for $x in (1, 2) group by $k := ($x, $x) return $k', '[XPTY0004]'],
  ['for $x in (1, 2) group by $nope return $x', '[XQST0094]'],
  ['let $outer := 1 return for $x in (1, 2) group by $outer return $x', '[XQST0094]'],
  // the latest binding of a name is the grouping variable
  ['count(for $y in 1 to 10 group by $y := $y, $y := $y mod 2 return $y)', '2'],
  // collations: codepoint by default
  ['for $s in ("a", "A", "a") group by $k := $s return count($s)', '2 | 1'],
  [
    'for $s in ("a", "A", "b") group by $k := $s collation "http://www.w3.org/2005/xpath-functions/collation/html-ascii-case-insensitive" return count($s)',
    '2 | 1',
  ],
  // clauses after grouping see the regrouped variables
  ['for $x in 1 to 6 group by $k := $x mod 2 let $n := count($x) where $k eq 1 return $n', '3'],
  ['for $x in 1 to 6 group by $k := $x mod 3 count $c return $c || "=" || $k', '"1=1" | "2=2" | "3=0"'],
  ['for $x in 1 to 4 group by $k := $x mod 2 group by $j := count($x) return $j || ":" || string-join($k, ",")', '"2:1,0"'],
  ['for $x in () group by $k := $x return 1', ''],
]);

table('count', [
  ['for $x in ("a", "b", "c") count $c return $c || $x', '"1a" | "2b" | "3c"'],
  ['for $x in 1 to 6 where $x mod 2 eq 0 count $c return [$c, $x]', '[1,2] | [2,4] | [3,6]'],
  ['for $x in (3, 1, 2) order by $x count $c return $c * $x', '1 | 4 | 9'],
  ['for $x in (3, 1, 2) count $c order by $x return $c', '2 | 3 | 1'],
  ['for $x in 1 to 3 count $c where $c ge 2 count $d return [$c, $d]', '[2,1] | [3,2]'],
  ['let $s := "x" count $c return ($s, $c, $c instance of xs:integer)', '"x" | 1 | true()'],
  ['for $x in 1 to 2, $y in 1 to 2 count $c return $c', '1 | 2 | 3 | 4'],
]);

table('window', [
  ['for tumbling window $w in 1 to 7 start $s when $s mod 3 eq 1 return [$w]', '[(1,2,3)] | [(4,5,6)] | [7]'],
  ['for tumbling window $w in 1 to 7 start at $i when $i mod 3 eq 2 return [$w]', '[(2,3,4)] | [(5,6,7)]'],
  ['for tumbling window $w in 1 to 7 start $s when true() end $e when $e mod 2 eq 0 return [$w]', '[(1,2)] | [(3,4)] | [(5,6)] | [7]'],
  ['for tumbling window $w in 1 to 7 start $s when true() only end $e when $e mod 2 eq 0 return [$w]', '[(1,2)] | [(3,4)] | [(5,6)]'],
  ['for tumbling window $w in 1 to 6 start $s when $s eq 2 end $e when $e eq 3 return [$w]', '[(2,3)]'],
  [
    'for tumbling window $w in ("a", "b", "c", "d") start $s at $i previous $p next $n when $i mod 2 eq 1 end $e at $j previous $ep next $en when $j eq $i + 1 return [$s, $i, $p, $n, $e, $j, $ep, $en]',
    '["a",1,(),"b","b",2,"a","c"] | ["c",3,"b","d","d",4,"c",()]',
  ],
  ['for sliding window $w in 1 to 5 start $s when true() end $e when $e - $s eq 2 return [$w]', '[(1,2,3)] | [(2,3,4)] | [(3,4,5)] | [(4,5)] | [5]'],
  ['for sliding window $w in 1 to 5 start $s when true() only end $e when $e - $s eq 2 return [$w]', '[(1,2,3)] | [(2,3,4)] | [(3,4,5)]'],
  ['for sliding window $w in (1, 2, 3) start when true() end when true() return [$w]', '[1] | [2] | [3]'],
  ['for tumbling window $w in () start when true() return [$w]', ''],
  ['for tumbling window $w as xs:integer+ in 1 to 4 start $s when $s mod 2 eq 1 return sum($w)', '3 | 7'],
  ['for tumbling window $w as xs:string+ in 1 to 4 start $s when $s mod 2 eq 1 return sum($w)', '[XPTY0004]'],
  ['for tumbling window $w in 1 to 4 start $w when true() return $w', '[XQST0103]'],
  ['for sliding window $w in 1 to 4 start $s at $i when true() end $e at $i when true() return $w', '[XQST0103]'],
  // windows combined with the other clauses and the enclosing variables
  ['let $size := 2 for tumbling window $w in ("a", "b", "c") start at $i when ($i - 1) mod $size eq 0 order by count($w) return string-join($w)', '"c" | "ab"'],
  ['for $r in (1, 2) for tumbling window $w in 1 to 4 start $s when $s mod $r eq 0 return count($w)', '1 | 1 | 1 | 1 | 2 | 1'],
  ['for tumbling window $w in 1 to 6 start $s when $s mod 2 eq 1 count $c where $c ne 2 return $c || ":" || sum($w)', '"1:3" | "3:11"'],
  ['for tumbling window $w in (<a>1</a>, <a>2</a>) start $s when $s eq "2" return name($w)', '"a"'],
  ['for tumbling window $w in 1 to 3 start when true() return for tumbling window $v in $w start when true() return $v', '1 | 2 | 3'],
]);

table(
  'the focus is unchanged by the FLWOR',
  [
    ['for $x in (2, 1) order by $x return name(.)', '"" | ""'],
    ['for $b in /r/b order by $b/@k return string($b) || count(/r/b)', '"y2" | "x2"'],
    ['for $b in /r/b group by $k := $b/@k = /r/b[1]/@k return count($b)', '1 | 1'],
    ['for tumbling window $w in (1, 2, 3) start $s when $s eq count(/r/b) return count($w)', '2'],
    ['for sliding window $w in (1, 2, 3) start $s when $s le count(r/b) end $e when $e eq count(./r/b) return count($w)', '2 | 1'],
  ],
  { kind: 'documents', xml: ['<r><b k="2">x</b><b k="1">y</b></r>'] },
);

table('without a context item', [
  ['for $x in (1, 2) order by . return $x', '[XPDY0002]'],
  ['for tumbling window $w in (1, 2) start when . return $w', '[XPDY0002]'],
]);

describe('static errors point at the clause', () => {
  it.each([
    ['for $x in (1, 2)\ngroup by $nope\nreturn $x', 'XQST0094', 2, 10],
    ['for $x in (1, 2)\norder by $x collation "urn:no"\nreturn $x', 'XQST0076', 2, 10],
    ['for tumbling window $w in (1, 2)\nstart $w when true()\nreturn $w', 'XQST0103', 1, 1],
  ])('%s', async (query, code, line, column) => {
    const error = await engine
      .evaluate({ query, context: { kind: 'none' }, variables: new Map(), serialization: {} })
      .then(() => null, (e: unknown) => e as { code?: string; position?: { line: number; column: number } });
    expect(error?.code).toBe(code);
    expect(error?.position).toEqual({ line, column });
  });
});
