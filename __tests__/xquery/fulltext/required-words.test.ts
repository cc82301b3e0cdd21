/**
 * The pre-check of `contains text` without an index (fulltext/required-words.ts): a text it
 * passes over never satisfies the selection, checked against the matcher over generated texts
 * and selections; and the selections it must leave to the matcher.
 */
import fc from 'fast-check';
import { holdsNone, requiredWords } from '../../../lib/xquery/fulltext/required-words';
import { ItemMatcher, satisfied } from '../../../lib/xquery/fulltext/matcher';
import { tokenize } from '../../../lib/xquery/fulltext/tokens';
import { DEFAULT_MATCH_OPTIONS, type FTMatchOptions, type FTNode } from '../../../lib/xquery/fulltext/selection';

const VOCABULARY = ['gold', 'Gold', 'GOLDEN', 'old', 'silver', 'café', 'cafe', 'Kenya', 'a', 'ab', 'b1', '42'];

function wordsNode(terms: string[], mode: Extract<FTNode, { t: 'words' }>['mode'], options: Partial<FTMatchOptions> = {}, times?: number): FTNode {
  const node: FTNode = { t: 'words', value: { fixed: terms }, mode, options: { ...DEFAULT_MATCH_OPTIONS, ...options } };
  return times === undefined ? node : { ...node, times: { min: { fixed: times }, max: null } };
}

const term = fc.array(fc.constantFrom(...VOCABULARY), { minLength: 0, maxLength: 3 }).map((ws) => ws.join(' '));
const options: fc.Arbitrary<Partial<FTMatchOptions>> = fc.record({
  case: fc.constantFrom('insensitive', 'sensitive', 'lowercase', 'uppercase'),
  diacritics: fc.constantFrom('insensitive', 'sensitive'),
}) as fc.Arbitrary<Partial<FTMatchOptions>>;
const leaf: fc.Arbitrary<FTNode> = fc
  .tuple(fc.array(term, { minLength: 0, maxLength: 3 }), fc.constantFrom('any', 'all', 'phrase', 'any word', 'all words'), options, fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }))
  .map(([terms, mode, o, times]) => wordsNode(terms, mode as Extract<FTNode, { t: 'words' }>['mode'], o, times));
const selection: fc.Arbitrary<FTNode> = fc.letrec<{ node: FTNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record({ t: fc.constantFrom('or', 'and'), items: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }) as fc.Arbitrary<FTNode>,
    tie('node').map((item): FTNode => ({ t: 'not', item })),
    tie('node').map((item): FTNode => ({ t: 'ordered', item })),
    tie('node').map((item): FTNode => ({ t: 'window', item, size: { fixed: 3 }, unit: 'words' })),
    tie('node').map((item): FTNode => ({ t: 'content', item, at: 'entire' })),
    tie('node').map((item): FTNode => ({ t: 'weight', item, weight: { fixed: 0.5 } })),
  ),
})).node;
const text = fc
  .array(fc.oneof(fc.constantFrom(...VOCABULARY), fc.constantFrom(' ', '. ', '\n', '-', 'golden', 'sold', 'Ölgold')), { maxLength: 12 })
  .map((parts) => parts.join(' '));

function matches(node: FTNode, t: string): boolean {
  return satisfied(new ItemMatcher(tokenize(t), { values: [] }).eval(node));
}

describe('the pre-check of contains text without an index', () => {
  test('a text it passes over never satisfies the selection', () => {
    fc.assert(
      fc.property(selection, text, (node, t) => {
        const needed = requiredWords(node);
        if (needed !== undefined && holdsNone(t, needed)) expect(matches(node, t)).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  test('words are folded ignoring case and diacritics; a phrase needs its longest word', () => {
    expect(requiredWords(wordsNode(['Café au lait'], 'phrase'))).toEqual(['cafe']);
    expect(requiredWords(wordsNode(['gold', 'old silver'], 'any'))).toEqual(['gold', 'silver']);
    expect(requiredWords(wordsNode(['gold', 'old silver'], 'any word'))).toEqual(['gold', 'old', 'silver']);
    expect(requiredWords({ t: 'and', items: [wordsNode(['a b'], 'any word'), wordsNode(['gold'], 'any')] })).toEqual(['gold']);
    expect(requiredWords({ t: 'or', items: [wordsNode(['a'], 'any'), wordsNode(['gold'], 'any')] })).toEqual(['a', 'gold']);
    expect(holdsNone('The GOLDEN age', ['gold'])).toBe(false);
    expect(holdsNone('The silver age', ['gold'])).toBe(true);
    // not ASCII: lowercasing the whole text may differ from lowercasing its tokens
    expect(holdsNone('ΟΔΟΣ silver', ['gold'])).toBe(false);
  });

  test('selections a word may match without being in the text, or that raise errors per text, are left to the matcher', () => {
    for (const o of [{ stemming: true }, { wildcards: true }, { fuzzy: true }, { language: 'xx-invalid!' }, { stopWords: [{ op: 'base' as const, words: ['the'] }] }, { thesauri: [{ at: 'x' }] }]) {
      expect(requiredWords(wordsNode(['gold'], 'any', o))).toBeUndefined();
    }
    expect(requiredWords(wordsNode(['gold'], 'any', {}, 0))).toBeUndefined();
    expect(requiredWords({ t: 'words', value: { dyn: 0 }, mode: 'any', options: DEFAULT_MATCH_OPTIONS })).toBeUndefined();
    expect(requiredWords({ t: 'not', item: wordsNode(['gold'], 'any') })).toBeUndefined();
    expect(requiredWords({ t: 'mildnot', left: wordsNode(['gold'], 'any'), right: { t: 'not', item: wordsNode(['a'], 'any') } })).toBeUndefined();
    expect(requiredWords({ t: 'weight', item: wordsNode(['gold'], 'any'), weight: { fixed: 2000 } })).toBeUndefined();
    expect(requiredWords({ t: 'weight', item: wordsNode(['gold'], 'any'), weight: { dyn: 0 } })).toBeUndefined();
    expect(requiredWords({ t: 'window', item: wordsNode(['gold'], 'any'), size: { dyn: 0 }, unit: 'words' })).toBeUndefined();
    expect(requiredWords(wordsNode([''], 'any'))).toBeUndefined();
  });
});
