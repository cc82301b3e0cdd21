/**
 * BaseX's Index Module (docs.basex.org, "Index Functions"), as saxon-js extension functions in
 * namespace `http://basex.org/modules/index` (prefix `index`):
 *
 *   index:facets($db as xs:string, $type as xs:string? := ()) as document-node()
 *   index:texts($db as xs:string, $prefix as xs:string? := (), $ascending as xs:boolean? := ()) as element(entry)*
 *   index:attributes($db as xs:string, $prefix as xs:string? := (), $ascending as xs:boolean? := ()) as element(entry)*
 *   index:element-names($db as xs:string) as element(entry)*
 *   index:attribute-names($db as xs:string) as element(entry)*
 *
 * BaseX answers from its index structures; this server computes the same answers from the
 * database's documents (`databaseSummary`, the one place that reads them), so no index has to
 * exist and none is ever missing. Entries are `<entry count="n">value</entry>`: the values of the
 * text nodes or attributes (as BaseX's value indexes, whitespace-only texts and values longer
 * than 96 characters, its MAXLEN, left out), sorted by code point; with $prefix those starting
 * with it; with $ascending given, the entries from $prefix on, upwards (true) or downwards
 * (false). Names come in the order they first occur, prefixed as written.
 *
 * index:facets gives the document structure, each element and attribute path with `type` and
 * `count` (BaseX's path index): `integer` and `double` with `min` and `max`, `category` (at most
 * 100 distinct values, each an `entry` with its count), `string`, or `none` (an element with
 * element children or no text); `flat` lists every name once instead, under `document-node`.
 *
 * A database the user may not read does not exist: `[db:open]`, as for db:get.
 */
import { NodeKind, parseToSaxonDocument, registerFunctions, type XdmNode, type XdmValue } from '../../saxon';
import { escapeAttribute, escapeText } from '../../xml/escape';
import { activeDatabases } from '../worker/documents/database-access';
import { MODULE_NAMESPACES } from '../module-namespaces';
import { elementFromXml } from './support/elements';

/** BaseX's MAXLEN: longer values are not in its value indexes. */
const MAX_VALUE_LENGTH = 96;
/** BaseX's MAXCATS: more distinct values make a path a `string` one. */
const MAX_CATEGORIES = 100;

interface DomNode extends XdmNode {
  readonly firstChild?: DomNode | null;
  readonly nextSibling?: DomNode | null;
  readonly nodeValue?: string | null;
  readonly attributes?: ArrayLike<{ readonly name: string; readonly value: string }>;
}

/** One path of the document structure and what occurs at it. */
interface PathNode {
  readonly kind: 'document-node' | 'element' | 'attribute';
  readonly name: string;
  count: number;
  /** Leaf values (texts of elements without element children, attribute values). */
  readonly values: Map<string, number>;
  /** Occurrences that had a value. */
  valued: number;
  readonly children: Map<string, PathNode>;
}

/** What the index: functions read of one database. */
export interface DatabaseSummary {
  readonly texts: Map<string, number>;
  readonly attributes: Map<string, number>;
  readonly elementNames: Map<string, number>;
  readonly attributeNames: Map<string, number>;
  readonly paths: PathNode;
}

const pathNode = (kind: PathNode['kind'], name: string): PathNode => ({ kind, name, count: 0, values: new Map(), valued: 0, children: new Map() });

const add = (map: Map<string, number>, key: string): void => {
  map.set(key, (map.get(key) ?? 0) + 1);
};

const indexable = (value: string): boolean => value.length <= MAX_VALUE_LENGTH && value.trim() !== '';

function child(parent: PathNode, kind: 'element' | 'attribute', name: string): PathNode {
  const key = `${kind} ${name}`;
  let node = parent.children.get(key);
  if (!node) parent.children.set(key, (node = pathNode(kind, name)));
  return node;
}

/**
 * The summary of database `db`: where the index: functions get their data. Today a scan of the
 * documents the running query may read (db:open for another database); value indexes, where a
 * database has them, can answer here instead.
 */
export function databaseSummary(db: string): DatabaseSummary {
  const summary: DatabaseSummary = { texts: new Map(), attributes: new Map(), elementNames: new Map(), attributeNames: new Map(), paths: pathNode('document-node', '') };
  for (const doc of activeDatabases().documents(db)) {
    summary.paths.count++;
    // iterative pre-order walk: documents may nest deeper than the stack allows
    const stack: { node: DomNode; path: PathNode }[] = [{ node: doc as DomNode, path: summary.paths }];
    while (stack.length > 0) {
      const { node, path } = stack.pop()!;
      const children: { node: DomNode; path: PathNode }[] = [];
      let text = '';
      let elements = false;
      for (let c = node.firstChild ?? null; c; c = c.nextSibling ?? null) {
        if (c.nodeType === NodeKind.element) {
          elements = true;
          const name = c.nodeName ?? '';
          add(summary.elementNames, name);
          const at = child(path, 'element', name);
          at.count++;
          for (const a of Array.from(c.attributes ?? [])) {
            if (a.name === 'xmlns' || a.name.startsWith('xmlns:')) continue;
            add(summary.attributeNames, a.name);
            if (indexable(a.value)) add(summary.attributes, a.value);
            const attr = child(at, 'attribute', a.name);
            attr.count++;
            attr.valued++;
            add(attr.values, a.value);
          }
          children.push({ node: c, path: at });
        } else if (c.nodeType === NodeKind.text) {
          const value = c.nodeValue ?? '';
          text += value;
          if (indexable(value)) add(summary.texts, value);
        }
      }
      if (path.kind === 'element' && !elements && text !== '') {
        path.valued++;
        add(path.values, text);
      }
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    }
  }
  return summary;
}

