/** The `end` and `parent` columns of a compact tree: distances in 8 or 16 bits, far rows in a table beside them. */
import { NearRows, stringValue } from '../../lib/tree/compact-tree';
import { parseToCompactTree } from '../../lib/tree/build-tree';

/** Every value of `column` read back, in row order, backwards and in a scattered order. */
function readBack(column: NearRows, n: number): number[][] {
  const forward = Array.from({ length: n }, (_, i) => column.at(i));
  const backward = Array.from({ length: n }, (_, i) => column.at(n - 1 - i)).reverse();
  const scattered: number[] = new Array<number>(n);
  for (let k = 0, i = 0; k < n; k++, i = (i + 7919) % n) scattered[i] = column.at(i);
  return [forward, backward, scattered];
}

describe('NearRows', () => {
  const ends = (n: number, far: (i: number) => boolean) => Int32Array.from({ length: n }, (_, i) => (far(i) ? Math.min(n, i + 70_000 + i) : i + 1 + (i % 200)));
  const parents = (n: number, far: (i: number) => boolean) => Int32Array.from({ length: n }, (_, i) => (i === 0 ? -1 : far(i) ? i % 3 : i - 1 - (i % 200)));

  test.each([
    ['ends, all near', ends(5000, () => false), 1 as const],
    ['ends, a few far', ends(5000, (i) => i % 997 === 0), 1 as const],
    ['parents, all near', parents(5000, () => false), -1 as const],
    ['parents, runs of far rows (the children of a large element)', parents(5000, (i) => i > 300 && i % 1000 < 400), -1 as const],
    ['one row', Int32Array.of(-1), -1 as const],
  ])('%s: every value as given, however read', (_, values, sign) => {
    const column = NearRows.from(values, sign);
    for (const read of readBack(column, values.length)) expect(read).toEqual(Array.from(values));
  });

  test('a column with few far rows takes a byte a row; one with many far rows at 8 bits takes 16 bits and stays right', () => {
    const few = ends(10_000, (i) => i % 1000 === 0);
    expect(NearRows.from(few, 1).byteLength).toBe(10_000 + 8 * 10);
    // every row 300 to 1,000 rows ahead: none fits 8 bits, all fit 16
    const mid = Int32Array.from({ length: 10_000 }, (_, i) => i + 300 + (i % 700));
    const column = NearRows.from(mid, 1);
    expect(column.byteLength).toBe(2 * 10_000);
    for (const read of readBack(column, mid.length)) expect(read).toEqual(Array.from(mid));
  });

  test('a tree with an element of 70,000 children: parents, ends, siblings and string values stay right', () => {
    const children = Array.from({ length: 70_000 }, (_, i) => `<c>${i}</c>`).join('');
    const tree = parseToCompactTree(`<r><a>x</a><big>${children}</big><z>y</z></r>`);
    const big = 4; // document, r, a, its text, big
    expect(tree.parent.at(big)).toBe(1);
    const last = tree.end.at(big) - 2; // the last <c>, then its text
    expect(tree.parent.at(last)).toBe(big);
    expect(stringValue(tree, last)).toBe('69999');
    expect(tree.end.at(big)).toBe(big + 1 + 2 * 70_000);
    expect(stringValue(tree, tree.end.at(big))).toBe('y');
    expect(tree.parent.at(tree.end.at(big))).toBe(1);
    const parents: number[] = [];
    const sampled: string[] = [];
    for (let c = big + 1, i = 0; c < tree.end.at(big); c = tree.end.at(c), i++) {
      parents.push(tree.parent.at(c));
      if (i % 9973 === 0) sampled.push(stringValue(tree, c));
    }
    expect(parents).toEqual(new Array<number>(70_000).fill(big));
    expect(sampled).toEqual(Array.from({ length: 8 }, (_, k) => String(k * 9973)));
  });
});
