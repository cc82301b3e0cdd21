/**
 * Pending updates as XDM items.
 *
 * An updating expression evaluates to the sequence of its pending updates; each one is a map
 * with the private marker key `Q{urn:xmldb-rest:update}op` naming the primitive, plus its
 * operands (`target`, `content`, `value`, `name`, ...), so pending updates flow through FLWORs,
 * conditionals and function calls like any value, and the pending update list of a query is
 * simply the pending-update items of its result. The makers below run inside saxon-js
 * extension functions (functions/update-primitives.ts) at evaluation time and raise the type and
 * dynamic errors of XQuery Update Facility 3.0 §2.4 (targets, insertion sequences, names).
 *
 * Primitives (upd:*): insertInto, insertIntoAsFirst, insertIntoAsLast, insertBefore,
 * insertAfter, insertAttributes, delete, replaceNode, replaceValue, replaceElementContent,
 * rename, put (fn:put, update/put.ts); plus `output` (BaseX's update:output) and `db` (a store
 * change of a db: function, update/store-changes.ts).
 */
import {
  NodeKind,
  atomicTypeName,
  isArray,
  isAtomic,
  isDocumentNode,
  isMap,
  isNode,
  saxon,
  stringValue,
  type XdmAtomic,
  type XdmItem,
  type XdmMap,
  type XdmNode,
  type XdmValue,
} from '../../saxon';
import { updateError } from './update-errors';
import { attributeName, inScopeNamespaces, parentOf, XML_NS, type DomNode, type XdmAttr } from './model';

export const UPDATE_NS = 'urn:xmldb-rest:update';
/** The marker key of a pending-update map. */
export const OP_KEY = `Q{${UPDATE_NS}}op`;

export type XqufOp =
  | 'insertInto'
  | 'insertIntoAsFirst'
  | 'insertIntoAsLast'
  | 'insertBefore'
  | 'insertAfter'
  | 'insertAttributes'
  | 'delete'
  | 'replaceNode'
  | 'replaceValue'
  | 'replaceElementContent'
  | 'rename';

export type PendingOp = XqufOp | 'output' | 'db' | 'put';

/** A resolved name (xs:QName value, or a name made from a string). */
export interface NameParts {
  readonly uri: string;
  readonly prefix: string;
  readonly local: string;
}

/** A pending update read back from its map. */
export type Pending =
  | { readonly op: XqufOp; readonly target: XdmNode; readonly content: XdmNode[]; readonly value?: string; readonly name?: NameParts }
  | { readonly op: 'output'; readonly items: XdmItem[] }
  | { readonly op: 'db'; /** JSON of StoreChange[]. */ readonly change: string }
  | { readonly op: 'put'; readonly node: XdmNode; readonly db: string; readonly path: string };

// ---------------------------------------------------------------------------------------------
// maps

const key = (k: string): XdmAtomic => stringValue(k);

function pendingMap(op: PendingOp, fields: Record<string, XdmValue>): XdmMap {
  const m = new (saxon().XdmMap)();
  m.inSituPut(key(OP_KEY), [stringValue(op)]);
  for (const [k, v] of Object.entries(fields)) m.inSituPut(key(k), v);
  return m;
}

export function isPending(item: XdmItem): item is XdmMap {
  return isMap(item) && item.get(key(OP_KEY)).length === 1;
}

/** Reads a pending-update map. */
export function readPending(m: XdmMap): Pending {
  const op = String(m.get(key(OP_KEY))[0]) as PendingOp;
  const get = (k: string): XdmItem[] => m.get(key(k)) ?? [];
  if (op === 'output') return { op, items: get('items') };
  if (op === 'db') return { op, change: String(get('change')[0]) };
  if (op === 'put') return { op, node: get('node')[0] as XdmNode, db: String(get('db')[0]), path: String(get('path')[0]) };
  const value = get('value');
  const name = get('name');
  return {
    op,
    target: get('target')[0] as XdmNode,
    content: get('content') as XdmNode[],
    ...(value.length ? { value: String(value[0]) } : {}),
    ...(name.length ? { name: JSON.parse(String(name[0])) as NameParts } : {}),
  };
}

