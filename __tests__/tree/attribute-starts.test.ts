/** The attribute starts of a compact tree: block bases plus 8- or 16-bit offsets, 32-bit ones when a block overflows them. */
import { AttributeStarts } from '../../lib/tree/compact-tree';
import { parseToCompactTree } from '../../lib/tree/build-tree';

/** A non-decreasing column of `n` entries, `step(i)` attributes on row `i`. */
function column(n: number, step: (i: number) => number): Int32Array {
  const starts = new Int32Array(n);
  for (let i = 1; i < n; i++) starts[i] = starts[i - 1] + step(i - 1);
  return starts;
}

describe('AttributeStarts', () => {
  test.each([
    ['no attributes', column(1000, () => 0)],
    ['a few per row, across many blocks', column(5000, (i) => i % 3)],
    ['one entry', column(1, () => 0)],
    ['a block boundary exactly at the end', column(513, (i) => i % 2)],
  ])('%s: every entry as given, in 1 byte a row', (_, starts) => {
    const compact = AttributeStarts.from(starts);
    expect(Array.from(starts, (_, i) => compact.at(i))).toEqual(Array.from(starts));
    expect(compact.byteLength).toBe(starts.length + 4 * Math.ceil(starts.length / 128));
  });

  test('rows with three attributes apiece (384 in a block of 128 rows): 16-bit offsets, every entry', () => {
    const starts = column(1000, () => 3);
    const compact = AttributeStarts.from(starts);
    expect(Array.from(starts, (_, i) => compact.at(i))).toEqual(Array.from(starts));
    expect(compact.byteLength).toBe(2 * starts.length + 4 * Math.ceil(starts.length / 128));
  });

  test('a block with more than 65,535 attributes keeps 32-bit offsets, and every entry', () => {
    const starts = column(600, (i) => (i === 300 ? 70_000 : 1));
    const compact = AttributeStarts.from(starts);
    expect(Array.from(starts, (_, i) => compact.at(i))).toEqual(Array.from(starts));
    expect(compact.byteLength).toBeGreaterThanOrEqual(4 * starts.length);
  });

  test("a tree's attributes are found through it: an element with 70,000 attributes among others", () => {
    const many = Array.from({ length: 70_000 }, (_, i) => ` a${i}="${i}"`).join('');
    const tree = parseToCompactTree(`<r><x${many}/>${'<y b="1"/>'.repeat(300)}</r>`);
    const values = (pre: number) => {
      const out: string[] = [];
      for (let a = tree.attrStart.at(pre); a < tree.attrStart.at(pre + 1); a++) out.push(tree.strings.at(tree.attrValue[a]));
      return out;
    };
    expect(values(2)).toHaveLength(70_000);
    expect(values(2).slice(-2)).toEqual(['69998', '69999']);
    expect(values(3)).toEqual(['1']);
    expect(values(tree.size - 1)).toEqual(['1']);
    expect(tree.attrStart.at(tree.size)).toBe(70_300);
  });
});
