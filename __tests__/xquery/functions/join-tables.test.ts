/**
 * The key tables of hash joins (functions/join-tables.ts): the positions whose keys may equal a
 * probe's values under general comparison, ascending and each once; every position where the
 * nested loop would compare otherwise; their number when they are exact; a join's table built
 * once, from keys evaluated only then.
 */
import { saxon, type XdmValue } from '../../../lib/saxon';
import { registerExtensionFunctions } from '../../../lib/xquery/functions/extension-functions';

registerExtensionFunctions();
const E = 'Q{urn:xmldb-rest:engine}';
const run = (xpath: string): unknown[] =>
  (saxon().XPath.evaluate(xpath, null, { resultForm: 'array' }) as XdmValue).map((v) => (typeof v === 'object' && v !== null ? String(v) : v));

/** The positions join-probe gives for `probe` against a table of `keys`, an XPath sequence of one item's keys per member. */
const probe = (keys: string[], values: string): unknown[] =>
  run(`let $a := array {1 to ${keys.length}} return ${E}join-probe($a, (${keys.map((k) => `[${k}]`).join(', ')}), ${values})`);

const U = (s: string) => `xs:untypedAtomic("${s}")`;

describe('join tables', () => {
  it('gives the positions of untyped and string keys equal to a probe, ascending, each once', () => {
    const keys = [U('a'), `(${U('b')}, ${U('b')})`, `("a", ${U('a')})`, '()', 'xs:anyURI("b")'];
    expect(probe(keys, U('a'))).toEqual([1, 3]);
    expect(probe(keys, '"b"')).toEqual([2, 5]);
    expect(probe(keys, `(${U('b')}, "a")`)).toEqual([1, 2, 3, 5]);
    expect(probe(keys, '"none"')).toEqual([]);
    expect(probe(keys, '()')).toEqual([]);
    // strings compare by code points: no trimming, no case folding
    expect(probe(keys, `(" a", "A")`)).toEqual([]);
  });

  it('compares numbers as doubles, and untyped values with numbers as doubles', () => {
    const keys = ['1', '1.0', '1e0', 'xs:float("1")', '0 div 0e0', '-0e0', U(' 1 '), U('1.0'), U('x'), '2'];
    // a number finds the numbers and the untyped values equal to it, never NaN; -0 equals 0
    expect(probe(['1', '1.0', '1e0', 'xs:float("1")', '0 div 0e0', '-0e0', U(' 1 '), U('1.0')], '1')).toEqual([1, 2, 3, 4, 7, 8]);
    expect(probe(['1', '-0e0', '0'], '0e0')).toEqual([2, 3]);
    expect(probe(['1', '0 div 0e0'], '0 div 0e0')).toEqual([]);
    // an untyped probe that is a number finds the numbers; an untyped key matches it as a string only
    expect(probe(['1', U('1'), U('1.0')], U('1.0'))).toEqual([1, 3]);
    // an untyped key that is no number against a number: the nested loop would raise, every position is a candidate
    expect(probe(keys, '2')).toEqual(keys.map((_, i) => i + 1));
  });

  it('answers every position where the nested loop compares otherwise or raises', () => {
    const all = (keys: string[]) => keys.map((_, i) => i + 1);
    // a string against a number, either way round
    expect(probe(['1', '"a"'], '"b"')).toEqual([1, 2]);
    expect(probe(['1', '"a"'], '2')).toEqual([1, 2]);
    // an untyped probe that is no number against a number
    expect(probe(['1', '2'], U('x'))).toEqual([1, 2]);
    // values of other types, on either side
    const dates = ['xs:date("2020-01-01")', '"a"'];
    expect(probe(dates, '"b"')).toEqual(all(dates));
    expect(probe(['"a"', '"b"'], 'true()')).toEqual([1, 2]);
  });

  it('counts the candidates when they are exact, and answers -1 where they must pass the comparison', () => {
    const count = (keys: string[], values: string): unknown[] =>
      run(`let $a := array {1 to ${keys.length}} return ${E}join-count($a, (${keys.map((k) => `[${k}]`).join(', ')}), ${values})`);
    // strings and untyped values; an item with two matching keys counts once
    expect(count([U('a'), `(${U('a')}, "a")`, '"b"'], '"a"')).toEqual([2]);
    expect(count([U('a'), '"b"'], '("a", "b", "c")')).toEqual([2]);
    // numbers against untyped values compare as doubles: exact
    expect(count([U('1.0'), U('2'), U('01')], '1')).toEqual([2]);
    expect(count(['1', '2.0'], U('2'))).toEqual([1]);
    // numbers against numbers compare as written (two integers exactly, not as doubles): -1
    expect(count(['9007199254740993', '1'], '9007199254740992')).toEqual([-1]);
    // where every item is a candidate: -1
    expect(count(['1', '"a"'], '2')).toEqual([-1]);
    expect(count(['xs:date("2020-01-01")'], '"a"')).toEqual([-1]);
    // no items: 0, the values unread
    expect(run(`${E}join-count(array {()}, (), for $i in 1 to 2 return error(QName("urn:x", "X")))`)).toEqual([0]);
  });

  it('does not atomize the probe against no items', () => {
    expect(run(`${E}join-probe(array {()}, (), for $i in 1 to 2 return error(QName("urn:x", "X")))`)).toEqual([]);
  });

  it("builds a join's table once, evaluating its keys only then", () => {
    const failing = 'for $i in 1 to 2 return error(QName("urn:x", "X"))';
    const items = 'let $a := array {1 to 2}, $b := array {1 to 2} return ';
    // the second probe finds the array's table and never evaluates its keys
    expect(run(`${items}(${E}join-probe($a, (["a"], ["b"]), "a"), "|", ${E}join-probe($a, ${failing}, "b"))`)).toEqual([1, '|', 2]);
    // another array: a table of its own, from its own keys
    expect(run(`${items}(${E}join-probe($a, (["a"], ["b"]), "z"), "|", ${E}join-probe($b, (["z"], ["a"]), "z"))`)).toEqual(['|', 1]);
    expect(() => run(`${E}join-probe(array {1}, ${failing}, "a")`)).toThrow();
  });
});
