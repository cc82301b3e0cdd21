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
import type { LeafStep } from '../leaf-columns/leaf-columns';
import { Locator, parsePaths } from '../leaf-columns/element-locator';
import { ID_BITS, KeyIds, internedOf, type Interned } from '../leaf-columns/leaf-ids';

/** The local name of the function in ENGINE_NS. */
export const GROUP_LEAVES_FUNCTION = 'group-leaves';


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