// ------------------------------------------------------------------------------ entries

const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);


const entryXml = (value: string, count: number): string => `<entry count="${count}">${escapeText(value)}</entry>`;

function entries(counts: Map<string, number>): XdmValue {
  return [...counts].map(([value, count]) => elementFromXml(entryXml(value, count)));
}

/** Value entries, sorted, selected by prefix or from a start entry (see the file comment). */
function valueEntries(counts: Map<string, number>, [prefixArg, ascendingArg]: XdmValue[]): XdmValue {
  const start = prefixArg && prefixArg.length > 0 ? String(prefixArg[0]) : '';
  const keys = [...counts.keys()].sort(byCodePoint);
  let selected: string[];
  if (ascendingArg && ascendingArg.length > 0) {
    const ascending = String(ascendingArg[0]) === 'true';
    selected = ascending ? keys.filter((k) => k >= start) : keys.filter((k) => k <= start || start === '').reverse();
  } else selected = keys.filter((k) => k.startsWith(start));
  return selected.map((k) => elementFromXml(entryXml(k, counts.get(k)!)));
}

const str = (v: XdmValue): string => String(v[0]);

// ------------------------------------------------------------------------------ facets

function statistics(node: PathNode): string {
  if (node.kind === 'document-node' || node.valued === 0) return ` type="none" count="${node.count}">`;
  const values = [...node.values.keys()];
  const numbers = values.map((v) => Number(v.trim()));
  const numeric = values.every((v, i) => v.trim() !== '' && Number.isFinite(numbers[i]));
  if (numeric) {
    const type = values.every((v) => /^[-+]?\d+$/.test(v.trim())) ? 'integer' : 'double';
    return ` type="${type}" count="${node.count}" min="${Math.min(...numbers)}" max="${Math.max(...numbers)}">`;
  }
  if (node.values.size <= MAX_CATEGORIES) return ` type="category" count="${node.count}">${[...node.values].map(([v, n]) => entryXml(v, n)).join('')}`;
  return ` type="string" count="${node.count}">`;
}

function treeXml(node: PathNode): string {
  const name = node.kind === 'document-node' ? '' : ` name="${escapeAttribute(node.name)}"`;
  return `<${node.kind}${name}${statistics(node)}${[...node.children.values()].map(treeXml).join('')}</${node.kind}>`;
}

/** Every element and attribute name once, with the statistics of all its paths together. */
function flatXml(paths: PathNode): string {
  const merged = new Map<string, PathNode>();
  const visit = (node: PathNode): void => {
    for (const c of node.children.values()) {
      const key = `${c.kind} ${c.name}`;
      let m = merged.get(key);
      if (!m) merged.set(key, (m = pathNode(c.kind, c.name)));
      m.count += c.count;
      m.valued += c.valued;
      for (const [v, n] of c.values) m.values.set(v, (m.values.get(v) ?? 0) + n);
      visit(c);
    }
  };
  visit(paths);
  const sorted = [...merged.values()].sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'element' ? -1 : 1));
  return `<document-node>${sorted.map((n) => `<${n.kind} name="${escapeAttribute(n.name)}"${statistics(n)}</${n.kind}>`).join('')}</document-node>`;
}

function facets([db, type]: XdmValue[]): XdmValue {
  const { paths } = databaseSummary(str(db));
  const flat = type !== undefined && type.length > 0 && str(type) === 'flat';
  return [parseToSaxonDocument(flat ? flatXml(paths) : treeXml(paths))];
}

/** Registers the index: functions with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerIndexFunctions(): void {
  registerFunctions(MODULE_NAMESPACES.index, {
    facets: { sig: '1F r[1N] a[1AS,?AS]', arity: [1, 2], impl: facets },
    texts: { sig: '1F r[*N] a[1AS,?AS,?AB]', arity: [1, 2, 3], impl: ([db, ...rest]) => valueEntries(databaseSummary(str(db)).texts, rest) },
    attributes: { sig: '1F r[*N] a[1AS,?AS,?AB]', arity: [1, 2, 3], impl: ([db, ...rest]) => valueEntries(databaseSummary(str(db)).attributes, rest) },
    'element-names': { sig: '1F r[*N] a[1AS]', impl: ([db]) => entries(databaseSummary(str(db)).elementNames) },
    'attribute-names': { sig: '1F r[*N] a[1AS]', impl: ([db]) => entries(databaseSummary(str(db)).attributeNames) },
  });
}
