import type { QueryContext } from '../../../../../lib/xquery/engine/engine';
import { doc, engineFixture } from '../helpers';
import { translate } from '../../../../helpers/translation';

const e = engineFixture();

const joined = (query: string): boolean => translate(query, 'single').xslt.includes('join-probe(');

/** The same FLWOR with a `let` after the first binding: not rewritten, evaluated as nested loops. */
const nested = (query: string): string => query.replace(', $t in ', ' let $nested-loop := () for $t in ');

const outcome = (query: string, context: QueryContext): Promise<string> => e.outcome(query, context);

const SITE = doc(
  '<site><people><person id="p1"/><person id="p2"/><person id="p3" n="1.0"/><person id="p4" n="-0"/></people>' +
    '<auctions><a buyer="p2" v="1" w="abc"/><a buyer="p1" v="1.0" w="x"/><a buyer="p9" v="1e0"/><a buyer="p2" v="NaN"/>' +
    '<a><buyer>p3</buyer><buyer>p1</buyer><buyer>p3</buyer></a><a buyer=" p1" v="0"/></auctions></site>',
);

describe('value joins as hash joins', () => {
  it('rewrites a FLWOR joining two node sets by value, and only such FLWORs', () => {
    expect(joined('for $p in //person, $t in //a where $t/@buyer = $p/@id return $t')).toBe(true);
    expect(joined('for $p in //person for $t in //a where $p/@id = $t/@buyer return $t')).toBe(true);
    expect(joined(nested('for $p in //person, $t in //a where $t/@buyer = $p/@id return $t'))).toBe(false);
    // a join per outer item in a let clause
    expect(joined('for $p in //person let $b := for $t in //a where $t/@buyer = $p/@id return $t return count($b)')).toBe(true);
    expect(joined('for $p in //person let $n := count(for $t in //a where $t/@buyer = $p/@id return $t) return $n')).toBe(true);
    // a where clause before the let does not guard it as a conditional would (XQuery 3.1 §2.3.4)
    expect(joined('for $p in //person where $p/@id let $b := for $t in //a where $t/@buyer = $p/@id return $t return count($b)')).toBe(true);
    expect(joined('for $p in //person let $b := if ($p/@id) then (for $t in //a where $t/@buyer = $p/@id return $t) else () return count($b)')).toBe(false);
    // the inner domain reads the outer variable, a constructor, a predicate on the key path
    expect(joined('for $p in //person, $t in $p//a where $t/@buyer = $p/@id return $t')).toBe(false);
    expect(joined('for $p in //person, $t in <x/>/a where $t/@buyer = $p/@id return $t')).toBe(false);
    expect(joined('for $p in //person, $t in //a where $t/@buyer[1] = $p/@id return $t')).toBe(false);
    // a value comparison, and a collation of the query's own
    expect(joined('for $p in //person, $t in //a where $t/@buyer eq $p/@id return $t')).toBe(false);
  });

  it('groups the inner domain by key once, in a table of its own, and fetches candidates by position from an array', () => {
    const query = 'for $p in //person, $t in //a where $t/@buyer = $p/@id return $t';
    const { xslt } = translate(query, 'single');
    expect(xslt.split('Q{urn:xmldb-rest:engine}join-probe(')).toHaveLength(2);
    // the keys of both sides are made in JavaScript, not by a conditional per key in XPath
    expect(xslt).not.toContain('castable as');
    expect(xslt).not.toContain('instance of');
    expect(xslt).not.toContain('subsequence(');
    expect(xslt).not.toContain('map}merge(');
    expect(xslt).not.toContain('map}contains(');
  });

  it.each([
    // untyped against untyped compares strings: " p1" is not "p1"; sequences on both sides; B's order
    ['for $p in //person, $t in //a where $t/@buyer = $p/@id return $p/@id || ">" || count($t/preceding-sibling::a)'],
    ['for $p in //person, $t in //a where $p/@id = $t/buyer return $p/@id || ">" || count($t/preceding-sibling::a)'],
    ['for $x in (1, 2), $t in //a where $t/buyer = //person/@id return $x || ">" || count($t/preceding-sibling::a)'],
    ['for $p in //person, $t in //a where $t/buyer = $p/@id return $p/@id || ">" || count($t/preceding-sibling::a)'],
    // untyped against numbers compares doubles: "1", "1.0", "1e0" equal 1; -0 equals 0; NaN nothing
    ['for $n in (1, 1.0, 1e0, 0, -0e0, 0 div 0e0, xs:float("1")), $t in //a[@v] where $t/@v = $n return $n || ">" || count($t/preceding-sibling::a)'],
    // untyped against untyped numbers-as-strings: "1.0" is not "1"
    ['for $p in //person[@n], $t in //a where $t/@v = $p/@n return $p/@id || ">" || count($t/preceding-sibling::a)'],
    // strings against untyped; an empty probe; probe values of another type
    ['for $s in ("p1", "p2", ()), $t in //a where $t/@buyer = $s return $s || count($t/preceding-sibling::a)'],
    ['for $s in (xs:anyURI("p2"), xs:untypedAtomic("p1")), $t in //a where $t/@buyer = $s return count($t/preceding-sibling::a)'],
    ['for $s in (true(), xs:date("2020-01-01")), $t in //a where $t/@buyer = $s return 1'],
    // errors the nested loop raises: a number against an untyped value that is no number
    ['for $n in (1, 2), $t in //a[@w] where $t/@w = $n return 1'],
    ['for $n in ("x", 2), $t in //a[@w] where $t/@w = $n return $n'],
    // the inner domain is not evaluated when the outer one is empty
    ['for $p in (), $t in //a where $t/@buyer = $p return 1'],
    // an inner domain out of document order, with an item twice: each candidate in its order, as often
    ['let $s := (reverse(//a), //a[2]) for $p in //person, $t in $s where $t/buyer = $p/@id return $p/@id || ">" || count($t/preceding-sibling::a)'],
    // several probe values whose candidates overlap: merged into the inner domain's order once each
    ['let $s := (//a[5], //a) for $x in (1, 2), $t in $s where $t/buyer = ("p3", "p1") return $x || ">" || count($t/preceding-sibling::a)'],
    // an inner domain of atomic values: numbers and strings as keys, typed probes
    ['let $s := (1, 2.0, 1e0, xs:float(2), 0 div 0e0, -0e0) for $n in (1, 2, 0, xs:untypedAtomic("2"), xs:untypedAtomic(" 1 "), 0 div 0e0), $v in $s where $v = $n return $n || ">" || $v'],
    ['let $s := ("a", xs:anyURI("b"), xs:untypedAtomic("a"), "b") for $n in ("a", xs:untypedAtomic("b"), xs:anyURI("a")), $v in $s where $v = $n return $n || ">" || $v'],
    // keys of kinds a probe cannot be looked up against: the nested loop raises its errors
    ['let $s := (1, "a") for $n in (1, 2), $v in $s where $v = $n return $v'],
    ['let $s := (1, "a") for $n in ("a", "b"), $v in $s where $v = $n return $v'],
    ['let $s := (1, 2) for $n in (xs:untypedAtomic("1"), xs:untypedAtomic("x")), $v in $s where $v = $n return $v'],
    ['let $s := (xs:untypedAtomic("1"), xs:untypedAtomic("x")) for $n in (1, 2), $v in $s where $v = $n return $v'],
    ['let $s := (xs:date("2020-01-01"), "a") for $n in ("a", "b"), $v in $s where $v = $n return $v'],
    ['let $s := (xs:date("2020-01-01"), xs:date("2020-01-02")) for $n in (xs:date("2020-01-02")), $v in $s where $v = $n return string($v)'],
  ])('%s', async (query) => {
    expect(joined(query)).toBe(true);
    expect(await outcome(query, SITE)).toBe(await outcome(nested(query), SITE));
  });

  it.each([
    ['for $p in //person let $b := for $t in //a where $t/buyer = $p/@id return $t return <n id="{$p/@id}">{count($b)}</n>'],
    ['for $p in //person let $n := count(for $t in //a where $t/@buyer = $p/@id return $t), $m := sum(for $t in //a where $t/@v = $n return 1) return $n || "/" || $m'],
  ])('per outer item: %s', async (query) => {
    expect(joined(query)).toBe(true);
    // an inner domain that reads the outer variable is scanned for each outer item
    const nestedLoop = query.replaceAll('for $t in //a', 'for $t in //a[exists($p)]');
    expect(joined(nestedLoop)).toBe(false);
    expect(await outcome(query, SITE)).toBe(await outcome(nestedLoop, SITE));
  });

  it('gives the nested loop answers in order', async () => {
    expect(await e.adaptive('for $p in //person, $t in //a where $t/@buyer = $p/@id return $p/@id || "-" || count($t/preceding-sibling::a)', { context: SITE })).toBe(
      '"p1-1"\n"p2-0"\n"p2-3"',
    );
  });

  it('raises the errors of the inner domain when the outer one is not empty', async () => {
    const q = 'for $p in (1, 2), $t in //a where $t/@buyer = $p return 1';
    expect((await e.error(q)).code).toBe('XPDY0002');
    expect(await e.adaptive('for $p in (), $t in //a where $t/@buyer = $p return 1')).toBe('');
  });
});

