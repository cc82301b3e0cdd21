/**
 * The leaves of a leaf column (leaf-columns.ts) ranked in codepoint order, and the keys of an
 * order by over leaves (XQuery 3.1 §3.12.8: an untyped key compares as xs:string, by the
 * codepoint collation, which the plans that read leaves require) made from them.
 *
 * Sorting strings calls a comparison of two strings n log n times: 50,000 names sorted took
 * 30-60 ms. A column's distinct strings (leaf-ids.ts `internedOf`) are sorted once instead and
 * each leaf gets its string's rank, kept per column, which lives as long as its document: an
 * order by whose keys are all leaves of one document then sorts whole numbers, by counting
 * (order-tuples.ts `rankColumn`), in time linear in the tuples. Keys from several documents
 * (whose columns rank apart) are compared as strings, as before.
 */
import type { Column } from './leaf-columns';
import { internedOf } from './leaf-ids';
import { EMPTY, VALUE, codepointOrder, rankColumn, sortColumn, type SortColumn } from '../../functions/order-tuples';

/** Per leaf of a column, the rank of its string among the column's distinct strings (from 1). */
export interface LeafRanks {
  readonly of: Int32Array;
  /** The largest rank. */
  readonly max: number;
  /** The rank of `''`: 1 when some leaf is empty, else 0, below every leaf (no string is less). */
  readonly emptyString: number;
}

const kept = new WeakMap<Column, LeafRanks>();

export function leafRanks(column: Column): LeafRanks {
  let found = kept.get(column);
  if (found) return found;
  const { ids, strings } = internedOf(column);
  const compare = codepointOrder(strings);
  const order = strings.map((_, k) => k).sort((a, b) => compare(strings[a], strings[b]));
  // ids are 1 + the index of the string in `strings`; the strings are distinct, so no two share a rank
  const rankOfId = new Int32Array(strings.length + 1);
  order.forEach((k, place) => (rankOfId[k + 1] = place + 1));
  const of = new Int32Array(ids.length);
  for (let j = 0; j < ids.length; j++) of[j] = rankOfId[ids[j]];
  found = { of, max: strings.length, emptyString: strings[order[0]] === '' ? 1 : 0 };
  kept.set(column, found);
  return found;
}

/**
 * The keys of one order spec over `n` tuples, told tuple by tuple which leaf is the key (`leaf`)
 * or that there is none (`none`), and made a sort column at the end (`column`): ranks when every
 * tuple's leaf is in one column, else strings. `noneIsEmpty`: no leaf is the key `''` (the
 * spec's `string(…)`), else the empty key.
 */
export class LeafSortKeys {
  private readonly ranks: Uint8Array;
  /** Per tuple, its leaf in its column; -1 for none. */
  private readonly leaves: Int32Array;
  private first: Column | undefined;
  /** Per tuple, its column, once two tuples' columns differ. */
  private columns: Column[] | undefined;

  constructor(
    private readonly n: number,
    private readonly emptyGreatest: boolean,
    private readonly noneIsEmpty: boolean,
  ) {
    this.ranks = new Uint8Array(n);
    this.leaves = new Int32Array(n);
  }

  /** Tuple `t`'s key is leaf `j` of `column` (-1: the tuple has none). */
  leaf(t: number, column: Column, j: number): void {
    if (this.columns) this.columns[t] = column;
    else if (this.first === undefined) this.first = column;
    else if (column !== this.first) {
      this.columns = new Array<Column>(this.n).fill(this.first);
      this.columns[t] = column;
    }
    this.leaves[t] = j;
    const rank = j >= 0 || this.noneIsEmpty ? VALUE : EMPTY;
    this.ranks[t] = this.emptyGreatest ? VALUE - rank : rank;
  }

  column(descending: boolean): SortColumn {
    const { n, leaves } = this;
    const numbers = new Float64Array(n);
    if (this.columns === undefined) {
      if (this.first === undefined) return rankColumn(this.ranks, numbers, 0, descending);
      const { of, max, emptyString } = leafRanks(this.first);
      for (let t = 0; t < n; t++) numbers[t] = leaves[t] >= 0 ? of[leaves[t]] : emptyString;
      return rankColumn(this.ranks, numbers, max, descending);
    }
    const strings = new Array<string>(n);
    for (let t = 0; t < n; t++) strings[t] = leaves[t] >= 0 ? this.columns[t].strings[leaves[t]] : '';
    return sortColumn(this.ranks, numbers, strings, descending);
  }
}
