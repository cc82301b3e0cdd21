/**
 * The kept regexes and tokenize split source patches (lib/saxon/patches/kept-regexes.ts,
 * tokenize-split.ts): each found once in saxon-js 2.7.0's script and refused elsewhere; saxon-js
 * with them answers every regex function as the original script does, values and errors, when a
 * pattern is used again (kept) and for the first time; and the engine's queries, which run on the
 * patched script, answer as XQuery says.
 */
import { patchKeptRegexes } from '../../lib/saxon/patches/kept-regexes';
import { patchTokenizeSplit } from '../../lib/saxon/patches/tokenize-split';
import { SAXON_SOURCE, saxonFrom } from '../helpers/saxon-instance';
import { engineFixture } from '../xquery/language/translate/helpers';
import { answersBothWays } from './both-ways';

/** Each evaluated three times in a row, so that the kept translation answers the later calls. */
const QUERIES = [
  'tokenize(" a  b ", " ")',
  'tokenize("a,b,,c,", ",")',
  'tokenize(",a", ",")',
  'tokenize("  a \n b  ")',
  'tokenize("")',
  'tokenize("", ",")',
  'tokenize("a1b22c333", "\\d+")',
  'tokenize("aXbxc", "x", "i")',
  'tokenize("a.b.c", ".", "q")',
  'tokenize("abcbd", "(b)")',
  'tokenize("abcbd", "(?:b)")',
  'tokenize("a\u{1F600}b\u{1F600}c", "\u{1F600}")',
  'tokenize("a\u{1F600}b", ".")',
  'tokenize("a b", " x", "x")',
  'tokenize("a  b\tc", "\\s+")',
  'tokenize("abc", "")',
  'tokenize("a|b", "|", "q")',
  'tokenize("a\nb", "$", "m")',
  'tokenize("a\nb.c", ".", "s")',
  'tokenize("x\u{1F600}y", "[\u{1F600}]")',
  'matches("a b", "a b", "x"), matches("A", "[a-z]", "i")',
  'tokenize("ab", "x*")',
  'tokenize("a", "a", "z")',
  'tokenize("a", "(")',
  'tokenize("a", "\\p{Unknown}")',
  'for $s in ("a-b", "c-d-e") return string-join(tokenize($s, "-"), "|")',
  'matches("xax", "a"), matches("xAx", "a", "i"), matches("abc", "^\\i\\c*$"), matches("a", "(")',
  'replace("abab", "(a)(b)", "$2$1"), replace("aaa", "a", "b"), replace("a.b", ".", "!", "q")',
  'replace("abc", "b", "$2")',
  'replace("abc", "x*", "y")',
  'format-number(12345.6, "#,##0.00")',
];

type Outcome = { value: string } | { error: string };

function run(saxon: ReturnType<typeof saxonFrom>, query: string): Outcome {
  try {
    const items = saxon.XPath.evaluate(query, null, { resultForm: 'array' }) as unknown[];
    return { value: JSON.stringify(items.map((i) => String(i))) };
  } catch (e) {
    return { error: String((e as { code?: string }).code) };
  }
}

describe('the kept regexes and tokenize split patches', () => {
  it("replace saxon-js 2.7.0's texts once, and refuse a text without them or with them twice", () => {
    for (const [patch, name] of [[patchKeptRegexes, /kept regexes patch/], [patchTokenizeSplit, /tokenize split patch/]] as const) {
      const patched = patch(SAXON_SOURCE);
      expect(patched).not.toBe(SAXON_SOURCE);
      expect(() => patch('function I(){}')).toThrow(name);
    }
    expect(() => patchKeptRegexes('jk:a,prepareRegex:b,jk:a,prepareRegex:b,')).toThrow(/kept regexes patch/);
  });

  it('answer every regex function as the original script, again and again', () => {
    const original = saxonFrom(SAXON_SOURCE);
    const patched = saxonFrom(patchTokenizeSplit(patchKeptRegexes(SAXON_SOURCE)));
    for (const query of QUERIES) {
      const want = run(original, query);
      for (let i = 0; i < 3; i++) expect([query, run(patched, query)]).toEqual([query, want]);
    }
    // a sample of the answers, so that a change in both would be seen too
    expect(run(patched, QUERIES[0])).toEqual({ value: '["","a","","b",""]' });
    expect(run(patched, 'tokenize("abcbd", "(b)")')).toEqual({ value: '["a","c","d"]' });
    expect(run(patched, 'tokenize("ab", "x*")')).toEqual({ error: 'FORX0003' });
    expect(run(patched, 'replace("abab", "(a)(b)", "$2$1")')).toEqual({ value: '["baba"]' });
  });
});

describe('regex functions in queries', () => {
  const e = engineFixture();
  answersBothWays(e, [
    ['tokenize(" a  b ", " ") ! concat("[", ., "]")', '"[]"\n"[a]"\n"[]"\n"[b]"\n"[]"'],
    ['for $i in 1 to 3 return replace("abab", "(a)(b)", "$2$1")', '"baba"\n"baba"\n"baba"'],
    ['for $s in ("x y", "z") return count(tokenize($s, " "))', '2\n1'],
    ['for $i in 1 to 2 return try { matches("a", "(") } catch * { local-name-from-QName($err:code) }', '"FORX0002"\n"FORX0002"'],
    ['for $i in 1 to 2 return analyze-string("a1b2", "\\d")/*/string()', '"a"\n"1"\n"b"\n"2"\n"a"\n"1"\n"b"\n"2"'],
  ]);
});
