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
 * (translate/flwor-group-leaves.ts emits the call). Key i is the atomized value of the path of
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
import { ENGINE_NS } from '../constants';
import { groupKeyMessage } from '../group-tuples';
import { NodeKind, arrayValue, castString, isNode, registerFunctions, xpathError, type XdmItem, type XdmNode, type XdmValue } from '../../saxon';
import { leafPathColumn, nodeColumn, type Column, type LeafKind, type LeafStep, type NodeColumn } from './leaf-columns';
import { elementsNamed, expandedName, type DomNode } from './name-index';

/** The local name of the function in ENGINE_NS. */
export const GROUP_LEAVES_FUNCTION = 'group-leaves';

const KINDS = new Set<string>(['child', 'attribute', 'text', 'self']);

/** `kind leaf`: the leaf is what follows the first space (a namespace URI may hold spaces). */
function parseStep(step: string): LeafStep | undefined {
  const space = step.indexOf(' ');
  const kind = space < 0 ? step : step.slice(0, space);
  return KINDS.has(kind) ? { kind: kind as LeafKind, leaf: space < 0 ? '' : step.slice(space + 1) } : undefined;
}

/** The elements of one name in one document, the columns of the keys over them, and where the last node was found. */
interface Source {
  readonly elements: readonly DomNode[];
  readonly columns: readonly Column[];
  /** The nodes of the value paths below each element. */
  readonly values: readonly NodeColumn[];
  cursor: number;
  /** Element → index, built when the nodes do not follow the elements' order. */
  positions?: Map<DomNode, number>;
}

/** The document node at the root of `node`'s tree, or undefined when the root is not a document. */
function documentOf(node: DomNode): XdmNode | undefined {
  let n = node;
  while (n.parentNode) n = n.parentNode;
  return n.nodeType === NodeKind.document ? n : undefined;
}

/** Finds each node's element list and index in it, node after node. */
class Locator {
  /** The source of the node located last. */
  source: Source | undefined;
  private readonly sources = new Map<readonly DomNode[], Source>();
  private lastParent: DomNode | null | undefined;
  private lastDoc: XdmNode | undefined;

  constructor(
    private readonly paths: readonly (readonly LeafStep[])[],
    private readonly valuePaths: readonly (readonly LeafStep[])[],
  ) {}

  /**
   * The index of `item` in the elements of `this.source`, which it sets; -1 when `item` is not an
   * element of a document tree. Nodes that follow their elements' order are found by comparing
   * one element.
   */
  locate(item: XdmItem): number {
    const last = this.source;
    if (last !== undefined && last.elements[last.cursor] === item) return last.cursor++;
    if (!isNode(item) || item.nodeType !== NodeKind.element) return -1;
    const node = item as DomNode;
    const parent = node.parentNode;
    if (parent !== this.lastParent || !parent) {
      this.lastParent = parent;
      this.lastDoc = parent ? documentOf(parent) : undefined;
    }
    const doc = this.lastDoc;
    if (!doc) return -1;
    const name = expandedName(node);
    const elements = elementsNamed(doc, name);
    let source = this.sources.get(elements);
    if (!source) {
      const columns = this.paths.map((path) => leafPathColumn(doc, name, path));
      source = { elements, columns, values: this.valuePaths.map((path) => nodeColumn(doc, name, path)), cursor: 0 };
      this.sources.set(elements, source);
    }
    this.source = source;
    let index = source.cursor;
    if (elements[index] !== node) {
      source.positions ??= new Map(elements.map((e, i) => [e, i]));
      const found = source.positions.get(node);
      if (found === undefined) return -1;
      index = found;
    }
    source.cursor = index + 1;
    return index;
  }
}

/** Marks an empty key in a group's hash: U+0001 is no XML character, so no string value holds it. */
const EMPTY_KEY = '\u0001';

/** The groups (see the file comment); undefined when some node has no columns. */
export function groupLeaves(
  nodes: XdmValue,
  paths: readonly (readonly LeafStep[])[],
  names: readonly string[],
  valuePaths: readonly (readonly LeafStep[])[] = [],
): XdmValue | undefined {
  const keys = paths.length;
  const locator = new Locator(paths, valuePaths);
  // per group, the members of its array: the keys of its first tuple, its nodes, the values' nodes
  const groups = new Map<string, XdmItem[][]>();
  const values = valuePaths.length;
  for (const item of nodes) {
    const index = locator.locate(item);
    if (index < 0) return undefined;
    const source = locator.source!;
    const { columns } = source;
    let hash = '';
    for (let k = 0; k < keys; k++) {
      const { offsets, strings } = columns[k];
      const start = offsets[index];
      const count = offsets[index + 1] - start;
      if (count > 1) throw xpathError(groupKeyMessage(names[k]), 'XPTY0004');
      // no XML string holds U+0000: the parts cannot run into each other
      const part = count === 0 ? EMPTY_KEY : strings[start];
      hash = k === 0 ? part : `${hash}\u0000${part}`;
    }
    let group = groups.get(hash);
    if (!group) {
      group = new Array<XdmItem[]>(keys + 1 + values);
      for (let k = 0; k < keys; k++) {
        const { offsets, strings } = columns[k];
        group[k] = offsets[index + 1] === offsets[index] ? [] : [castString(strings[offsets[index]], 'untypedAtomic')];
      }
      for (let m = keys; m < group.length; m++) group[m] = [];
      groups.set(hash, group);
    }
    group[keys].push(item);
    for (let j = 0; j < values; j++) {
      const { offsets, nodes: below } = source.values[j];
      const out = group[keys + 1 + j];
      for (let n = offsets[index], end = offsets[index + 1]; n < end; n++) out.push(below[n]);
    }
  }
  const out: XdmValue = [];
  for (const members of groups.values()) out.push(arrayValue(members));
  return out;
}

/** The paths of `steps` cut by `lengths` (see the file comment); undefined when malformed. */
function parsePaths(stepArgs: XdmValue, lengthArgs: XdmValue): LeafStep[][] | undefined {
  const steps = stepArgs.map((s) => parseStep(String(s)));
  if (!steps.every((s) => s !== undefined)) return undefined;
  const paths: LeafStep[][] = [];
  let at = 0;
  for (const length of lengthArgs) {
    const n = Number(String(length));
    paths.push(steps.slice(at, at + n) as LeafStep[]);
    at += n;
  }
  return at === steps.length && paths.every((p) => p.length > 0) ? paths : undefined;
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