/** The pending store changes of a db: function (update/store-changes.ts StoreChange[], as JSON). */
export function dbPending(changes: readonly object[]): XdmMap {
  return pendingMap('db', { change: [stringValue(JSON.stringify(changes))] });
}

/** upd:put (fn:put): `node` is stored at `db`/`path` as it is once the query's updates are applied (update/put.ts). */
export function putPending(node: XdmNode, db: string, path: string): XdmMap {
  return pendingMap('put', { node: [node], db: [stringValue(db)], path: [stringValue(path)] });
}

export function outputPending(items: XdmValue): XdmMap {
  return pendingMap('output', { items });
}

// ---------------------------------------------------------------------------------------------
// helpers

const KIND_NAMES: Record<number, string> = {
  1: 'element()',
  2: 'attribute()',
  3: 'text()',
  7: 'processing-instruction()',
  8: 'comment()',
  9: 'document-node()',
  11: 'document-node()',
  13: 'namespace-node()',
};

/** A short description of a value for messages. */
export function describe(value: XdmValue): string {
  if (value.length === 0) return 'empty-sequence()';
  if (value.length > 1) return `a sequence of ${value.length} items`;
  const item = value[0];
  if (isNode(item)) {
    const kind = KIND_NAMES[item.nodeType] ?? 'node()';
    if (item.nodeType === NodeKind.element) return `element(${(item as DomNode).nodeName})`;
    if (item.nodeType === NodeKind.attribute) return `attribute(${(item as XdmAttr).name})`;
    return kind;
  }
  if (isAtomic(item)) return `xs:${atomicTypeName(item)}`;
  if (isMap(item)) return 'map(*)';
  if (isArray(item)) return 'array(*)';
  return 'function(*)';
}

let scratch: (DomNode & { createTextNode(t: string): XdmNode }) | undefined;

function textNode(text: string): XdmNode {
  scratch ??= saxon().getPlatform().parseXmlFromString('<x/>') as unknown as DomNode & { createTextNode(t: string): XdmNode };
  return scratch.createTextNode(text);
}

function childrenOf(n: DomNode): XdmNode[] {
  const out: XdmNode[] = [];
  const list = n.childNodes;
  if (list) for (let i = 0; i < list.length; i++) if (list[i].nodeType !== 10) out.push(list[i]);
  return out;
}

/**
 * The insertion sequence of an update's source (XQUF §2.4.1 and XQuery 3.1 §3.9.3.1 rules 1e
 * and 2): arrays flattened, adjacent atomic values joined by a space into one text node,
 * document nodes replaced by their children, attributes first (XUTY0004).
 */
export function insertionSequence(source: XdmValue): { attributes: XdmAttr[]; nodes: XdmNode[] } {
  const attributes: XdmAttr[] = [];
  const nodes: XdmNode[] = [];
  let atoms: string[] = [];
  const flushAtoms = (): void => {
    if (atoms.length) {
      const text = atoms.join(' ');
      if (text !== '') nodes.push(textNode(text));
      atoms = [];
    }
  };
  const visit = (item: XdmItem): void => {
    if (isArray(item)) {
      for (const member of item.value) member.forEach(visit);
      return;
    }
    if (isAtomic(item)) {
      atoms.push(item.toString());
      return;
    }
    if (!isNode(item)) throw updateError('XUTY0004');
    flushAtoms();
    if (item.nodeType === NodeKind.attribute) {
      if (nodes.length > 0) throw updateError('XUTY0004');
      attributes.push(item as XdmAttr);
    } else if (isDocumentNode(item)) {
      nodes.push(...childrenOf(item as DomNode));
    } else if (item.nodeType === NodeKind.namespace) {
      throw updateError('XUTY0004');
    } else if (!(item.nodeType === NodeKind.text && ((item as DomNode).data ?? '') === '')) {
      nodes.push(item);
    }
  };
  source.forEach(visit);
  flushAtoms();
  return { attributes, nodes };
}

