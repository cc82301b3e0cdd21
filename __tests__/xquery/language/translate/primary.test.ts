import { doc, engineFixture } from './helpers';

const e = engineFixture();

describe('translate: primary expressions', () => {
  it.each([
    ['1, 1.5, 1e2, "it""s", \'a\'\'b\', "&lt;&amp;"', '1\n1.5\n1.0e2\n"it""s"\n"a\'b"\n"&lt;&amp;"'],
    ['upper-case("a"), fn:concat("a", "b"), Q{http://www.w3.org/2005/xpath-functions}abs(-1)', '"A"\n"ab"\n1'],
    ['let $f := substring#2 return $f("abc", 2), function-name(upper-case#1) eq xs:QName("fn:upper-case")', '"bc"\ntrue()'],
    ['let $f := substring(?, 1, 2) return $f("abc")', '"ab"'],
    ['(function($a as xs:integer) as xs:integer { $a * 2 })(4)', '8'],
    ['let $k := 10 let $f := function($x) { $x + $k } return $f(1)', '11'],
    ['map { "a": 1, "b": (2, 3) }?b, map { 1: "x" }(1)', '2\n3\n"x"'],
    ['[1, (2, 3)]?2, array { 1, 2 }?*, [[1, 2]]?1?2', '2\n3\n1\n2\n2'],
    ['(map { "k": 5 }, map { "k": 6 }) ! ?k', '5\n6'],
    // node keys are atomized: untypedAtomic to xs:integer for arrays, compared as strings for maps
    ['[0, 7]?(<_>2</_>), ([1, 2, 3], [4, 5, 6])?(<x>1</x>, <y>3</y>), map { "k": 1 }?(<k>k</k>)', '7\n1\n3\n4\n6\n1'],
    ['(["a", "b"], ["c", "d"])[?(<x>2</x>) = "d"]?1, [1]?()', '"c"'],
    ['"abc" => substring(2) => upper-case()', '"BC"'],
    ['let $f := upper-case#1 return "x" => $f()', '"X"'],
    ['if (1) then "y" else "n", if (()) then "y" else "n"', '"y"\n"n"'],
    ['some $x in (1, 2) satisfies $x > 1, every $x in (1, 2), $y in (3) satisfies $x < $y', 'true()\ntrue()'],
    ['some $x as xs:integer in (1, 2) satisfies $x = 2', 'true()'],
    ['``[x=`{ (1, 2) }` `{ () }`!]``', '"x=1 2 !"'],
    ['ordered { 1 }, unordered { 2 }, (# ext:p x #) { 3 }', '1\n2\n3'],
  ])('%s', async (query, expected) => {
    const q = query.includes('ext:p') ? `declare namespace ext = "urn:e"; ${query}` : query;
    expect(await e.adaptive(q)).toBe(expected);
  });

  it('uses the focus of the context in zero-argument context functions', async () => {
    expect(await e.adaptive('name(), string(), (/r/a)[2] ! (name(), position())', { context: doc('<r><a>1</a><a>2</a></r>') })).toBe(
      '""\n"12"\n"a"\n1',
    );
  });

  it.each([
    ['$x', 'XPST0008', 1, 1],
    ['\n  nope:f()', 'XPST0081', 2, 3],
    ['current()', 'XPST0017', 1, 1],
    ['xs:integer(1, 2)', 'XPST0017', 1, 1],
    ['(# ext #) { 1 }', 'XPST0081', 1, 1],
    ['declare namespace e = "urn:e"; (# e:x #) {}', 'XQST0079', 1, 32],
    ['validate { 1 }', 'XQST0075', 1, 1],
    ['function($a, $a) { 1 }', 'XQST0039', 1, 14],
    ['local:nope(1)', 'XPST0017', 1, 1],
    ['map { "a": 1, "a": 2 }', 'XQDY0137', undefined, undefined],
  ])('%s raises %s', async (query, code, line, column) => {
    const err = await e.error(query);
    expect(err.code).toBe(code);
    if (line !== undefined) expect(err).toMatchObject({ line, column });
  });

  it('reports an undefined function that saxon finds at compile time', async () => {
    expect((await e.error('fn:no-such-function()')).code).toBe('XPST0017');
  });
});

describe('translate: fn:codepoints-to-string', () => {
  it.each([
    ['string-length(codepoints-to-string((9, 10, 13, 32 to 55295, 57344 to 65532, 65536 to 1114111)))', '1112032'],
    ['ends-with(codepoints-to-string(65536 to 1114111), codepoints-to-string(1114111))', 'true()'],
    ['codepoints-to-string((72, 105))', '"Hi"'],
    ['codepoints-to-string(())', '""'],
    ['codepoints-to-string(xs:untypedAtomic("65"))', '"A"'],
    ['(65, 66) => codepoints-to-string()', '"AB"'],
    ['codepoints-to-string#1(67)', '"C"'],
    ['function-name(codepoints-to-string#1)', 'Q{http://www.w3.org/2005/xpath-functions}codepoints-to-string'],
    ['string-to-codepoints(codepoints-to-string(128512))', '128512'],
  ])('%s', async (query, expected) => {
    expect(await e.adaptive(query)).toBe(expected);
  });

  it.each([
    ['codepoints-to-string(0)', 'FOCH0001'],
    ['codepoints-to-string((65, 55296))', 'FOCH0001'],
    ['codepoints-to-string(1114112)', 'FOCH0001'],
    ['codepoints-to-string("65")', 'XPTY0004'],
  ])('dynamic error: %s', async (query, code) => {
    expect((await e.error(query)).code).toBe(code);
  });
});
