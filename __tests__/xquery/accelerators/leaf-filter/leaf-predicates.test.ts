import fc from 'fast-check';
import type { QueryContext } from '../../../../lib/xquery/engine/engine';
import { LocatedQueryError } from '../../../../lib/xquery/static-errors';
import { doc, engineFixture, type RunOptions, unabbreviated } from '../../language/translate/helpers';
import { translate } from '../../../helpers/translation';

/**
 * `//name[leaf op V]…` through leaf columns (accelerators/leaf-filter/paths-leaf-predicates.ts,
 * accelerators/leaf-filter/leaf-filter.ts): every accelerated query must answer what its unrewritten form
 * answers (`descendant-or-self::node()/…` written out keeps the axis steps, which no rewrite
 * matches), errors and order included.
 */
const e = engineFixture();
const FILTER = 'Q{urn:xmldb-rest:engine}leaf-filter';
const rewritten = (query: string): boolean => translate(query, 'single').xslt.includes(FILTER);

/** `ok <adaptive result>` or `error <code>`. */
async function outcome(query: string, options: RunOptions): Promise<string> {
  try {
    return `ok ${await e.adaptive(query, options)}`;
  } catch (x) {
    if (x instanceof LocatedQueryError) return `error ${x.code}`;
    throw x;
  }
}

/** The outcome of `query`, which must be rewritten, after checking it against its plain form. */
async function same(query: string, options: RunOptions): Promise<string> {
  expect(rewritten(query)).toBe(true);
  expect(rewritten(unabbreviated(query))).toBe(false);
  const [got, want] = await Promise.all([outcome(query, options), outcome(unabbreviated(query), options)]);
  expect(got).toBe(want);
  return got;
}

const XML =
  '<r><i id="1" c="x"><p>10</p><k>delta</k></i><i id="2" c="y"><p> 2.5e1 </p><p>3</p><k>echo</k></i><i id="3" c="x"/>' +
  '<s><i id="4" c="z"><p>-7</p><k>delta</k>t</i></s><i id="5"><p>1<!--c-->5</p><k>Delta</k></i><i id="10" c="x"><p>.5</p><k>alpha</k>u</i></r>';
const ctx: RunOptions = { context: doc(XML) };

