/**
 * The key table of a hash join (translate/flwor/join.ts), held in JavaScript:
 *
 *   Q{urn:xmldb-rest:engine}join-table($entries as xs:string*) as xs:string
 *   Q{urn:xmldb-rest:engine}join-has($table as xs:string, $key as xs:string) as xs:boolean
 *   Q{urn:xmldb-rest:engine}join-positions($table as xs:string, $keys as xs:string*) as xs:integer*
 *
 * `$entries` lists, for each item of the join's inner sequence in order, `#` and its position
 * (`#1`), then its keys (join.ts makes them: `s`, `u`, `n` and `k` keys, never starting with `#`).
 * join-table answers a handle of the table (key → the positions giving it, ascending, each once);
 * join-has whether a key is in it; join-positions the positions of any of the keys, ascending,
 * each once.
 *
 * An XDM map from keys to positions was the join's own: saxon-js's maps compare the keys of a
 * bucket one by one as XDM values, and for XMark Q8 at factor 1 (9,750 auctions looked up for each
 * of 25,500 people) those lookups took most of the query's time. A table lives for the query
 * that made it only: queries run synchronously in a worker, and the tables made in one turn of
 * the event loop are dropped at the next, so a handle never outlives its query.
 */
import { ENGINE_NS } from '../constants';
import { castString, registerFunctions, type XdmValue } from '../../saxon';

export const JOIN_TABLE_FUNCTION = 'join-table';
export const JOIN_HAS_FUNCTION = 'join-has';
export const JOIN_POSITIONS_FUNCTION = 'join-positions';

const tables = new Map<string, Map<string, number[]>>();
let made = 0;

function tableOf(handle: XdmValue): Map<string, number[]> {
  const table = tables.get(String(handle[0]));
  if (table === undefined) throw new Error('engine:join-table: a join table was read after its query');
  return table;
}

function joinTable([entries]: XdmValue[]): XdmValue {
  const table = new Map<string, number[]>();
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
  if (tables.size === 0) setImmediate(() => tables.clear());
  const handle = `t${++made}`;
  tables.set(handle, table);
  return [castString(handle, 'string')];
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
    [JOIN_TABLE_FUNCTION]: { sig: '1F r[1AS] a[*AS]', impl: joinTable },
    [JOIN_HAS_FUNCTION]: { sig: '1F r[1AB] a[1AS,1AS]', impl: joinHas },
    [JOIN_POSITIONS_FUNCTION]: { sig: '1F r[*ADI] a[1AS,*AS]', impl: joinPositions },
  });
}
