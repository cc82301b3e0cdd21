/**
 * upd:mergeUpdates and upd:applyUpdates (XQuery Update Facility 3.0 §3.2) on model trees.
 *
 * - Every target is resolved to its node in the model of its tree (`UpdateTree`: the saxon
 *   root converted once, with an index from saxon nodes to model nodes; attributes are found
 *   through their element).
 * - Compatibility: two renames of one node XUDY0015, two replaceNode XUDY0016, two
 *   replaceValue/replaceElementContent XUDY0017, conflicting namespace bindings implied for
 *   one element XUDY0024.
 * - Application order: insertInto, insertAttributes, replaceValue, rename; then insertBefore,
 *   insertAfter, insertIntoAsFirst, insertIntoAsLast; then replaceNode; then
 *   replaceElementContent; then delete. Inserted content is copied (copy-namespaces preserve,
 *   inherit); several inserts at one place keep the order of the pending update list.
 * - Afterwards an element may not carry two attributes of one name (XUDY0021).
 */
import { NodeKind, type XdmNode } from '../../saxon';
import { updateError } from './update-errors';
import {
  attributeName,
  attributeToModel,
  rootOf,
  toModel,
  XML_NS,
  type MAttribute,
  type MChild,
  type MElement,
  type MNode,
  type MParent,
  type XdmAttr,
} from './model';
import { describe, type NameParts, type Pending, type XqufOp } from './primitives';

export type XqufPending = Extract<Pending, { op: XqufOp }>;

/** One tree that updates apply to: a saxon root and its model. */
export class UpdateTree {
  readonly index = new Map<object, MNode>();
  readonly model: MNode;
  /** For a parentless attribute (a copied attribute): its holder and model attribute. */
  readonly attribute?: { readonly holder: MElement; readonly attr: MAttribute };
  changed = false;

  constructor(readonly root: XdmNode) {
    if (root.nodeType === NodeKind.attribute) {
      const attr = attributeToModel(root as XdmAttr);
      const holder: MElement = { kind: 'element', uri: '', prefix: '', local: 'attribute', attributes: [attr], namespaces: new Map(), children: [], parent: null };
      this.attribute = { holder, attr };
      this.model = holder;
    } else {
      this.model = toModel(root, this.index, false);
    }
  }
}

type Target = { readonly kind: 'node'; readonly node: MNode } | { readonly kind: 'attr'; readonly holder: MElement; readonly attr: MAttribute };

interface Resolved {
  readonly p: XqufPending;
  readonly target: Target;
  readonly tree: UpdateTree;
}

function resolveTarget(p: XqufPending, tree: UpdateTree): Target {
  const t = p.target;
  if (t.nodeType === NodeKind.attribute) {
    const a = t as XdmAttr;
    if (!a.parent && tree.attribute) return { kind: 'attr', ...tree.attribute };
    const holder = a.parent ? (tree.index.get(a.parent) as MElement | undefined) : undefined;
    const n = attributeName(a);
    const attr = holder?.attributes.find((x) => x.uri === n.uri && x.local === n.local);
    if (!holder || !attr) throw new Error('update: attribute target not found in its tree');
    return { kind: 'attr', holder, attr };
  }
  const node = tree.index.get(t);
  if (!node) throw new Error('update: target not found in its tree');
  return { kind: 'node', node };
}

const identity = (t: Target): object => (t.kind === 'attr' ? t.attr : t.node);

/**
 * Applies XQUF pending updates. `treeFor(root)` gives the tree of a target's root, or
 * undefined where the target may not be changed (copy-modify: XUDY0014).
 */
