/**
 * The extension functions the translator (translate/update.ts) emits for updating
 * expressions, in namespace `urn:xmldb-rest:update`, registered by `registerUpdateFunctions`
 * (extension-functions.ts).
 *
 *   insert($position as xs:string, $source as item()*, $target as item()*) as map(*)*
 *   delete($target as item()*) as map(*)*
 *   replace-node($target as item()*, $replacement as item()*) as map(*)*
 *   replace-value($target as item()*, $value as xs:string) as map(*)*
 *   rename($target as item()*, $name as item()*, $namespaces as map(*), $default-ns as xs:string) as map(*)*
 *   output($items as item()*) as map(*)                      BaseX's update:output
 *   copy($source as item()*) as node()                         a fresh copy (XUTY0013 unless one node)
 *   modify($pul as item()*, $copies as node()*) as node()*     the copies with the updates applied
 *
 * and `Q{urn:xmldb-rest:engine}put($node, $uri[, $options])`, fn:put (update/put.ts).
 *
 * `modify` is how copy-modify and `transform with` apply their modify clause inside the
 * query: its result depends on the pending updates, and the return clause reads the copies
 * from its result, so saxon-js cannot evaluate the return clause first.
 */
import { NodeKind, isAtomic, isDocumentNode, isMap, isNode, registerFunctions, type XdmNode, type XdmValue } from '../../saxon';
import { applyXquf, UpdateTree, type XqufPending } from '../update/merge-apply';
import { updateError } from '../update/update-errors';
import { putUpdate } from '../update/put';
import { ENGINE_NS } from '../constants';
import { attributeToModel, attributeToSaxon, toModel, toSaxon, type XdmAttr } from '../update/model';
import {
  UPDATE_NS,
  deleteUpdates,
  describe,
  insertUpdates,
  isPending,
  outputPending,
  readPending,
  renameUpdates,
  replaceNodeUpdates,
  replaceValueUpdates,
  type InsertPosition,
} from '../update/primitives';

const str = (v: XdmValue): string => (v.length ? String(v[0]) : '');

function baseUriOf(n: XdmNode): string | undefined {
  return (n as { _saxonBaseUri?: string })._saxonBaseUri;
}

/** A fresh, parentless copy of a node (copy-namespaces preserve, inherit). */
export function copyNode(node: XdmNode): XdmNode {
  if (node.nodeType === NodeKind.attribute) return attributeToSaxon(attributeToModel(node as XdmAttr));
  return toSaxon(toModel(node), isDocumentNode(node) ? baseUriOf(node) : undefined);
}

/** Applies the pending updates of a modify clause to copies; answers the updated copies. */
export function modifyCopies(pul: XdmValue, copies: readonly XdmNode[]): XdmNode[] {
  const trees = new Map<XdmNode, UpdateTree>();
  for (const c of copies) trees.set(c, new UpdateTree(c));
  const pending: XqufPending[] = [];
  for (const item of pul) {
    if (!isPending(item)) continue;
    const p = readPending(item);
    if (p.op === 'put') throw updateError('XUDY0037');
    if (p.op === 'output' || p.op === 'db') throw updateError('XUDY0014', p.op === 'output' ? 'update:output' : 'a db: function');
    pending.push(p);
  }
  if (pending.length === 0) return [...copies];
  applyXquf(pending, (root) => trees.get(root));
  return copies.map((c) => {
    const tree = trees.get(c)!;
    if (!tree.changed) return c;
    if (tree.attribute) return attributeToSaxon(tree.attribute.attr);
    return toSaxon(tree.model, isDocumentNode(c) ? baseUriOf(c) : undefined);
  });
}

function namespaceMap(v: XdmValue): Map<string, string> {
  const out = new Map<string, string>();
  const m = v[0];
  if (m && isMap(m)) for (const k of m.keys()) out.set(k.toString(), str(m.get(k)));
  return out;
}

/** Registers the update primitives the translator emits with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerUpdateFunctions(): void {
  registerFunctions(UPDATE_NS, {
    insert: { sig: '1F r[*] a[1AS,*,*]', impl: ([pos, source, target]) => insertUpdates(str(pos) as InsertPosition, source, target) },
    delete: { sig: '1F r[*] a[*]', impl: ([target]) => deleteUpdates(target) },
    'replace-node': { sig: '1F r[*] a[*,*]', impl: ([target, replacement]) => replaceNodeUpdates(target, replacement) },
    'replace-value': { sig: '1F r[*] a[*,1AS]', impl: ([target, value]) => replaceValueUpdates(target, str(value)) },
    rename: { sig: '1F r[*] a[*,*,*,1AS]', impl: ([target, name, ns, def]) => renameUpdates(target, name, namespaceMap(ns), str(def)) },
    output: { sig: '1F r[*] a[*]', impl: ([items]) => [outputPending(items)] },
    copy: {
      sig: '1F r[1N] a[*]',
      impl: ([source]) => {
        if (source.length !== 1 || !isNode(source[0]) || isAtomic(source[0])) throw updateError('XUTY0013', describe(source));
        return [copyNode(source[0])];
      },
    },
    modify: { sig: '1F r[*N] a[*,*N]', impl: ([pul, copies]) => modifyCopies(pul, copies as XdmNode[]) },
  });
  // fn:put (translate/functions.ts sends its static calls here); the XQUF 3.0 options map is not used
  registerFunctions(ENGINE_NS, {
    put: { sig: '1F r[*] a[*,?AS,*]', arity: [2, 3], impl: ([node, uri]) => [putUpdate(node, uri)] },
  });
}