describe('translate: leaf comparisons in predicates of //name', () => {
  it.each([
    // comparands: variables, strings, arithmetic, sequences, paths from a variable
    ['let $k := 5 return //i[p > $k]/@id/string()', 'ok "1"\n"2"\n"5"'],
    ['let $k := "2" return //i[p > $k]/@id/string()', 'ok "2"'],
    ["//i[p > '15']/@id/string()", 'ok "2"'],
    ['let $k := 4 return //i[p >= $k + 1][p < $k * 5]/@id/string()', 'ok "1"\n"2"\n"5"'],
    ['//i[p = (3, 10)]/@id/string(), //i[p = ("3", "10")]/@id/string()', 'ok "1"\n"2"\n"1"\n"2"'],
    ['let $d := /r/i[1] return //i[k = $d/k]/@id/string()', 'ok "1"\n"4"'],
    ['declare function local:f($d, $v) { $d//i[k = $v]/@id/string() }; local:f(/, "delta"), local:f(/, lower-case("ALPHA"))', 'ok "1"\n"4"\n"10"'],
    ['let $k := xs:double("20") return //i[p < $k and k != "delta"]/@id/string()', 'ok "2"\n"5"\n"10"'],
    // attributes, with numbers and strings; every operator
    ['//i[@id > 3]/@id/string(), //i[@id > "3"]/@id/string()', 'ok "4"\n"5"\n"10"\n"4"\n"5"'],
    ['//i[@c = "x"]/@id/string(), //i[@c != "x"]/@id/string(), //i[@c < "y"]/@id/string(), //i[@c <= "y"]/@id/string(), //i[@c >= "y"]/@id/string()',
      'ok "1"\n"3"\n"10"\n"2"\n"4"\n"1"\n"3"\n"10"\n"1"\n"2"\n"3"\n"10"\n"2"\n"4"'],
    ['//i[@c eq "x"]/@id/string(), //i[@c ne "x"]/@id/string(), //i[@c lt "y"]/@id/string(), //i[@c le "y"]/@id/string(), //i[@c gt "x"]/@id/string(), //i[@c ge "z"]/@id/string()',
      'ok "1"\n"3"\n"10"\n"2"\n"4"\n"1"\n"3"\n"10"\n"1"\n"2"\n"3"\n"10"\n"2"\n"4"\n"4"'],
    // children with value comparisons (one per element), text() and the element itself
    ['//i[k eq "delta"]/@id/string(), //i[k lt "d"]/@id/string()', 'ok "1"\n"4"\n"5"\n"10"'],
    ['//i[text() = "t"]/@id/string(), count(//i[text() != "t"]), //p[. = 25]/../@id/string(), //k[. >= "e"]/string()', 'ok "4"\n1\n"2"\n"echo"'],
    // the comparand on the left turns the operator round
    ['let $k := 5 return (//i[$k < p]/@id/string(), //i["x" = @c]/@id/string(), //i["delta" eq k]/@id/string())', 'ok "1"\n"2"\n"5"\n"1"\n"3"\n"10"\n"1"\n"4"'],
    // uses: count, exists, empty, a step after, for, a relative path from a variable
    ['let $k := 5 return (count(//i[p > $k]), exists(//i[p > 1000]), empty(//i[@c = "q"]), //i[p > $k]/k/string())', 'ok 3\nfalse()\ntrue()\n"delta"\n"echo"\n"Delta"'],
    ['for $x in ("delta", "echo") return (for $i in //i[k = $x] return string($i/@id))', 'ok "1"\n"4"\n"2"'],
    ['let $doc := (/) return $doc//i[@c = "x"][p > 1]/@id/string()', 'ok "1"'],
    // no element, an empty comparand
    ['count(//none[@a = error()]), count(//i[p > ()]), count(//i[@c = ()])', 'ok 0\n0\n0'],
  ])('%s', async (query, expected) => {
    expect(await same(query, ctx)).toBe(expected);
  });

  it('reads names in namespaces whose URI holds spaces', async () => {
    const xml = '<r xmlns:n="a = b"><i n:c="1"><n:p>5</n:p></i><i n:c="2"><n:p>7</n:p></i></r>';
    const query = 'declare namespace n = "a = b"; //i[n:p > 6]/@n:c/string(), //i[@n:c = "1"]/n:p/string()';
    expect(await same(query, { context: doc(xml) })).toBe('ok "2"\n"5"');
  });

  it('binds external variables once, outside the predicate', async () => {
    const query = 'declare variable $k external; declare variable $c as xs:integer external; //i[p > $k]/@id/string(), count(//i[@id >= $c])';
    const options: RunOptions = { ...ctx, variables: { k: { values: ['2'] }, c: { values: ['4'] } } };
    expect(rewritten(query)).toBe(true);
    // $k is the string "2": string comparisons; $c the integer 4
    expect(await outcome(query, options)).toBe('ok "2"\n3');
    expect(await outcome(unabbreviated(query), options)).toBe('ok "2"\n3');
  });

  it('keeps node identity and document order', async () => {
    const query = 'let $k := 5 return ((//i[p > $k])[2] is (/r/i)[2], count(//i[p > $k] | /descendant-or-self::node()/i), (//i[@c = "x"])[last()] is /r/i[@id = "10"][1])';
    expect(rewritten(query)).toBe(true);
    expect(await e.adaptive(query, ctx)).toBe('true()\n6\ntrue()');
  });

  it.each([
    // a leaf that does not cast to xs:double for a number: FORG0001, as written
    ['<r><i><p>1</p></i><i><p>abc</p></i></r>', 'let $k := 1 return count(//i[p = $k])'],
    ['<r><i a="x"/></r>', 'count(//i[@a > 1])'],
    // the same leaves compared with a string: no cast
    ['<r><i><p>1</p></i><i><p>abc</p></i></r>', 'let $k := "abc" return count(//i[p = $k])'],
    // value comparisons: a number (XPTY0004), two children (XPTY0004), a sequence (XPTY0004)
    ['<r><i><p>1</p></i></r>', 'count(//i[p eq 1])'],
    ['<r><i><p>1</p><p>2</p></i></r>', 'count(//i[p eq "1"])'],
    ['<r><i><p>1</p></i></r>', 'count(//i[p eq ("1", "2")])'],
    // other types: booleans, dates, floats, maps
    ['<r><i><p>true</p></i><i><p>0</p></i></r>', 'count(//i[p = xs:boolean("true")])'],
    ['<r><i><p>2020-01-01</p></i></r>', 'count(//i[p < xs:date("2021-01-01")])'],
    ['<r><i><p>1.5</p></i></r>', 'count(//i[p = xs:float(1.5)])'],
    ['<r><i><p>1</p></i></r>', 'let $m := map {} return count(//i[p = $m])'],
    // a comparand that raises an error
    ['<r><i><p>1</p></i></r>', 'let $k := "a" return count(//i[p = $k + 1])'],
    // values Number() reads otherwise
    ['<r><i><p>+5</p></i><i><p>INF</p></i><i><p>NaN</p></i><i><p>3</p></i></r>', 'count(//i[p > 4]), count(//i[p != 1])'],
  ])('answers and errors as written: %s %s', async (xml, query) => {
    await same(query, { context: doc(xml) });
  });

  it('goes through the predicate below an element and over several documents', async () => {
    const context: QueryContext = { kind: 'documents', xml: ['<r><i n="a"><v>1</v></i><i n="b"><v>9</v></i></r>', '<r><i n="c"><v>7</v></i></r>'] };
    const query = 'let $k := 5 return (//i[v > $k]/@n/string(), /r ! .//i[v > $k]/@n/string(), count(<x><i><v>8</v></i></x>//i[v > $k]))';
    expect(await same(query, { context })).toBe('ok "b"\n"c"\n"b"\n"c"\n1');
  });

  it('is not used where the comparand can see the element, or may differ per element', () => {
    for (const query of ['//i[p > @id]', '//i[p > position()]', '//i[p > string()]', '//i[p > name()]', '//i[p > count(k)]', '//i[p > random:double()]', '//i[p > (let $x := 1 return $x)]', '//i[p > ./k]', '//i[p > $x/random:double()]', '//i[p > $x/k[random:double() > 0.5]]', '//i[p/q > 1]', '//i[p[1] > 1]', '//i[p > 1 or k = "a"]', '//i[p is $x]']) {
      expect(rewritten(`declare variable $x external; ${query}`)).toBe(false);
    }
  });
});

