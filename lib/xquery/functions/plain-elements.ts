/**
 * engine:plain-element, the builder of plain direct element constructors whose content is text
 * only: literal text, atomized enclosed expressions, and nested constructors of the same kind
 * (translate/constructors/xpath.ts `plainElementCall`).
 *
 *   Q{urn:xmldb-rest:engine}plain-element($base as xs:string?, $name as xs:string,
 *                                         $attributes as xs:string*, $content as item()*) as element()
 *
 * `$name` is an NCName in no namespace; `$attributes` alternates names (NCNames in no namespace,
 * no two equal) and values; `$content` holds strings and elements made by this function for the
 * constructors nested in it. Each string is one piece of text (literal text, or the atomized
 * value of one enclosed expression already joined by spaces, XQuery 3.1 §3.9.1.3 1.e): the
 * pieces are concatenated as they are, so `<a>{1}{2}</a>` is "12", and adjacent pieces make one
 * text node, a zero-length one none. `$base` is the static base URI, the base URI of the element
 * (§3.9.1.1).
 *
 * The element is built as saxon-js's own builder builds the element of an `xsl:element`
 * instruction (the same DOM calls: `createElementNS`, `createAttributeNS` and `setAttributeNode`,
 * `createTextNode`). A nested element is the result of the nested constructor's own call, a
 * parentless element nothing else can reach, so it is adopted as the child rather than copied:
 * no query can tell the two apart. Built in JavaScript, an element costs a small fraction of
 * what the same construction costs through XSLT functions.
 */
import { ENGINE_NS } from '../constants';
import { isNode, parseToSaxonDocument, registerFunctions, type XdmItem, type XdmNode, type XdmValue } from '../../saxon';

export const PLAIN_ELEMENT_FUNCTION = 'plain-element';

interface DomNode {
  readonly nodeType: number;
  readonly parentNode: DomNode | null;
  appendChild(child: DomNode): void;
}

interface DomAttr {
  value: string;
  nodeValue: string;
}

interface DomElement extends DomNode {
  _saxonBaseUri?: string;
  setAttributeNode(attr: DomAttr): void;
}

export interface DomDocument {
  createElementNS(uri: string, name: string): DomElement;
  createAttributeNS(uri: string, name: string): DomAttr;
  createTextNode(data: string): DomNode;
}

const ELEMENT_NODE = 1;

/**
 * The document that owns the nodes built in this thread, here and by engine:content
 * (constructor-content.ts); saxon-js's builder too makes many trees with one document.
 */
let owner: DomDocument | undefined;

export function constructionDocument(): DomDocument {
  return (owner ??= parseToSaxonDocument('<_/>') as unknown as DomDocument);
}

function nodeOf(item: XdmItem): DomNode {
  return item as unknown as DomNode;
}

function plainElement([base, name, attributes, content]: XdmValue[]): XdmValue {
  const doc = constructionDocument();
  const el = doc.createElementNS('', String(name[0]));
  if (base.length > 0) el._saxonBaseUri = String(base[0]);
  for (let i = 0; i + 1 < attributes.length; i += 2) {
    const attr = doc.createAttributeNS('', String(attributes[i]));
    attr.value = attr.nodeValue = String(attributes[i + 1]);
    el.setAttributeNode(attr);
  }
  let text = '';
  for (const item of content) {
    if (!isNode(item)) {
      text += String(item);
      continue;
    }
    const node = nodeOf(item);
    if (node.nodeType !== ELEMENT_NODE || node.parentNode !== null) throw new Error(`engine:${PLAIN_ELEMENT_FUNCTION}: unexpected content`);
    if (text !== '') el.appendChild(doc.createTextNode(text));
    text = '';
    el.appendChild(node);
  }
  if (text !== '') el.appendChild(doc.createTextNode(text));
  return [el as unknown as XdmNode];
}

/** Registers engine:plain-element with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerPlainElementFunctions(): void {
  registerFunctions(ENGINE_NS, {
    [PLAIN_ELEMENT_FUNCTION]: { sig: '1F r[1NE] a[?AS,1AS,*AS,*]', impl: plainElement },
  });
}