/** XUDY0023: an attribute's prefix must not conflict with the namespaces of `element`. */
function checkAttributeNamespaces(element: DomNode | null, attributes: readonly XdmAttr[]): void {
  if (!element || element.nodeType !== NodeKind.element || attributes.length === 0) return;
  const scope = inScopeNamespaces(element);
  for (const a of attributes) {
    const n = attributeName(a);
    if (n.prefix === '' || n.uri === '' || n.uri === XML_NS) continue;
    const bound = scope.get(n.prefix);
    if (bound !== undefined && bound !== '' && bound !== n.uri) throw updateError('XUDY0023', n.prefix, bound, n.uri);
  }
}

function single(target: XdmValue, what: string, typeError: 'XUTY0005' | 'XUTY0006' | 'XUTY0008' | 'XUTY0012', ok: (n: XdmNode) => boolean): XdmNode {
  if (target.length === 0) throw updateError('XUDY0027', what);
  const item = target[0];
  if (target.length > 1 || !isNode(item) || !ok(item)) throw updateError(typeError, describe(target));
  return item;
}

const isElementOrDocument = (n: XdmNode): boolean => n.nodeType === NodeKind.element || isDocumentNode(n);
const isSiblingKind = (n: XdmNode): boolean =>
  n.nodeType === NodeKind.element || n.nodeType === NodeKind.text || n.nodeType === NodeKind.comment || n.nodeType === NodeKind.processingInstruction;
const isReplaceable = (n: XdmNode): boolean => isSiblingKind(n) || n.nodeType === NodeKind.attribute;

// ---------------------------------------------------------------------------------------------
// the update expressions

export type InsertPosition = 'into' | 'first' | 'last' | 'before' | 'after';

/** `insert nodes SOURCE (as first|as last)? into|before|after TARGET`. */
export function insertUpdates(position: InsertPosition, source: XdmValue, target: XdmValue): XdmMap[] {
  const { attributes, nodes } = insertionSequence(source);
  const out: XdmMap[] = [];
  if (position === 'before' || position === 'after') {
    const t = single(target, 'insert', 'XUTY0006', isSiblingKind);
    const parent = parentOf(t);
    if (!parent) throw updateError('XUDY0029', describe([t]));
    if (attributes.length) {
      if (isDocumentNode(parent)) throw updateError('XUDY0030');
      checkAttributeNamespaces(parent, attributes);
      out.push(pendingMap('insertAttributes', { target: [parent], content: attributes }));
    }
    if (nodes.length) out.push(pendingMap(position === 'before' ? 'insertBefore' : 'insertAfter', { target: [t], content: nodes }));
    return out;
  }
  const t = single(target, 'insert', 'XUTY0005', isElementOrDocument);
  if (attributes.length) {
    if (isDocumentNode(t)) throw updateError('XUTY0022');
    checkAttributeNamespaces(t as DomNode, attributes);
    out.push(pendingMap('insertAttributes', { target: [t], content: attributes }));
  }
  if (nodes.length) {
    const op = position === 'first' ? 'insertIntoAsFirst' : position === 'last' ? 'insertIntoAsLast' : 'insertInto';
    out.push(pendingMap(op, { target: [t], content: nodes }));
  }
  return out;
}

/** `delete nodes TARGET`: nodes without a parent are left alone. */
export function deleteUpdates(target: XdmValue): XdmMap[] {
  const out: XdmMap[] = [];
  for (const item of target) {
    if (!isNode(item)) throw updateError('XUTY0007', describe([item]));
    if (parentOf(item)) out.push(pendingMap('delete', { target: [item] }));
  }
  return out;
}