describe('translate: leaf comparisons in predicates of //*', () => {
  it.each([
    ['//*[@id > 3]/@id/string(), //*[@c = "x"]/@id/string(), count(//*[p > 5])', 'ok "4"\n"5"\n"10"\n"1"\n"3"\n"10"\n3'],
    ['//*[text() = "t"]/@id/string(), //*[k = "delta"][@id > 1]/@id/string(), count(//*[@id > 3][text()])', 'ok "4"\n"4"\n2'],
    ['let $k := "x" return ((//*[@c = $k])[last()] is /r/i[@id = "10"][1], count(//*[@c = $k] | //i))', 'ok true()\n6'],
    ['let $d := document { <r><a n="1"/><b n="5"/><c><d n="7"/></c></r> } return $d//*[@n > 2] ! name()', 'ok "b"\n"d"'],
  ])('%s', async (query, expected) => {
    expect(await same(query, ctx)).toBe(expected);
  });

  it.each([
    ['<r><a id="x"/><b id="2"/></r>', 'count(//*[@id > 1])'],
    ['<r><a><p>1</p></a><b><p>one</p></b></r>', 'count(//*[p = 1])'],
  ])('answers and errors as written: %s %s', async (xml, query) => {
    await same(query, { context: doc(xml) });
  });

  it("is not used for the element's own string value, which every ancestor's holds", () => {
    expect(rewritten('//*[. = "delta"]')).toBe(false);
    expect(rewritten('//*[@id = 1][. = "delta"]')).toBe(true);
    // the comparison of @id from the columns, the other as written
    expect(rewritten('//*[. = "delta"][@id = 1]')).toBe(true);
  });
});

