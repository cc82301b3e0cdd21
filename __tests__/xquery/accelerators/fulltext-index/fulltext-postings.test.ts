/**
 * The postings of the full-text index (accelerators/fulltext-index/fulltext-postings.ts): occurrences with their
 * positions, and phrases placed from them, within one text only.
 */
import { occurrenceCount, phraseTexts, PostingsBuilder, textsOf, type Postings } from '../../../../lib/xquery/accelerators/fulltext-index/fulltext-postings';

function postingsOf(texts: readonly string[]): Postings {
  const b = new PostingsBuilder((w) => w.toLowerCase());
  for (const t of texts) b.add(t);
  return b.finish();
}

const id = (p: Postings, token: string): number => p.ids.get(token) as number;

test('texts without a token take no position; occurrences are counted; texts are ascending and once each', () => {
  const b = new PostingsBuilder((w) => w.toLowerCase());
  expect([b.add('A a b'), b.add(' ,. '), b.add('b A')]).toEqual([true, false, true]);
  const p = b.finish();
  expect([b.texts, occurrenceCount(p, id(p, 'a')), occurrenceCount(p, id(p, 'b'))]).toEqual([2, 3, 2]);
  expect(textsOf(p, [id(p, 'a')])).toEqual([0, 1]);
  expect(textsOf(p, [id(p, 'b'), id(p, 'a')])).toEqual([0, 1]);
});

test('a phrase is placed at consecutive positions of one text, never across texts', () => {
  const p = postingsOf(['x y z', 'y x', 'x', 'y z x y']);
  const [x, y, z] = ['x', 'y', 'z'].map((t) => [id(p, t)]);
  expect(phraseTexts(p, [x, y])).toEqual([0, 3]);
  expect(phraseTexts(p, [y, x])).toEqual([1]);
  expect(phraseTexts(p, [x, y, z])).toEqual([0]);
  expect(phraseTexts(p, [z, x])).toEqual([3]);
  // `x` ends text 2 and `y` starts text 3: no phrase
  expect(phraseTexts(p, [x, y, z, x])).toEqual([]);
  expect(phraseTexts(p, [x, []])).toEqual([]);
});

test('a word may stand for several tokens; an unchecked word only keeps its place', () => {
  const p = postingsOf(['big cats run', 'big cat runs', 'cat big runs']);
  const cats = [id(p, 'cat'), id(p, 'cats')];
  expect(phraseTexts(p, [[id(p, 'big')], cats])).toEqual([0, 1]);
  expect(phraseTexts(p, [cats, undefined, [id(p, 'runs')]])).toEqual([2]);
  expect(phraseTexts(p, [undefined, [id(p, 'runs')]])).toEqual([1, 2]);
  // a repeated word: each place needs its own occurrence
  const q = postingsOf(['go go', 'go', 'go stop go go go']);
  const go = [id(q, 'go')];
  expect([phraseTexts(q, [go, go]), phraseTexts(q, [go, go, go])]).toEqual([[0, 2], [2]]);
});

test('positions beyond 16 bits', () => {
  const long = `${'w '.repeat(70_000)}end one`;
  const p = postingsOf(['end one', long]);
  expect(p.pos).toBeInstanceOf(Int32Array);
  expect(phraseTexts(p, [[id(p, 'w')], [id(p, 'end')], [id(p, 'one')]])).toEqual([1]);
  expect(postingsOf(['end one']).pos).toBeInstanceOf(Uint16Array);
});
