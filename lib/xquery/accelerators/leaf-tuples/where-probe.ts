/**
 * A where clause `where $v/path = $outer` (a general comparison of a leaf path of the for
 * variable's element with a string bound outside the FLWOR) answered from the leaf column's
 * values instead of testing every row: a FLWOR nested in a loop runs once per outer value over
 * the same elements (XMark Q10: the 25,500 people of factor 1 for each of 1,000 categories,
 * `where $t/profile/interest/@category = $i`), and each run then costs its matches.
 *
 * The leaf values of a column (leaf-columns.ts: per element of the name, its leaves' string
 * values) are indexed once per column, value → the elements that have it, and kept as long as
 * the column (a document's columns never change). Untyped leaves compared with a string or
 * another untyped value compare as strings by codepoints (XPath 3.1 §3.7.2 under the codepoint
 * collation the planner requires), which is JavaScript's string equality. A frame is answered
 * when its rows are the elements of one document in document order (their element indexes
 * increasing, as the for clause's sequence of one document gives them); otherwise the caller
 * tests each row.
 */
import type { Column } from '../leaf-columns/leaf-columns';
import { firstAtOrAfter } from '../../../tree/name-rows';
import type { Frame } from './tuple-frame';

/** Per column, its values' elements (element indexes in increasing order). */
const indexes = new WeakMap<Column, Map<string, Int32Array>>();

/** Per frame's element indexes, whether they increase. */
const increasing = new WeakMap<Int32Array, boolean>();

const NONE = new Int32Array(0);

function indexOf(column: Column): Map<string, Int32Array> {
  let index = indexes.get(column);
  if (index !== undefined) return index;
  const lists = new Map<string, number[]>();
  const { offsets, strings } = column;
  for (let i = 0; i + 1 < offsets.length; i++) {
    for (let j = offsets[i]; j < offsets[i + 1]; j++) {
      const list = lists.get(strings[j]);
      if (list === undefined) lists.set(strings[j], [i]);
      else if (list[list.length - 1] !== i) list.push(i);
    }
  }
  index = new Map();
  for (const [value, list] of lists) index.set(value, Int32Array.from(list));
  indexes.set(column, index);
  return index;
}

function isIncreasing(at: Int32Array): boolean {
  let known = increasing.get(at);
  if (known === undefined) {
    known = true;
    for (let r = 1; r < at.length && known; r++) known = at[r] > at[r - 1];
    increasing.set(at, known);
  }
  return known;
}

/**
 * The rows of `fr` (in order) whose leaves of path `path` include `value` (null: the empty
 * sequence, which equals nothing); undefined when the frame is not one this can answer.
 */
export function rowsWithLeaf(fr: Frame, path: number, value: string | null): ArrayLike<number> | undefined {
  const { at, pre } = fr;
  if (pre !== null || at === null || fr.sources.length !== 1 || !isIncreasing(at)) return undefined;
  if (value === null) return NONE;
  const elements = indexOf(fr.sources[0].columns[path]).get(value);
  if (elements === undefined) return NONE;
  const rows: number[] = [];
  let from = 0;
  for (const element of elements) {
    from = firstAtOrAfter(at, element, from);
    if (from === at.length) break;
    if (at[from] === element) rows.push(from);
  }
  return rows;
}