describe('translate: leaf comparisons after other predicates', () => {
  it.each([
    ['//i[k][@id > 3]/@id/string(), //i[not(p)][@c = "x"]/@id/string()', 'ok "4"\n"5"\n"10"\n"3"'],
    ['//*[text()][@id > 3]/@id/string(), count(//*[*][@c = "x"]), //i[k][p > 5][@c = "x"]/@id/string()', 'ok "4"\n"10"\n2\n"1"'],
    ['let $k := 2 return (//i[k][@id > $k][@c]/@id/string(), count(//s//*[k][@id >= 4]))', 'ok "4"\n"10"\n1'],
  ])('%s', async (query, expected) => {
    expect(await same(query, ctx)).toBe(expected);
  });

  it.each([
    // a leaf that is no number, a value comparison with two leaves: the predicates as written
    ['<r><i a="x"><k/></i><i a="2"><k/></i></r>', 'count(//i[k][@a > 1])'],
    ['<r><i a="x"/><i a="2"><k/></i></r>', 'count(//*[k][@a > 1])'],
    ['<r><i><k/><p>1</p><p>2</p></i></r>', 'count(//i[k][p eq "1"])'],
  ])('evaluates the predicates as written where the columns cannot answer: %s %s', async (xml, query) => {
    await same(query, { context: doc(xml) });
  });

  it('need not evaluate an earlier predicate for the elements the comparisons reject (XQuery 3.1 §2.3.4)', async () => {
    const context: RunOptions = { context: doc('<r><i id="1"><k>one</k></i><i id="5"><k>5</k></i></r>') };
    const query = '//i[k[xs:integer(.) > 0]][@id > 3]/@id/string()';
    expect(rewritten(query)).toBe(true);
    expect(await outcome(query, context)).toBe('ok "5"');
    expect(await outcome(unabbreviated(query), context)).toBe('error FORG0001');
  });
});

