/**
 * A query token's test (fulltext/terms.ts) answers as comparing the folded tokens does, whether it
 * decides from a token's ASCII prefix or folds the token, and however often it is asked.
 */
import fc from 'fast-check';
import { termTest } from '../../../lib/xquery/fulltext/terms';
import { normalizeToken } from '../../../lib/xquery/fulltext/tokens';
import { DEFAULT_MATCH_OPTIONS, type FTMatchOptions } from '../../../lib/xquery/fulltext/selection';

// letters whose folding changes length or leaves ASCII: combining marks, the Kelvin sign, dotted I, sharp s
const PIECES = ['g', 'G', 'o', 'l', 'd', 'e', 'é', 'E', '\u0301', '\u212a', 'k', 'K', '\u0130', 'i', 'ß', 'ss', 'Ö', '1'];
const token = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 5 }).map((ps) => ps.join(''));

test('the test of a query token agrees with comparing folded tokens', () => {
  fc.assert(
    fc.property(token, fc.array(token, { minLength: 1, maxLength: 6 }), fc.constantFrom('insensitive', 'sensitive'), fc.constantFrom('insensitive', 'sensitive'), (q, ws, c, d) => {
      const o: FTMatchOptions = { ...DEFAULT_MATCH_OPTIONS, case: c as FTMatchOptions['case'], diacritics: d as FTMatchOptions['diacritics'] };
      const test = termTest(q, o, false);
      const folded = normalizeToken(q, o);
      // every word twice: the answer must not change on a second ask; a false names the case
      return [...ws, ...ws].every((w) => test(w) === (normalizeToken(w, o) === folded));
    }),
    { numRuns: 3000 },
  );
});

test('ASCII tokens: case folded or as written', () => {
  const lower = termTest('Gold', DEFAULT_MATCH_OPTIONS, false);
  expect(['gold', 'GOLD', 'golden', 'gol', 'g\u00f6ld'].map(lower)).toEqual([true, true, false, false, true]);
  const written = termTest('Gold', { ...DEFAULT_MATCH_OPTIONS, case: 'sensitive' }, false);
  expect(['gold', 'Gold', 'Göld'].map(written)).toEqual([false, true, true]);
});