/** `replace node TARGET with REPLACEMENT`. */
export function replaceNodeUpdates(target: XdmValue, replacement: XdmValue): XdmMap[] {
  const t = single(target, 'replace', 'XUTY0008', isReplaceable);
  const parent = parentOf(t);
  if (!parent) throw updateError('XUDY0009', describe([t]));
  const { attributes, nodes } = insertionSequence(replacement);
  if (t.nodeType === NodeKind.attribute) {
    if (nodes.length) throw updateError('XUTY0011');
    checkAttributeNamespaces(parent, attributes);
    return [pendingMap('replaceNode', { target: [t], content: attributes })];
  }
  if (attributes.length) throw updateError('XUTY0010');
  return [pendingMap('replaceNode', { target: [t], content: nodes })];
}

/** `replace value of node TARGET with VALUE` (VALUE atomized and joined by the translator). */
export function replaceValueUpdates(target: XdmValue, value: string): XdmMap[] {
  const t = single(target, 'replace', 'XUTY0008', isReplaceable);
  switch (t.nodeType) {
    case NodeKind.element:
      return [pendingMap('replaceElementContent', { target: [t], content: value === '' ? [] : [textNode(value)] })];
    case NodeKind.comment:
      if (value.includes('--') || value.endsWith('-')) throw updateError('XQDY0072');
      break;
    case NodeKind.processingInstruction:
      if (value.includes('?>')) throw updateError('XQDY0026');
      break;
  }
  return [pendingMap('replaceValue', { target: [t], value: [stringValue(value)] })];
}

const NCNAME = /^[\p{L}_][\p{L}\p{N}._\-\u00B7\u0300-\u036F\u203F-\u2040]*$/u;

/**
 * `rename node TARGET as NAME`. A string name is resolved with `namespaces` (the query's
 * statically known prefixes) and, for elements, `defaultElementNs`.
 */
export function renameUpdates(target: XdmValue, newName: XdmValue, namespaces: ReadonlyMap<string, string>, defaultElementNs: string): XdmMap[] {
  const t = single(target, 'rename', 'XUTY0012', (n) => n.nodeType === NodeKind.element || n.nodeType === NodeKind.attribute || n.nodeType === NodeKind.processingInstruction);
  if (newName.length !== 1 || !isAtomic(newName[0])) throw updateError('XPTY0004', describe(newName));
  const atom = newName[0];
  const type = atomicTypeName(atom);
  let name: NameParts;
  if (type === 'QName') {
    const q = atom as unknown as { prefix?: string; q?: string; local: string };
    name = { uri: q.q ?? '', prefix: q.prefix ?? '', local: q.local };
  } else if (type === 'string' || type === 'untypedAtomic' || atom.code.startsWith('AS')) {
    const lexical = atom.toString().trim();
    const m = /^(?:([^:]+):)?([^:]+)$/.exec(lexical);
    if (!m || !NCNAME.test(m[2]) || (m[1] !== undefined && !NCNAME.test(m[1]))) throw updateError('XQDY0074', lexical);
    if (m[1] !== undefined) {
      const uri = m[1] === 'xml' ? XML_NS : namespaces.get(m[1]);
      if (!uri) throw updateError('XQDY0074', lexical);
      name = { uri, prefix: m[1], local: m[2] };
    } else {
      name = { uri: t.nodeType === NodeKind.element ? defaultElementNs : '', prefix: '', local: m[2] };
    }
  } else {
    throw updateError('XPTY0004', describe(newName));
  }
  if (t.nodeType === NodeKind.processingInstruction) {
    if (name.uri !== '' || name.prefix !== '') throw updateError('XUDY0025', `${name.prefix}:${name.local}`);
  } else if (name.prefix !== '' && name.uri !== XML_NS) {
    const element = t.nodeType === NodeKind.element ? (t as DomNode) : parentOf(t);
    if (element && element.nodeType === NodeKind.element) {
      // XQUF §2.4.4: any binding of the prefix in the element's namespaces property conflicts,
      // the one implied by the element's current name included (it stays in scope).
      const bound = inScopeNamespaces(element).get(name.prefix);
      if (bound !== undefined && bound !== '' && bound !== name.uri) throw updateError('XUDY0023', name.prefix, bound, name.uri);
    }
  }
  return [pendingMap('rename', { target: [t], name: [stringValue(JSON.stringify(name))] })];
}