describe('translate: leaf comparisons agree with the predicates as written (property)', () => {
  // mostly numbers, so that numeric comparisons are answered from the columns, not only refused
  const NUMBERS = ['1', '2', '2.5', ' 3 ', '10', '-1', '1e1'];
  const valueArb = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...NUMBERS) }, { weight: 1, arbitrary: fc.constantFrom('abc', '', 'delta', '10 ') });
  const itemArb = fc.record({ ps: fc.array(valueArb, { maxLength: 2 }), a: fc.option(valueArb, { nil: undefined }) });
  const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
  const xmlOf = (items: { ps: string[]; a?: string }[]): string =>
    `<r>${items.map((it, n) => `<i n="${n}"${it.a === undefined ? '' : ` a="${esc(it.a)}"`}>${it.ps.map((p) => `<p>${esc(p)}</p>`).join('')}</i>`).join('')}</r>`;

  const leafArb = fc.constantFrom('p', '@a', 'text()');
  const opArb = fc.constantFrom('=', '!=', '<', '<=', '>', '>=', 'eq', 'ne', 'lt', 'le', 'gt', 'ge');
  // the comparand as a literal, a string, a variable bound outside, arithmetic, a sequence
  const comparandArb = fc.constantFrom('2', '2.5', '"2.5"', '"10"', '"abc"', '$k', '$s', '($k + 1)', '(1, "10")', '("1", "2")', '()', '-1e0');
  const testArb = fc.tuple(leafArb, opArb, comparandArb).map(([leaf, op, v]) => `${leaf} ${op} ${v}`);
  // each with the form no rewrite matches, `boolean(…)`, which the index's candidates are filtered
  // by as before the rewrite (the same lazy filter: `exists` may stop before an error, as there)
  const predicatesArb = fc.oneof(
    testArb.map((t) => [`[${t}]`, `[boolean(${t})]`]),
    fc.tuple(testArb, testArb).map(([a, b]) => [`[${a}][${b}]`, `[boolean(${a})][boolean(${b})]`]),
    fc.tuple(testArb, testArb).map(([a, b]) => [`[${a} and ${b}]`, `[boolean(${a} and ${b})]`]),
    // after a predicate that is a path: from the columns first, then the path
    testArb.map((t) => [`[p][${t}]`, `[p][boolean(${t})]`]),
  );
  // `//i` and `//*` (whose elements include r and the p elements)
  const useArb = fc.constantFrom(
    (p: string) => `count(//i${p})`,
    (p: string) => `//i${p}/@n/string()`,
    (p: string) => `exists(//i${p})`,
    (p: string) => `count(//*${p})`,
    (p: string) => `//*${p}/@n/string()`,
  );

  it('on small generated documents', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(itemArb, { minLength: 1, maxLength: 6 }), predicatesArb, useArb, async (items, [fast, written], use) => {
        const query = (p: string): string => `let $k := 2 let $s := "10" return ${use(p)}`;
        expect(rewritten(query(fast))).toBe(true);
        expect(rewritten(query(written))).toBe(false);
        const options = { context: doc(xmlOf(items)) };
        const [got, want] = await Promise.all([outcome(query(fast), options), outcome(query(written), options)]);
        expect(got).toBe(want);
      }),
      { numRuns: 100 },
    );
  });
});

describe('translate: a child step after //name[…]', () => {
  const CHILDREN = 'Q{urn:xmldb-rest:engine}children-named';
  const hasChildren = (query: string): boolean => translate(query, 'single').xslt.includes(CHILDREN);

  it.each([
    [XML, 'let $k := 5 return (//i[p > $k]/k/string(), count(//i/p), //i/p[2]/string(), (/)//i[@c = "x"]/k/string())', 'ok "delta"\n"echo"\n"Delta"\n6\n"3"\n"delta"\n"alpha"'],
    // nested elements of the indexed name: the step sorts, as written
    ['<r><i><p>1</p><i><p>2</p></i><p>3</p></i></r>', '//i/p/string(), //i[p > 0]/p/string()', 'ok "1"\n"2"\n"3"\n"1"\n"2"\n"3"'],
    ['<r xmlns:n="urn:n"><i><n:p>1</n:p><p>2</p></i></r>', 'declare namespace n = "urn:n"; //i/n:p/string(), (//i/p)[1] is /r/i/p', 'ok "1"\ntrue()'],
  ])('answers what the step answers: %s %s', async (xml, query, expected) => {
    expect(hasChildren(query)).toBe(true);
    const options = { context: doc(xml) };
    const [got, want] = await Promise.all([outcome(query, options), outcome(unabbreviated(query), options)]);
    expect(got).toBe(want);
    expect(got).toBe(expected);
  });

  it('answers per document over several documents', async () => {
    const context: QueryContext = { kind: 'documents', xml: ['<r><i><v>1</v></i><i><v>9</v></i></r>', '<r><i><v>7</v></i></r>'] };
    expect(await outcome('//i/v/string(), /r ! .//i[v > 5]/v/string()', { context })).toBe('ok "1"\n"9"\n"7"\n"9"\n"7"');
  });
});