export function applyXquf(pending: readonly XqufPending[], treeFor: (root: XdmNode) => UpdateTree | undefined): void {
  const resolved: Resolved[] = pending.map((p) => {
    const tree = treeFor(rootOf(p.target));
    if (!tree) throw updateError('XUDY0014', describe([p.target]));
    return { p, target: resolveTarget(p, tree), tree };
  });
  checkCompatibility(resolved);
  const touched = new Set<MElement>();
  const stage = (ops: readonly XqufOp[], reverse = false): void => {
    const list = resolved.filter((r) => ops.includes(r.p.op));
    if (reverse) list.reverse();
    for (const r of list) {
      applyOne(r, touched);
      r.tree.changed = true;
    }
  };
  stage(['insertInto', 'insertAttributes', 'replaceValue', 'rename']);
  stage(['insertBefore', 'insertIntoAsLast']);
  stage(['insertAfter', 'insertIntoAsFirst'], true);
  stage(['replaceNode']);
  stage(['replaceElementContent']);
  stage(['delete']);
  for (const el of touched) {
    const seen = new Set<string>();
    for (const a of el.attributes) {
      const k = `${a.uri}\u0000${a.local}`;
      if (seen.has(k)) throw updateError('XUDY0021', `duplicate attribute ${a.prefix ? `${a.prefix}:` : ''}${a.local}`);
      seen.add(k);
    }
  }
}

function checkCompatibility(resolved: readonly Resolved[]): void {
  const seen = new Map<string, Set<object>>();
  const once = (kind: 'XUDY0015' | 'XUDY0016' | 'XUDY0017', r: Resolved): void => {
    let set = seen.get(kind);
    if (!set) seen.set(kind, (set = new Set()));
    const id = identity(r.target);
    if (set.has(id)) throw updateError(kind, describe([r.p.target]));
    set.add(id);
  };
  // namespace bindings implied for each element
  const implied = new Map<MElement, Map<string, string>>();
  const bind = (el: MElement, prefix: string, uri: string): void => {
    if (prefix === '' || uri === '' || uri === XML_NS) return;
    let m = implied.get(el);
    if (!m) implied.set(el, (m = new Map()));
    const prev = m.get(prefix);
    if (prev !== undefined && prev !== uri) throw updateError('XUDY0024', prefix, `element ${el.prefix ? `${el.prefix}:` : ''}${el.local}`);
    m.set(prefix, uri);
  };
  for (const r of resolved) {
    switch (r.p.op) {
      case 'rename': {
        once('XUDY0015', r);
        const name = r.p.name!;
        if (r.target.kind === 'attr') bind(r.target.holder, name.prefix, name.uri);
        else if (r.target.node.kind === 'element') bind(r.target.node, name.prefix, name.uri);
        break;
      }
      case 'replaceNode':
        once('XUDY0016', r);
        if (r.target.kind === 'attr') for (const a of r.p.content) bindAttr(r.target.holder, a as XdmAttr, bind);
        break;
      case 'replaceValue':
      case 'replaceElementContent':
        once('XUDY0017', r);
        break;
      case 'insertAttributes':
        if (r.target.kind === 'node' && r.target.node.kind === 'element') {
          const el = r.target.node;
          for (const a of r.p.content) bindAttr(el, a as XdmAttr, bind);
        }
        break;
      default:
        break;
    }
  }
}

function bindAttr(el: MElement, a: XdmAttr, bind: (el: MElement, prefix: string, uri: string) => void): void {
  const n = attributeName(a);
  bind(el, n.prefix, n.uri);
}

/** Copies of inserted nodes, in the model (elements keep their in-scope namespaces). */
function copies(content: readonly XdmNode[], parent: MParent | null): MChild[] {
  return content.map((n) => {
    const m = toModel(n) as MChild;
    m.parent = parent;
    return m;
  });
}

function attrCopies(content: readonly XdmNode[]): MAttribute[] {
  return content.map((a) => attributeToModel(a as XdmAttr));
}

function parentOfModel(n: MNode): MParent | null {
  return n.kind === 'document' ? null : n.parent;
}

function setName(target: MElement | MAttribute, name: NameParts): void {
  target.uri = name.uri;
  target.prefix = name.prefix;
  target.local = name.local;
}

