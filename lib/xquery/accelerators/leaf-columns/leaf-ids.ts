/**
 * The leaves of a leaf column (leaf-columns.ts) numbered so that equal strings share a number:
 * what groups by leaves compare instead of strings (leaf-groups.ts, leaf-tuples/).
 */
import type { Column } from './leaf-columns';
import type { XdmItem } from '../../../saxon';

/**
 * A column's leaves as numbers: `ids[j]` is 1 + the index in `strings` of leaf j's first
 * occurrence in the column (so equal strings share an id, and 0 is left for an empty key), and
 * `atoms` the xs:untypedAtomic of each id, made on first use. Kept per column, which lives as
 * long as its document (leaf-columns.ts), so each document's leaves are numbered once.
 */
export interface Interned {
  readonly ids: Int32Array;
  readonly strings: readonly string[];
  readonly atoms: (XdmItem | undefined)[];
}

const interned = new WeakMap<Column, Interned>();

export function internedOf(column: Column): Interned {
  let found = interned.get(column);
  if (found) return found;
  const index = new Map<string, number>();
  const strings: string[] = [];
  const ids = new Int32Array(column.strings.length);
  column.strings.forEach((s, j) => {
    let id = index.get(s);
    if (id === undefined) {
      id = strings.push(s);
      index.set(s, id);
    }
    ids[j] = id;
  });
  found = { ids, strings, atoms: [] };
  interned.set(column, found);
  return found;
}

/**
 * The ids of one key over the sources seen: the first source's column ids are the key's ids;
 * another source's strings are mapped to them (by string) the first time each is met.
 */
export class KeyIds {
  private first: Interned | undefined;
  private byString: Map<string, number> | undefined;
  private readonly maps = new Map<Interned, Int32Array>();
  private next = 0;

  /** The key's id of the column id `id` (0: empty) of `column`. */
  of(column: Interned, id: number): number {
    if (id === 0) return 0;
    if (this.first === undefined) {
      this.first = column;
      this.next = column.strings.length + 1;
    }
    if (column === this.first) return id;
    if (!this.byString) {
      this.byString = new Map();
      this.first.strings.forEach((s, i) => this.byString!.set(s, i + 1));
    }
    let map = this.maps.get(column);
    if (!map) {
      map = new Int32Array(column.strings.length + 1);
      this.maps.set(column, map);
    }
    let key = map[id];
    if (key === 0) {
      const s = column.strings[id - 1];
      key = this.byString.get(s) ?? 0;
      if (key === 0) {
        key = this.next++;
        this.byString.set(s, key);
      }
      map[id] = key;
    }
    return key;
  }
}


/** Ids below 2^26 make a number key of two ids exact (2^52 < 2^53); more keys, or larger ids, hash a string. */
export const ID_BITS = 2 ** 26;
