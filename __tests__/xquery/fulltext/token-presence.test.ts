/**
 * Deciding `contains text` by the words a text holds (fulltext/token-presence.ts): where
 * it answers, the matcher answers the same, over generated texts and selections; and the
 * selections it leaves to the matcher.
 */
import fc from 'fast-check';
import { presenceOf, satisfiedByPresence } from '../../../lib/xquery/fulltext/token-presence';
import { ItemMatcher, satisfied } from '../../../lib/xquery/fulltext/matcher';
import { tokenize } from '../../../lib/xquery/fulltext/tokens';
import { DEFAULT_MATCH_OPTIONS, type FTMatchOptions, type FTNode } from '../../../lib/xquery/fulltext/selection';

const VOCABULARY = ['gold', 'Gold', 'GOLDEN', 'old', 'silver', 'café', 'cafe', 'Kenya', 'a', 'ab', 'b1', '42', ''];

function wordsNode(terms: string[], mode: Extract<FTNode, { t: 'words' }>['mode'], options: Partial<FTMatchOptions> = {}, times?: number): FTNode {
  const node: FTNode = { t: 'words', value: { fixed: terms }, mode, options: { ...DEFAULT_MATCH_OPTIONS, ...options } };
  return times === undefined ? node : { ...node, times: { min: { fixed: times }, max: null } };
}

const term = fc.array(fc.constantFrom(...VOCABULARY), { minLength: 0, maxLength: 2 }).map((ws) => ws.join(' '));
const options: fc.Arbitrary<Partial<FTMatchOptions>> = fc.record({
  case: fc.constantFrom('insensitive', 'sensitive', 'lowercase'),
  diacritics: fc.constantFrom('insensitive', 'sensitive'),
  stemming: fc.boolean(),
}) as fc.Arbitrary<Partial<FTMatchOptions>>;
const leaf: fc.Arbitrary<FTNode> = fc
  .tuple(fc.array(term, { minLength: 0, maxLength: 3 }), fc.constantFrom('any', 'all', 'phrase', 'any word', 'all words'), options, fc.option(fc.integer({ min: 1, max: 2 }), { nil: undefined }))
  .map(([terms, mode, o, times]) => wordsNode(terms, mode as Extract<FTNode, { t: 'words' }>['mode'], o, times));
const selection: fc.Arbitrary<FTNode> = fc.letrec<{ node: FTNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record({ t: fc.constantFrom('or', 'and'), items: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }) as fc.Arbitrary<FTNode>,
    tie('node').map((item): FTNode => ({ t: 'not', item })),
    tie('node').map((item): FTNode => ({ t: 'weight', item, weight: { fixed: 0.5 } })),
  ),
})).node;
const text = fc
  .array(fc.tuple(fc.constantFrom(...VOCABULARY, ' ', '. ', '\n', '-', '_', 'golden', 'sold', 'Ölgold', 'gold9', 'xgold', 'GOLD!'), fc.constantFrom(' ', '')), { maxLength: 12 })
  .map((parts) => parts.map(([p, sep]) => p + sep).join(''));
/** Selections of the kind it decides: plain options, joined by ftor, ftand and weights. */
const plainLeaf: fc.Arbitrary<FTNode> = fc
  .tuple(
    fc.array(term, { minLength: 0, maxLength: 3 }),
    fc.constantFrom('any', 'all', 'phrase', 'any word', 'all words'),
    fc.constantFrom('insensitive', 'sensitive'),
    fc.constantFrom('insensitive', 'sensitive'),
  )
  .map(([terms, mode, c, d]) => wordsNode(terms, mode as Extract<FTNode, { t: 'words' }>['mode'], { case: c, diacritics: d } as Partial<FTMatchOptions>));
const plainSelection: fc.Arbitrary<FTNode> = fc.letrec<{ node: FTNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    plainLeaf,
    fc.record({ t: fc.constantFrom('or', 'and'), items: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }) as fc.Arbitrary<FTNode>,
    tie('node').map((item): FTNode => ({ t: 'weight', item, weight: { fixed: 2 } })),
  ),
})).node;

function matches(node: FTNode, t: string): boolean {
  return satisfied(new ItemMatcher(tokenize(t), { values: [] }).eval(node));
}

describe('contains text decided by the words a text holds', () => {
  test('where it answers, the matcher answers the same', () => {
    let decided = 0;
    fc.assert(
      fc.property(fc.oneof(selection, plainSelection), text, (node, t) => {
        const presence = presenceOf(node);
        const held = presence && satisfiedByPresence(presence, t);
        if (held === true || held === false) {
          decided++;
          expect(held).toBe(matches(node, t));
        }
      }),
      { numRuns: 4000 },
    );
    expect(decided).toBeGreaterThan(1000);
  });

  test('words and phrases, joined by ftor and ftand, ignoring case or as written', () => {
    const any = presenceOf(wordsNode(['gold', 'silver'], 'any'))!;
    expect([satisfiedByPresence(any, 'A Gold ring'), satisfiedByPresence(any, 'golden, silvery'), satisfiedByPresence(any, 'silver.')]).toEqual([true, false, true]);
    const written = presenceOf(wordsNode(['Gold'], 'any', { case: 'sensitive' }))!;
    expect([satisfiedByPresence(written, 'gold'), satisfiedByPresence(written, 'Gold')]).toEqual([false, true]);
    const phrase = presenceOf(wordsNode(['gold ring'], 'any'))!;
    expect(['a gold, ring', 'gold rings', 'ring gold', 'gold\u00a0ring', 'Gold-Ring'].map((t) => satisfiedByPresence(phrase, t))).toEqual([true, false, false, undefined, true]);
    const both = presenceOf({ t: 'and', items: [wordsNode(['gold'], 'any'), wordsNode(['ring'], 'any')] })!;
    expect([satisfiedByPresence(both, 'gold ring'), satisfiedByPresence(both, 'gold')]).toEqual([true, false]);
    // beyond ASCII: a word held as an ASCII token decides, its absence does not
    const gold = presenceOf(wordsNode(['gold'], 'any'))!;
    expect(['Öl, gold', 'goldé', 'Ölgold', 'göld'].map((t) => satisfiedByPresence(gold, t))).toEqual([true, undefined, undefined, undefined]);
    expect(satisfiedByPresence(presenceOf(wordsNode(['cafe'], 'any'))!, 'un café')).toBeUndefined();
  });

  test('what it leaves to the matcher: stemming, wildcards, occurs, ftnot, computed words', () => {
    expect(presenceOf(wordsNode(['gold'], 'any', { stemming: true }))).toBeUndefined();
    expect(presenceOf(wordsNode(['gold'], 'any', { wildcards: true }))).toBeUndefined();
    expect(presenceOf(wordsNode(['gold'], 'any', { case: 'uppercase' }))).toBeUndefined();
    expect(presenceOf(wordsNode(['gold'], 'any', {}, 2))).toBeUndefined();
    expect(presenceOf({ t: 'not', item: wordsNode(['gold'], 'any') })).toBeUndefined();
    expect(presenceOf({ t: 'words', value: { dyn: 0 }, mode: 'any', options: DEFAULT_MATCH_OPTIONS })).toBeUndefined();
    expect(presenceOf(wordsNode(['café'], 'any', { diacritics: 'sensitive' }))).toBeUndefined();
  });
});