/** Whether the translation counts a hash join's matches from its table (join-count.ts) rather than fetching them. */
const counted = (query: string): boolean => translate(query, 'single').xslt.includes('}join-count(');

/** The query with its inner domain reading the outer variable (the first one bound): not a join, a nested loop. */
const nestedCount = (query: string): string => {
  const outer = /for (\$\w+) in/.exec(query)![1];
  return query.replace(/for \$t in (\S+) where/, `for $t in ($1)[exists(${outer})] where`);
};

describe('hash joins only counted', () => {
  const q8 = 'for $p in //person let $c := for $t in //a where $t/@buyer = $p/@id return $t return <n id="{$p/@id}">{count($c)}</n>';

  it('counts from the table when the variable is only counted, and only then', () => {
    expect(counted(q8)).toBe(true);
    expect(counted(q8.replace('count($c)', 'empty($c)'))).toBe(true);
    expect(counted(q8.replace('count($c)', 'exists($c)'))).toBe(true);
    // the items are needed
    expect(counted(q8.replace('count($c)', 'count($c), $c[1]'))).toBe(false);
    expect(counted(q8.replace('return $t return', 'return $t/.. return'))).toBe(false);
    expect(joined(q8.replace('count($c)', 'count($c), $c[1]'))).toBe(true);
  });

  // each against the same FLWOR whose inner domain reads the outer variable: a nested loop
  it.each([
    // untyped against untyped: strings (" p1" is not "p1"); an item with several keys counts once
    ['for $p in //person let $c := for $t in //a where $t/@buyer = $p/@id return $t return $p/@id || ":" || count($c)'],
    ['for $p in //person let $c := for $t in //a where $t/buyer = $p/@id return $t return $p/@id || ":" || count($c) || empty($c) || exists($c)'],
    // numbers against untyped values: doubles; NaN equals nothing, -0 equals 0
    ['for $n in (1, 1.0, 1e0, 0, -0e0, 0 div 0e0, xs:float("1")) let $c := for $t in //a[@v] where $t/@v = $n return $t return $n || ":" || count($c)'],
    // numbers against numbers: compared as written, not as doubles
    ['let $s := (1, 2.0, 1e0, xs:float(2), 0 div 0e0, -0e0, 9007199254740993, 0.1000000000000000000001) for $n in (1, 2, 0, 9007199254740992, 0.1, xs:float(0.1), xs:untypedAtomic("2")) let $c := for $t in $s where $t = $n return $t return $n || ":" || count($c)'],
    // strings, URIs and untyped values; an inner domain with an item twice counts it twice
    ['let $s := ("a", xs:anyURI("b"), xs:untypedAtomic("a"), "b", "a") for $n in ("a", xs:untypedAtomic("b"), xs:anyURI("a"), "c") let $c := for $t in $s where $t = $n return $t return $n || ":" || count($c)'],
    // an empty inner domain, an empty probe
    ['for $n in ("a", ()) let $c := for $t in //none where $t = $n return $t return count($c)'],
    ['for $p in //person let $c := for $t in //a where $t/@none = $p/@id return $t return count($c)'],
  ])('%s', async (query) => {
    expect(counted(query)).toBe(true);
    const nestedLoop = nestedCount(query);
    expect(counted(nestedLoop)).toBe(false);
    expect(await outcome(query, SITE)).toBe(await outcome(nestedLoop, SITE));
  });

  it.each([
    // the nested loop raises: a string against a number, an untyped value that is no number against a number, another type
    ['let $s := (1, "a") for $n in (1, 2) let $c := for $t in $s where $t = $n return $t return count($c)'],
    ['let $s := (1, 2) for $n in (xs:untypedAtomic("1"), xs:untypedAtomic("x")) let $c := for $t in $s where $t = $n return $t return count($c)'],
    ['for $n in (1, 2) let $c := for $t in //a[@w] where $t/@w = $n return $t return count($c)'],
    ['let $s := (xs:date("2020-01-01"), "a") for $n in ("a", "b") let $c := for $t in $s where $t = $n return $t return count($c)'],
  ])('raises as the nested loop does: %s', async (query) => {
    expect(counted(query)).toBe(true);
    const nestedLoop = nestedCount(query);
    expect(await outcome(query, SITE)).toBe(await outcome(nestedLoop, SITE));
  });
});
