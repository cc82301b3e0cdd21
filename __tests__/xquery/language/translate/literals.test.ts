import { createEngine, errorBody, LocatedQueryError, type Engine, type QueryContext } from '../../../../lib/xquery/engine/engine';
import { translate } from '../../../helpers/translation';

describe('literals as stylesheet parameters: one compilation for queries differing in literals', () => {
  it('translates queries that differ only in literals to the same stylesheet', () => {
    const q = (k: number, s: string) =>
      `for $i in 1 to ${k} let $x := ($i * ${k + 3}) mod 97 where $x mod 3 = ${k % 3} and $x != ${k}.5 ` +
      `order by $x descending, $i return <r n="{$i || "${s}"}">{$x, 1e${k % 5}}</r>`;
    const a = translate(q(200, 'a'));
    const b = translate(q(31, 'zz'));
    expect(a.xslt).toBe(b.xslt);
    // numbered as first emitted: the FLWOR's clauses for its leaf-tuples plan, then its range
    expect(a.literals.map((l) => [l.type, l.value])).toEqual([
      ['xs:integer', '203'],
      ['xs:integer', '97'],
      ['xs:integer', '3'],
      ['xs:integer', '2'],
      ['xs:integer', '200'],
      ['xs:decimal', '200.5'],
      ['xs:string', 'a'],
      ['xs:double', '1e0'],
    ]);
    expect(b.literals.map((l) => l.value)).toEqual(['34', '97', '3', '1', '31', '31.5', 'zz', '1e1']);
  });

  it('keeps literals that the translator or saxon-js read as values', () => {
    const replaced = (q: string) => translate(q).literals.map((l) => l.value);
    expect(replaced('(1 to 5)[2]')).toEqual(['5']); // a range start and a numeric predicate stay
    expect(replaced('matches("abc", "b+"), substring("abc", 2)')).toEqual(['2']); // string arguments stay
    expect(replaced('"a:b" cast as xs:QName')).toEqual([]); // the prefix resolves statically
    expect(replaced('element {"e"} {()}')).toEqual([]); // a computed constructor's name
    expect(replaced('declare variable $v := 3; $v')).toEqual([]); // prolog declarations
    expect(replaced('-0e0, 1 - -2')).toEqual(['1']); // operands of unary minus
    // in predicates, only operands of comparisons: a number there selects by position
    expect(replaced('(4, 5)[if (. = 4) then 2 else true()], (4, 5)[. + 1 = 6][(1, 2)[1]]')).toEqual(['4', '5', '4', '4', '5', '6']);
  });

  it('makes parameters of the searched strings of contains and the like, in predicates too', () => {
    const replaced = (q: string) => translate(q).literals.map((l) => [l.value, l.inPredicate]);
    expect(replaced('contains("abc", "b"), starts-with("abc", "a"), ends-with("abc", "c"), contains-token("a b", "b")')).toEqual([
      ['b', false],
      ['a', false],
      ['c', false],
      ['b', false],
    ]);
    expect(replaced('substring-before("a-b", "-"), substring-after("a-b", "-"), string-join(("a", "b"), ", "), translate("abc", "ab", "AB"), concat("a", 1, "b")')).toEqual([
      ['-', false],
      ['-', false],
      ['a', false], // items of a sequence, as before
      ['b', false],
      [', ', false],
      ['ab', false],
      ['AB', false],
      ['a', false],
      ['1', false],
      ['b', false],
    ]);
    expect(replaced('//w[contains(., "ol")]')).toEqual([['ol', true]]);
    // the first argument, a collation, a prefixed name, another default function namespace: as written
    expect(replaced('contains("abc", "b", "http://www.w3.org/2005/xpath-functions/collation/codepoint"), fn:contains("abc", "b")')).toEqual([]);
    expect(replaced('declare default function namespace "http://www.w3.org/2005/xpath-functions"; contains("abc", "b")')).toEqual([]);
    expect(replaced('declare function local:f($n) { contains($n, "x") }; local:f("xy")')).toEqual([['x', false]]);
    // a search in a FLWOR over documents: one stylesheet for every search string
    const search = (s: string) => translate(`for $i in //item where contains($i/name, "${s}") order by $i/@id return <hit>{$i/name/string()}</hit>`, 'multi').xslt;
    expect(search('gold')).toBe(search('silver'));
  });

  it('makes no parameters when switched off', () => {
    expect(translate('1 + 2', 'none', { literalParams: false }).literals).toEqual([]);
    expect(translate('1 + 2', 'none', { literalParams: false }).xslt).toBe(translate('1 + 2', 'none', { literalParams: false }).xslt);
  });
});

