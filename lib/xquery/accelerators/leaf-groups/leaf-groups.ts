/**
 * The grouping of a group by clause whose keys are leaves of the elements a for clause binds,
 * from the per-document leaf columns (leaf-columns.ts), behind one extension function in the
 * engine's namespace:
 *
 *   Q{urn:xmldb-rest:engine}group-leaves($nodes as item()*, $steps as xs:string*,
 *       $lengths as xs:integer*, $names as xs:string*, $valueSteps as xs:string*,
 *       $valueLengths as xs:integer*) as item()*
 *
 * `$nodes` are the values of the for variable, one per tuple, in the order of the tuples
 * (accelerators/leaf-groups/flwor-group-leaves.ts emits the call). Key i is the atomized value of the path of
 * `$lengths[i]` steps that follow those of the keys before it in `$steps`, each written `kind leaf`
 * (kind `child`, `attribute`, `text` or `self`, leaf the child's or attribute's `Q{uri}local`,
 * '' for the others), taken from the tuple's node: `$v/a/b`, `$v/@c`, `$v/a/text()`, `$v` itself.
 * `$names` are the local names of the grouping variables, for the error message. Value j is
 * the path of `$valueLengths[j]` steps in `$valueSteps`, written alike, with no `self` step: the
 * nodes it selects from the tuple's node (`$v/a/b`, `$v/@c`, `$v/a/text()`), in document order.
 *
 * The answer is what engine:group-tuples (group-tuples.ts) answers for the tuples
 * `[key 1, …, key K, node, value 1, …, value V]`: one array per group, in order of first
 * appearance, holding the keys of the group's first tuple, then the nodes of the group's tuples
 * and each value's nodes over the group's tuples, in order. A key of more
 * than one item raises XPTY0004 (XQuery 3.1 §3.12.7) for the first such tuple in order, as there.
 * Nodes of the trees are untyped, so each key is the empty sequence or one xs:untypedAtomic, its
 * string value, and two keys are deep-equal exactly when both are empty or their strings are
 * equal (xs:untypedAtomic compares as xs:string, by codepoints, the engine's only collation for
 * this function; the caller leaves other collations to the plain grouping).
 *
 * The answer is the single item false() when some value is not an element in a document tree
 * (no columns); the caller then groups the tuples itself.
 *
 * Registered by `registerLeafGroupFunctions` (extension-functions.ts).
 */
import { ENGINE_NS } from '../../constants';
import { groupKeyMessage } from '../../functions/group-tuples';
import { arrayValue, castString, registerFunctions, xpathError, type XdmItem, type XdmValue } from '../../../saxon';
import type { Column, LeafStep } from '../leaf-columns/leaf-columns';
import { Locator, parsePaths } from '../leaf-columns/element-locator';

/** The local name of the function in ENGINE_NS. */
export const GROUP_LEAVES_FUNCTION = 'group-leaves';

/**
 * A column's leaves as numbers: `ids[j]` is 1 + the index in `strings` of leaf j's first
 * occurrence in the column (so equal strings share an id, and 0 is left for an empty key), and
 * `atoms` the xs:untypedAtomic of each id, made on first use. Kept per column, which lives as
 * long as its document (leaf-columns.ts), so each document's leaves are numbered once.
 */
interface Interned {
  readonly ids: Int32Array;
  readonly strings: readonly string[];
  readonly atoms: (XdmItem | undefined)[];
}

const interned = new WeakMap<Column, Interned>();

function internedOf(column: Column): Interned {
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
class KeyIds {
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
const ID_BITS = 2 ** 26;

/** The groups (see the file comment); undefined when some node has no columns. */
export function groupLeaves(
  nodes: XdmValue,
  paths: readonly (readonly LeafStep[])[],
  names: readonly string[],
  valuePaths: readonly (readonly LeafStep[])[] = [],
): XdmValue | undefined {
  const keys = paths.length;
  const locator = new Locator(paths, valuePaths);
  const keyIds = paths.map(() => new KeyIds());
  // per group, the members of its array: the keys of its first tuple, its nodes, the values' nodes
  const groups: XdmItem[][][] = [];
  // group index by the key id (one key), or by a number or string made of the key ids
  const byId: number[] = [];
  const byKeys = new Map<number | string, number>();
  const values = valuePaths.length;
  const tupleIds = new Array<number>(keys);
  const atoms = new Array<Interned>(keys);
  const leaves = new Array<number>(keys);
  for (const item of nodes) {
    const index = locator.locate(item);
    if (index < 0) return undefined;
    const source = locator.source!;
    const { columns } = source;
    for (let k = 0; k < keys; k++) {
      const column = columns[k];
      const start = column.offsets[index];
      const count = column.offsets[index + 1] - start;
      if (count > 1) throw xpathError(groupKeyMessage(names[k]), 'XPTY0004');
      const ids = internedOf(column);
      const id = count === 0 ? 0 : ids.ids[start];
      tupleIds[k] = keyIds[k].of(ids, id);
      atoms[k] = ids;
      leaves[k] = id;
    }
    let g: number | undefined;
    if (keys === 1) g = byId[tupleIds[0]];
    else {
      const hash = keys === 2 && tupleIds[0] < ID_BITS && tupleIds[1] < ID_BITS ? tupleIds[0] * ID_BITS + tupleIds[1] : tupleIds.join(',');
      g = byKeys.get(hash);
      if (g === undefined) byKeys.set(hash, groups.length);
    }
    let group: XdmItem[][];
    if (g === undefined) {
      if (keys === 1) byId[tupleIds[0]] = groups.length;
      group = new Array<XdmItem[]>(keys + 1 + values);
      for (let k = 0; k < keys; k++) group[k] = leaves[k] === 0 ? [] : [atomOf(atoms[k], leaves[k])];
      for (let m = keys; m < group.length; m++) group[m] = [];
      groups.push(group);
    } else group = groups[g];
    group[keys].push(item);
    for (let j = 0; j < values; j++) {
      const { offsets, nodes: below } = source.values[j];
      const out = group[keys + 1 + j];
      for (let n = offsets[index], end = offsets[index + 1]; n < end; n++) out.push(below[n]);
    }
  }
  const out: XdmValue = new Array(groups.length);
  for (let i = 0; i < groups.length; i++) out[i] = arrayValue(groups[i]);
  return out;
}

/** The xs:untypedAtomic of the column id `id` (not 0), made once per column. */
function atomOf(column: Interned, id: number): XdmItem {
  return (column.atoms[id] ??= castString(column.strings[id - 1], 'untypedAtomic'));
}

function groupLeavesFn([nodes, stepArgs, lengthArgs, nameArgs, valueStepArgs, valueLengthArgs]: XdmValue[]): XdmValue {
  const cannot = [castString('false', 'boolean')];
  const paths = parsePaths(stepArgs, lengthArgs);
  const values = parsePaths(valueStepArgs, valueLengthArgs);
  if (!paths || !values || nameArgs.length !== paths.length || values.some((p) => p.some((step) => step.kind === 'self'))) return cannot;
  return groupLeaves(nodes, paths, nameArgs.map(String), values) ?? cannot;
}

/** Registers engine:group-leaves with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerLeafGroupFunctions(): void {
  registerFunctions(ENGINE_NS, {
    [GROUP_LEAVES_FUNCTION]: { sig: '1F r[*] a[*,*AS,*,*AS,*AS,*]', impl: groupLeavesFn },
  });
}
