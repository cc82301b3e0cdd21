/**
 * Reading XML command scripts: parsing with saxon-js's parser (no DTD loading, no external
 * entities), and writing embedded input (ADD, PUT, CREATE DB …) back to XML text. Names in the
 * REST namespace are treated as names in no namespace (spec §7, §15.2), in the script and in the
 * embedded input alike.
 */
import SaxonJS from 'saxon-js';
import { checkXmlLimits } from '../convert';
import { commandError } from './messages';

export const REST_NS = 'http://basex.org/rest';

const ELEMENT = 1;
const TEXT = 3;
const CDATA = 4;
const PI = 7;
const COMMENT = 8;

/** Parses XML text; a document that is not well-formed raises `XML_SCRIPT_X`. */
export function parseXmlDocument(text: string): Document {
  checkXmlLimits(text);
  let doc: Document;
  try {
    doc = SaxonJS.XPath.evaluate('parse-xml($text)', null, { params: { text } }) as Document;
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

export function childNodes(node: Node): Node[] {
  return Array.from(node.childNodes);
}

export function childElements(node: Node): Element[] {
  return childNodes(node).filter((c): c is Element => c.nodeType === ELEMENT);
}

export function isElement(node: Node): node is Element {
  return node.nodeType === ELEMENT;
}

export function isText(node: Node): boolean {
  return node.nodeType === TEXT || node.nodeType === CDATA;
}

/** The string value of a node: its text descendants, in order. */
export function stringValue(node: Node): string {
  if (isText(node)) return node.nodeValue ?? '';
  if (node.nodeType !== ELEMENT) return '';
  return childNodes(node).map(stringValue).join('');
}

function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#xD;');
}

function escapeAttribute(s: string): string {
  return escapeText(s).replace(/"/g, '&quot;').replace(/\n/g, '&#xA;').replace(/\t/g, '&#x9;');
}

/**
 * Serializes nodes as XML text, with namespace declarations added wherever a name's namespace is
 * not the one in scope (the nodes are cut out of a larger document).
 */
export function serializeNodes(nodes: readonly Node[]): string {
  const out: string[] = [];
  const root = new Map<string, string>([['', '']]);
  for (const n of nodes) writeNode(n, root, out);
  return out.join('');
}

function writeNode(node: Node, scope: ReadonlyMap<string, string>, out: string[]): void {
  switch (node.nodeType) {
    case ELEMENT:
      writeElement(node as Element, scope, out);
      break;
    case TEXT:
    case CDATA:
      out.push(escapeText(node.nodeValue ?? ''));
      break;
    case PI: {
      const data = node.nodeValue ?? '';
      out.push(`<?${(node as ProcessingInstruction).target}${data ? ` ${data}` : ''}?>`);
      break;
    }
    case COMMENT:
      out.push(`<!--${node.nodeValue ?? ''}-->`);
      break;
    default:
      break;
  }
}

function writeElement(el: Element, scope: ReadonlyMap<string, string>, out: string[]): void {
  const inner = new Map(scope);
  const decls: string[] = [];
  const declare = (prefix: string, uri: string): void => {
    if (inner.get(prefix) === uri) return;
    inner.set(prefix, uri);
    decls.push(`${prefix ? ` xmlns:${prefix}` : ' xmlns'}="${escapeAttribute(uri)}"`);
  };
  const uri = namespaceOf(el);
  const prefix = uri === '' ? '' : (el.prefix ?? '');
  declare(prefix, uri);
  const attrs: string[] = [];
  for (const a of Array.from(el.attributes)) {
    if (a.name === 'xmlns' || a.name.startsWith('xmlns:')) continue;
    const au = namespaceOf(a);
    const ap = au === '' ? '' : (a.prefix ?? '');
    if (ap !== '') declare(ap, au);
    attrs.push(` ${ap ? `${ap}:` : ''}${a.localName}="${escapeAttribute(a.value)}"`);
  }
  const name = prefix ? `${prefix}:${el.localName}` : el.localName;
  const kids = childNodes(el);
  out.push(`<${name}${decls.join('')}${attrs.join('')}`);
  if (kids.length === 0) {
    out.push('/>');
    return;
  }
  out.push('>');
  for (const k of kids) writeNode(k, inner, out);
  out.push(`</${name}>`);
}