describe('literals as stylesheet parameters: the same answers and errors as literals compiled in', () => {
  let withParams: Engine;
  let compiledIn: Engine;
  beforeAll(() => {
    withParams = createEngine({ workers: 1, timeoutMs: 10_000 });
    compiledIn = createEngine({ workers: 1, timeoutMs: 10_000, literalParams: false });
  });
  afterAll(async () => {
    await Promise.all([withParams.close(), compiledIn.close()]);
  });

  const outcome = async (engine: Engine, query: string, context: QueryContext = { kind: 'none' }): Promise<string> => {
    try {
      const r = await engine.evaluate({ query, context, variables: new Map(), serialization: { method: 'adaptive' } });
      return `ok ${String(r.body)}`;
    } catch (e) {
      // the code and position; the message of an error saxon-js finds while compiling (a
      // constant folded) may word the same error differently from the one it raises at run time
      if (e instanceof LocatedQueryError) return `error ${errorBody(e).split('\n')[0]} [${e.code}]`;
      throw e;
    }
  };

  it.each([
    // the benchmark's shape: order by, where, constructors
    ['for $i in 1 to 20 let $x := ($i * 7) mod 11 where $x mod 3 = 1 order by $x descending, $i return <r n="{$i}">{$x}</r>'],
    // numeric promotion and types: integer, decimal, double literals keep their types
    ['1 + 2, 1 + 2.5, 1 + 2e0, 7 div 2, 7 idiv 2, -3 mod 2, 1.0 instance of xs:decimal, 1e0 instance of xs:double'],
    ['99999999999999999999 + 1, 0.1 + 0.2, 1e308 * 10, -0e0, 0 div 0e0, 1 - -2.5'],
    // NaN and mixed types in order by; stable order of equal keys
    ['for $x in (3, 0 div 0e0, 1, (), 2.5) order by $x return string($x)'],
    ['for $x in (3, 0 div 0e0, 1) order by $x descending empty greatest return $x'],
    ['for $p in (("b", 1), ("a", 2), ("b", 0)) ! [.] order by $p?1 return $p?2'],
    ['for $x in ("10", 9, "9") order by $x return $x'],
    // general comparisons: untypedAtomic casts, sequences on both sides
    ['<a>10</a> = 10, <a>10</a> = "10", <a>10</a> > 9.5, (1, 2, 3) = (3, 4), () = 1, "abc" < "abd"'],
    ['let $d := <d><v>1</v><v>2</v></d> return ($d/v = 2, $d/v[. > 1] = "2", $d/v + 1.5)'],
    // strings with quotes, markup, whitespace; concatenation
    ['"it""s" || \'a\'\'b\' || "&lt;&amp;" || "  x  " || "&#10;"'],
    ['if (1 = 1) then "y" else "n", (1, "two", 3.0)'],
    ['let $s := "abc" return (substring($s, 2), substring($s, 0), round(2.5), round-half-to-even(2.5, 0))'],
    ['count(1 to 10), sum(1 to 100), (1 to 3) ! (. * 2)'],
    // searched strings as parameters: empty strings, sequences searched, errors
    ['contains("abc", ""), contains((), "a"), starts-with("abc", "ab"), ends-with("", ""), substring-before("a-b-c", "-"), substring-after("a-b", "x")'],
    ['translate("abcab", "ab", "X"), string-join((1, 2, 3), "; "), concat("a", (), 2.5, "b"), contains-token("a b  c", " b ")'],
    ['("gold", "old", "silver")[contains(., "ol")], ("gold", "old")[starts-with(., "o")][ends-with(., "d")]'],
    ['contains(("a", "b"), "a")'],
    ['contains-token("a b", "")'],
    // predicates whose value may be a number
    ['(7, 8, 9)[if (. = 7) then 2 else true()], (7, 8, 9)[. - 6], let $i := 2 return (7, 8, 9)[$i]'],
    ['let $d := <d><f n="a"/><f n="b"/><f n="c"/></d> return $d/f[if (@n = "a") then 2 else true()]/@n/string()'],
    // empty sequences
    ['for $x in () where $x = 1 return $x, () + 1, sum(()) + 0'],
    // errors raised by expressions with literals
    ['1 div 0'],
    ['"a" + 1'],
    ['for $x in (1, "a") order by $x return $x'],
    ['xs:integer("x") + 1'],
    ['(1, 2) + 1'],
  ])('%s', async (query) => {
    const expected = await outcome(compiledIn, query);
    expect(await outcome(withParams, query)).toBe(expected);
  });

  it('gives the same answers over a document context', async () => {
    const ctx: QueryContext = { kind: 'documents', xml: ['<r><i p="3">x</i><i p="12">y</i><i p="7.5">z</i></r>'] };
    for (const q of ['//i[@p > 5]/string()', 'count(//i[@p = 12]) + 10', 'for $i in //i order by number($i/@p) descending return $i/text() || "!"']) {
      expect(await outcome(withParams, q, ctx)).toBe(await outcome(compiledIn, q, ctx));
    }
  });
});
