/**
 * Leaves ranked in codepoint order (accelerators/leaf-columns/leaf-ranks.ts) and the sorts that
 * count their ranks (functions/order-tuples.ts `rankColumn`): the same order as sorting the
 * strings themselves, ties in input order in either direction.
 */
import fc from 'fast-check';
import type { Column } from '../../../../lib/xquery/accelerators/leaf-columns/leaf-columns';
import { LeafSortKeys, leafRanks } from '../../../../lib/xquery/accelerators/leaf-columns/leaf-ranks';
import { EMPTY, VALUE, sortColumn, sortedPositions } from '../../../../lib/xquery/functions/order-tuples';

/** A column of one leaf per element. */
const columnOf = (strings: string[]): Column => ({ offsets: Int32Array.from({ length: strings.length + 1 }, (_, i) => i), strings, single: true });

/** Codepoints of a string, for a reference comparison written apart from the code under test. */
const codepoints = (s: string): number[] => Array.from(s, (c) => c.codePointAt(0)!);
function byCodepoints(a: string, b: string): number {
  const x = codepoints(a);
  const y = codepoints(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/** The order of keys (a string, or null for none) as the specification gives it, written plainly: empty least unless `greatest`, stable. */
function reference(keys: (string | null)[], descending: boolean, greatest: boolean): number[] {
  const rank = (k: string | null) => (k === null ? (greatest ? 1 : -1) : 0);
  return keys
    .map((_, t) => t)
    .sort((i, j) => {
      const a = keys[i];
      const b = keys[j];
      const d = rank(a) - rank(b) || (a !== null && b !== null ? byCodepoints(a, b) : 0);
      return descending ? -d : d;
    });
}

describe('leafRanks', () => {
  test('ranks by codepoint, not by UTF-16 code unit, equal strings alike', () => {
    // U+FF21 is below U+1D538 as a codepoint, above its first surrogate (U+D835) as a code unit
    const ranks = leafRanks(columnOf(['\uFF21', '𝔸', 'b', '', 'b', 'a']));
    expect(Array.from(ranks.of)).toEqual([4, 5, 3, 1, 3, 2]);
    expect(ranks.max).toBe(5);
    expect(ranks.emptyString).toBe(1);
    expect(leafRanks(columnOf(['b', 'a'])).emptyString).toBe(0);
  });

  test('are made once per column', () => {
    const column = columnOf(['b', 'a']);
    expect(leafRanks(column)).toBe(leafRanks(column));
  });
});

describe('sorting leaves by their ranks', () => {
  const strings = fc.constantFrom('', 'a', 'b', 'ab', 'B', 'é', '\uFF21', '𝔸', '𝔸a', '\uE000');
  const cases = fc.record({
    // per tuple: which of two columns (documents) its leaf is in, and its leaf or none
    tuples: fc.array(fc.record({ second: fc.boolean(), leaf: fc.option(strings, { nil: null }) }), { maxLength: 30 }),
    descending: fc.boolean(),
    greatest: fc.boolean(),
    twoDocuments: fc.boolean(),
  });

  test('gives the order of the strings themselves, from one column or from two', () => {
    fc.assert(
      fc.property(cases, ({ tuples, descending, greatest, twoDocuments }) => {
        // each tuple's leaf is the next of its column's strings
        const strings: [string[], string[]] = [[], []];
        const at = tuples.map(({ second, leaf }) => {
          const c = twoDocuments && second ? 1 : 0;
          return [c, leaf === null ? -1 : strings[c].push(leaf) - 1] as const;
        });
        const columns = strings.map(columnOf);
        const keys = new LeafSortKeys(tuples.length, greatest, false);
        at.forEach(([c, j], t) => keys.leaf(t, columns[c], j));
        const sorted = sortedPositions([keys.column(descending)], tuples.length);
        expect(sorted).toEqual(reference(tuples.map((t) => t.leaf), descending, greatest));
      }),
    );
  });

  test('with several keys, the first decides and the next break its ties', () => {
    const names = ['b', 'a', 'b', 'a', 'c', 'b'];
    const values = ['2', '9', '1', '9', '', '2'];
    const byName = new LeafSortKeys(6, false, false);
    const byValue = new LeafSortKeys(6, false, false);
    const nameColumn = columnOf(names);
    const valueColumn = columnOf(values);
    for (let t = 0; t < 6; t++) {
      byName.leaf(t, nameColumn, t);
      byValue.leaf(t, valueColumn, values[t] === '' ? -1 : t);
    }
    expect(sortedPositions([byName.column(false), byValue.column(true)], 6)).toEqual([1, 3, 0, 5, 2, 4]);
    // the same keys compared as strings
    const asStrings = (keys: string[], descending: boolean) =>
      sortColumn(Uint8Array.from(keys, (k) => (k === '' ? EMPTY : VALUE)), new Float64Array(keys.length), keys, descending);
    expect(sortedPositions([asStrings(names, false), asStrings(values, true)], 6)).toEqual([1, 3, 0, 5, 2, 4]);
  });

  test('no leaf is the key "" for string(): equal to an empty leaf, below every other', () => {
    const column = columnOf(['b', '', 'a']);
    const keys = new LeafSortKeys(4, false, true);
    keys.leaf(0, column, 0);
    keys.leaf(1, column, -1);
    keys.leaf(2, column, 1);
    keys.leaf(3, column, 2);
    expect(sortedPositions([keys.column(false)], 4)).toEqual([1, 2, 3, 0]);
    expect(sortedPositions([keys.column(true)], 4)).toEqual([0, 3, 1, 2]);
  });
});

