/**
 * The tokenizer (fulltext/tokens.ts) scans code points instead of matching a regular expression:
 * its tokens must be those of `[\p{L}\p{N}][\p{L}\p{N}\p{M}]*` with the `u` flag, on any text.
 */
import { tokenize, tokenSpans, words } from '../../../lib/xquery/fulltext/tokens';

const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;

/** Characters of every class the rule tells apart, astral ones and lone surrogates among them. */
const PIECES = ['a', 'Z', '7', ' ', '.', '\n', '-', 'é', 'e\u0301', '\u0301', '\u0663', 'ß', '漢', '𝒜', '\u{1D7D8}', '\u{1F600}', '\u{1D167}', '\uD800', '\uDC00', '_', '\u00A0', 'Ⅻ'];

/** A deterministic pseudo-random sequence (no timing, no flakiness). */
function* texts(count: number): Generator<string> {
  let seed = 42;
  const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < count; i++) {
    let t = '';
    const n = Math.floor(next() * 12);
    for (let k = 0; k < n; k++) t += PIECES[Math.floor(next() * PIECES.length)];
    yield t;
  }
}

test('words, spans and positions are those of the regular expression', () => {
  const got: unknown[] = [];
  const expected: unknown[] = [];
  for (const text of [...texts(2000), 'Café au lait. Cafe noir!\nA new paragraph', '']) {
    const tokens = Array.from(text.matchAll(TOKEN), (m) => ({ word: m[0], start: m.index, end: m.index + m[0].length }));
    expected.push(JSON.stringify([text, tokens.map((e) => e.word), tokens.map(({ start, end }) => ({ start, end })), tokens.map((e) => e.word)]));
    got.push(JSON.stringify([text, words(text), tokenSpans(text), tokenize(text).words]));
  }
  expect(got).toEqual(expected);
});

test('sentences and paragraphs', () => {
  const tokens = tokenize('One two. Three\nfour? five');
  expect([tokens.words, tokens.sentences, tokens.paragraphs]).toEqual([
    ['One', 'two', 'Three', 'four', 'five'],
    [0, 0, 1, 2, 3],
    [0, 0, 0, 1, 1],
  ]);
});
