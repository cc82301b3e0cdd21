/**
 * The key table of a hash join (translate/flwor/join.ts), held in JavaScript:
 *
 *   Q{urn:xmldb-rest:engine}join-table($items as array(*), $entries as xs:string*) as array(*)
 *   Q{urn:xmldb-rest:engine}join-has($table as array(*), $key as xs:string) as xs:boolean
 *   Q{urn:xmldb-rest:engine}join-positions($table as array(*), $keys as xs:string*) as xs:integer*
 *
 * `$items` is the join's inner sequence as an array, made once where the join is bound; its table
 * is built from `$entries` the first time join-table is called with it, and kept as long as the
 * array (by the array object's identity): join-table answers the array itself, as the table's
 * handle. `$entries` lists, for each item in order, `#` and its position (`#1`), then its keys
 * (join.ts makes them: `s`, `u`, `n` and `k` keys, never starting with `#`); it is evaluated
 * only when the table is built, so a join whose probe never runs (a nested FLWOR that
 * engine:leaf-tuples answers) never computes its keys. join-has tells whether a key is in the
 * table; join-positions gives the positions of any of the keys, ascending, each once.
 *
 * An XDM map from keys to positions was the join's own: saxon-js's maps compare the keys of a
 * bucket one by one as XDM values, and for XMark Q8 at factor 1 (9,750 auctions looked up for each
 * of 25,500 people) those lookups took most of the query's time.
 */
import { ENGINE_NS } from '../constants';
import { castString, registerFunctions, type XdmValue } from '../../saxon';

export const JOIN_TABLE_FUNCTION = 'join-table';
export const JOIN_HAS_FUNCTION = 'join-has';
export const JOIN_POSITIONS_FUNCTION = 'join-positions';

type Table = Map<string, number[]>;

const tables = new WeakMap<object, Table>();

function build(entries: XdmValue): Table {
  const table: Table = new Map();
  let position = 0;
  for (const entry of entries) {
    const s = String(entry);
    if (s.startsWith('#')) {
      position = Number(s.slice(1));
      continue;
    }
    const list = table.get(s);
    if (list === undefined) table.set(s, [position]);
    else if (list[list.length - 1] !== position) list.push(position);
  }
  return table;
}

function tableOf(handle: XdmValue): Table {
  const table = tables.get(handle[0] as object);
  if (table === undefined) throw new Error('engine:join-table: a join table was read before it was built');
  return table;
}

function joinTable([items, entries]: (() => XdmValue)[]): XdmValue {
  const array = items();
  const key = array[0] as object;
  if (!tables.has(key)) tables.set(key, build(entries()));
  return array;
}

function joinHas([handle, key]: XdmValue[]): XdmValue {
  return [castString(tableOf(handle).has(String(key[0])) ? 'true' : 'false', 'boolean')];
}

function joinPositions([handle, keys]: XdmValue[]): XdmValue {
  const table = tableOf(handle);
  let positions: number[] = [];
  if (keys.length === 1) positions = table.get(String(keys[0])) ?? [];
  else {
    const all = new Set<number>();
    for (const key of keys) for (const p of table.get(String(key)) ?? []) all.add(p);
    positions = [...all].sort((a, b) => a - b);
  }
  return positions.map((p) => castString(String(p), 'integer'));
}

/** Registers engine:join-table, engine:join-has and engine:join-positions with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerJoinTableFunctions(): void {
  registerFunctions(ENGINE_NS, {
    [JOIN_TABLE_FUNCTION]: { sig: '1F r[1FA] a[1FA,*AS]', lazy: true, impl: joinTable },
    [JOIN_HAS_FUNCTION]: { sig: '1F r[1AB] a[1FA,1AS]', impl: joinHas },
    [JOIN_POSITIONS_FUNCTION]: { sig: '1F r[*ADI] a[1FA,*AS]', impl: joinPositions },
  });
}
