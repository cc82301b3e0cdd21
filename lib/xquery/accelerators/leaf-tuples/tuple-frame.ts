/**
 * The tuple stream of engine:leaf-tuples (leaf-tuples.ts) between two clauses, by columns: one
 * row per tuple, per stored variable an array of its values by row. Nothing is made per tuple
 * but the values themselves (numbers and strings); the clauses keep, reorder and group rows.
 *
 * Before a group by clause a row also knows its for variable's element: its index among the
 * elements of its name in its document, and that document's leaf columns (leaf-columns.ts).
 * After it a row is a group, whose tuples are rows of the stream before the clause.
 */
import type { Source } from '../leaf-columns/element-locator';

/** Thrown when engine:leaf-tuples cannot answer exactly: at compilation, for the plan; while running, for the call. */
export class Decline extends Error {}

export const decline = (): never => {
  throw new Decline();
};

export class Frame {
  constructor(
    /** The number of rows. */
    readonly n: number,
    /** Per stored slot, its values by row (tuple-expressions.ts says which slots are stored). */
    readonly cols: unknown[][],
    /** Before a group by: per row, the element's index among the elements of its name. */
    readonly at: Int32Array | null,
    /** Before a group by: per row, the index in `sources` of the element's document. */
    readonly doc: Int32Array | null,
    /** Per document met, its leaf columns by path and its node columns (element-locator.ts). */
    readonly sources: readonly Source[],
    /** The values of the variables bound outside the FLWOR (tuple-expressions.ts `Single`s). */
    readonly outer: readonly unknown[],
    /** After a group by: the stream before it, and per group g its rows there, `rows[start[g] .. start[g + 1])`. */
    readonly pre: Frame | null = null,
    readonly start: Int32Array | null = null,
    readonly rows: Int32Array | null = null,
  ) {}

  /** The rows `picked`, in that order: what a where clause keeps, or an order by clause's order. */
  pick(picked: ArrayLike<number>): Frame {
    const n = picked.length;
    const cols = this.cols.map((col) => {
      if (!col) return col;
      const out = new Array<unknown>(n);
      for (let i = 0; i < n; i++) out[i] = col[picked[i]];
      return out;
    });
    let at: Int32Array | null = null;
    let doc: Int32Array | null = null;
    if (this.at && this.doc) {
      at = new Int32Array(n);
      doc = new Int32Array(n);
      for (let i = 0; i < n; i++) {
        at[i] = this.at[picked[i]];
        doc[i] = this.doc[picked[i]];
      }
    }
    if (!this.start || !this.rows) return new Frame(n, cols, at, doc, this.sources, this.outer);
    const start = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) start[i + 1] = start[i] + this.start[picked[i] + 1] - this.start[picked[i]];
    const rows = new Int32Array(start[n]);
    for (let i = 0; i < n; i++) rows.set(this.rows.subarray(this.start[picked[i]], this.start[picked[i] + 1]), start[i]);
    return new Frame(n, cols, at, doc, this.sources, this.outer, this.pre, start, rows);
  }

  /** Sets slot `s` to `values`, one per row. */
  store(s: number, values: unknown[]): void {
    this.cols[s] = values;
  }
}

/**
 * The groups of `ids` (per row, a value standing for its grouping keys, equal exactly for equal
 * keys), in order of first appearance: the stream after the group by clause, with no slot stored
 * yet, and per group the first of its rows.
 */
export function groupRows(frame: Frame, ids: readonly unknown[]): { readonly grouped: Frame; readonly firsts: Int32Array } {
  const n = frame.n;
  const groupOf = new Int32Array(n);
  const sizes: number[] = [];
  const firsts: number[] = [];
  // small non-negative integers (the leaf numbers of one key: leafKeyIds) index a table, other ids a Map
  const bound = denseBound(ids);
  const table = bound === undefined ? undefined : new Int32Array(bound).fill(-1);
  const index = table === undefined ? new Map<unknown, number>() : undefined;
  for (let r = 0; r < n; r++) {
    const id = ids[r];
    let g = table !== undefined ? table[id as number] : (index!.get(id) ?? -1);
    if (g < 0) {
      g = sizes.length;
      if (table !== undefined) table[id as number] = g;
      else index!.set(id, g);
      sizes.push(0);
      firsts.push(r);
    }
    sizes[g]++;
    groupOf[r] = g;
  }
  const groups = sizes.length;
  const start = new Int32Array(groups + 1);
  for (let g = 0; g < groups; g++) start[g + 1] = start[g] + sizes[g];
  const fill = start.slice(0, groups);
  const rows = new Int32Array(n);
  for (let r = 0; r < n; r++) rows[fill[groupOf[r]]++] = r;
  return { grouped: new Frame(groups, [], null, null, frame.sources, frame.outer, frame, start, rows), firsts: Int32Array.from(firsts) };
}

/**
 * One more than the largest of `ids` when all are integers from 0 below a table's worth of
 * rows (a few times their number), else undefined: equal integers are equal ids either way.
 */
function denseBound(ids: readonly unknown[]): number | undefined {
  const limit = 4 * ids.length + 1024;
  let max = -1;
  for (const id of ids) {
    if (typeof id !== 'number' || (id | 0) !== id || id < 0 || id >= limit) return undefined;
    if (id > max) max = id;
  }
  return max + 1;
}
