/**
 * The groups of a group by clause over the tuple stream (leaf-tuples/tuple-frame.ts `groupRows`):
 * small non-negative integer ids (the leaf numbers of one key) are grouped through a table, any
 * other ids through a Map; both give the same groups, in order of first appearance.
 */
import { Frame, groupRows } from '../../../../lib/xquery/accelerators/leaf-tuples/tuple-frame';

/** Per group, its rows of the stream before the clause; and each group's first row. */
function groups(ids: readonly unknown[]): { rows: number[][]; firsts: number[] } {
  const { grouped, firsts } = groupRows(new Frame(ids.length, [], null, null, [], []), ids);
  const rows = Array.from({ length: grouped.n }, (_, g) => Array.from(grouped.rows!.subarray(grouped.start![g], grouped.start![g + 1])));
  return { rows, firsts: Array.from(firsts) };
}

const EXPECTED = { rows: [[0, 2, 5], [1, 4], [3]], firsts: [0, 1, 3] };

test.each<[string, unknown[]]>([
  ['small integers (a table)', [3, 1, 3, 0, 1, 3]],
  ['0 as a key among them', [0, 7, 0, 2, 7, 0]],
  ['integers past the table size (a Map)', [1e9, 5, 1e9, 7, 5, 1e9]],
  ['a negative integer (a Map)', [-1, 5, -1, 7, 5, -1]],
  ['fractions (a Map)', [0.5, 1, 0.5, 2, 1, 0.5]],
  ['strings (a Map)', ['a', 'b', 'a', 'c', 'b', 'a']],
  ['numbers and strings that look alike stay apart (a Map)', [1, '1', 1, 2, '1', 1]],
])('%s', (_, ids) => {
  expect(groups(ids)).toStrictEqual(EXPECTED);
});

test('no rows, no groups', () => {
  expect(groups([])).toStrictEqual({ rows: [], firsts: [] });
});