/** The default namespace in scope on a model element (its own declarations, then its ancestors'). */
function defaultNamespaceOf(el: MElement): string {
  for (let e: MParent | null = el; e && e.kind === 'element'; e = e.parent) {
    const d = e.namespaces.get('');
    if (d !== undefined) return d;
  }
  return '';
}

/**
 * Renaming an element to an unprefixed name binds the default namespace on that element only:
 * namespace bindings belong to each element (XDM §6.2.2), so the element children keep the
 * default namespace they had, undeclared (`xmlns=""`) or redeclared where it would be inherited.
 * (A prefix cannot be undeclared in XML 1.0: a new prefixed binding stays visible below.)
 */
function bindDefaultNamespace(el: MElement, name: NameParts): void {
  if (name.prefix !== '') return;
  const before = defaultNamespaceOf(el);
  if (before === name.uri) return;
  for (const c of el.children) if (c.kind === 'element' && !c.namespaces.has('')) c.namespaces.set('', before);
  el.namespaces.set('', name.uri);
}

function applyOne(r: Resolved, touched: Set<MElement>): void {
  const { p, target } = r;
  if (target.kind === 'attr') {
    const { holder, attr } = target;
    touched.add(holder);
    switch (p.op) {
      case 'replaceValue':
        attr.value = p.value ?? '';
        return;
      case 'rename':
        setName(attr, p.name!);
        return;
      case 'replaceNode': {
        const i = holder.attributes.indexOf(attr);
        if (i >= 0) holder.attributes.splice(i, 1, ...attrCopies(p.content));
        return;
      }
      case 'delete': {
        const i = holder.attributes.indexOf(attr);
        if (i >= 0) holder.attributes.splice(i, 1);
        return;
      }
      default:
        throw new Error(`update: ${p.op} on an attribute`);
    }
  }
  const node = target.node;
  switch (p.op) {
    case 'insertInto':
    case 'insertIntoAsLast': {
      const parent = node as MParent;
      parent.children.push(...copies(p.content, parent));
      return;
    }
    case 'insertIntoAsFirst': {
      const parent = node as MParent;
      parent.children.unshift(...copies(p.content, parent));
      return;
    }
    case 'insertAttributes': {
      const el = node as MElement;
      touched.add(el);
      for (const a of attrCopies(p.content)) {
        el.attributes.push(a);
        if (a.prefix !== '' && a.uri !== '' && a.uri !== XML_NS && !el.namespaces.has(a.prefix)) el.namespaces.set(a.prefix, a.uri);
      }
      return;
    }
    case 'insertBefore':
    case 'insertAfter': {
      const parent = parentOfModel(node);
      if (!parent) return;
      const i = parent.children.indexOf(node as MChild);
      if (i < 0) return;
      parent.children.splice(p.op === 'insertBefore' ? i : i + 1, 0, ...copies(p.content, parent));
      return;
    }
    case 'replaceValue': {
      const leaf = node as Extract<MNode, { kind: 'text' | 'comment' | 'pi' }>;
      leaf.value = p.value ?? '';
      return;
    }
    case 'replaceElementContent': {
      const el = node as MElement;
      el.children = copies(p.content, el);
      return;
    }
    case 'rename': {
      if (node.kind === 'element') {
        bindDefaultNamespace(node, p.name!);
        setName(node, p.name!);
        touched.add(node);
      } else if (node.kind === 'pi') node.target = p.name!.local;
      return;
    }
    case 'replaceNode': {
      const parent = parentOfModel(node);
      if (!parent) return;
      const i = parent.children.indexOf(node as MChild);
      if (i < 0) return;
      parent.children.splice(i, 1, ...copies(p.content, parent));
      (node as MChild).parent = null;
      return;
    }
    case 'delete': {
      const parent = parentOfModel(node);
      if (!parent) return;
      const i = parent.children.indexOf(node as MChild);
      if (i >= 0) parent.children.splice(i, 1);
      (node as MChild).parent = null;
      return;
    }
  }
}
