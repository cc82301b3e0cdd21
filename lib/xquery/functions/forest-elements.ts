/**
 * engine:forest-element, the builder of plain direct element constructors whose content may
 * hold nodes (translate/constructors/xpath.ts `plainElementCall`):
 *
 *   Q{urn:xmldb-rest:engine}forest-element($base as xs:string?, $name as xs:string,
 *                                          $attributes as xs:string*, $content as item()*) as item()
 *
 * `$name` is an NCName in no namespace; `$attributes` alternates names (NCNames in no namespace,
 * no two equal) and values; `$content` is the element's content as engine:element-content
 * answers it (constructor-content.ts: atomic values already text nodes, documents replaced by
 * their children, the rules of XQuery 3.1 §3.9.1.3 checked). The element is built in a forest
 * (tree/element-forest.ts) with a copy of each content node, when every one is a node the forest
 * copies without a namespace to carry (`ElementForest.copies`: nodes of stored documents and of
 * other forests, plain constructed elements, text nodes); otherwise the answer is false() and the
 * caller builds the element with the runtime library's function from the same content.
 *
 * A copy into a forest is rows appended to one compact tree: the `categorie` elements of XMark
 * Q10, which hold the `personne` elements of a nested FLWOR (a forest of their own), took most of
 * that query's time as copies into saxon-js's DOM, and as much again in its garbage collection.
 */
import { ENGINE_NS } from '../constants';
import { castString, isNode, registerFunctions, type XdmValue } from '../../saxon';
import { ElementForest } from '../../tree/element-forest';

export const FOREST_ELEMENT_FUNCTION = 'forest-element';

function forestElement([base, name, attributes, content]: XdmValue[]): XdmValue {
  // room for the rows of the copies, the element and its document row: one element per call
  let rows = 2;
  for (const item of content) {
    if (!isNode(item) || !ElementForest.copies(item)) return [castString('false', 'boolean')];
    rows += ElementForest.rowsOf(item);
  }
  const forest = new ElementForest(rows);
  forest.start(String(name[0]));
  for (let i = 0; i + 1 < attributes.length; i += 2) forest.attribute(String(attributes[i]), String(attributes[i + 1]));
  for (const item of content) forest.copyNode(item);
  forest.end();
  return forest.finish(base.length > 0 ? String(base[0]) : null);
}

/** Registers engine:forest-element with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerForestElementFunctions(): void {
  registerFunctions(ENGINE_NS, {
    [FOREST_ELEMENT_FUNCTION]: { sig: '1F r[*] a[?AS,1AS,*AS,*]', impl: forestElement },
  });
}
