/**
 * Reading XML command scripts: parsing (no DTD loading, no external entities; the XML limits of
 * stored documents), and writing embedded input (ADD, PUT, CREATE DB …) back to XML text. Names
 * in the REST namespace are treated as names in no namespace (spec §7, §15.2), in the script and
 * in the embedded input alike.
 */
import { checkXmlLimits } from '../convert';
import { childElements, parseToDom, REST_NS, serializeNodes } from '../xml';
import { commandError } from './messages';

export { childElements, childNodes, isElement, isText, stringValue } from '../xml';

/** Parses XML text; a document that is not well-formed raises `XML_SCRIPT_X`. */
export function parseScriptDocument(text: string): Document {
  checkXmlLimits(text);
  let doc: Document;
  try {
    doc = parseToDom(text);
  } catch (e) {
    throw commandError('XML_SCRIPT_X', e instanceof Error ? e.message : String(e));
  }
  // saxon-js's parser accepts several root elements; XML does not.
  if (childElements(doc).length !== 1) throw commandError('XML_SCRIPT_X', 'A document needs exactly one root element.');
  return doc;
}

/** Namespace URI of a node, with the REST namespace moved to no namespace. */
export function namespaceOf(node: Element | Attr): string {
  const uri = node.namespaceURI ?? '';
  return uri === REST_NS ? '' : uri;
}

/** The name of an element as a script shows it: `local`, or `prefix:local` in a foreign namespace. */
export function displayName(el: Element): string {
  return namespaceOf(el) === '' || !el.prefix ? el.localName : `${el.prefix}:${el.localName}`;
}

/** Embedded input as XML text, names of the REST namespace in no namespace. */
export function serializeInput(nodes: readonly Node[]): string {
  return serializeNodes(nodes, REST_NS);
}
