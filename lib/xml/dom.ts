/**
 * XML text as a DOM and back: parsing with saxon-js's parser (which never loads DTDs or resolves
 * external entities) and writing nodes cut out of a larger document back as XML text, with the
 * namespace declarations they need.
 */
import { parseWithXPath } from '../saxon/xpath-parse';
import { escapeAttribute, escapeText } from './escape';

const ELEMENT = 1;
const TEXT = 3;
const CDATA = 4;
const PI = 7;
const COMMENT = 8;

/**
 * Parses XML text into a DOM to walk (saxon-js's document node, read through the DOM interface;
 * lib/saxon's parseToSaxonDocument is the one for values handed to saxon-js); throws with the
 * parser's message. saxon-js is
 * loaded on first use: threads that never parse (conversion offload threads) never load it.
 */
export function parseToDom(text: string): Document {
  return parseWithXPath(text) as Document;
}

export function childNodes(node: Node): Node[] {
  return Array.from(node.childNodes);
}

export function isElement(node: Node): node is Element {
  return node.nodeType === ELEMENT;
}

/** Text and CDATA nodes. */
export function isText(node: Node): boolean {
  return node.nodeType === TEXT || node.nodeType === CDATA;
}

export function childElements(node: Node): Element[] {
  return childNodes(node).filter(isElement);
}

/** The string value of a node: its text descendants, in order. */
export function stringValue(node: Node): string {
  if (isText(node)) return node.nodeValue ?? '';
  if (!isElement(node)) return '';
  return childNodes(node).map(stringValue).join('');
}

/**
 * Serializes nodes (elements, text, comments, PIs) as XML text. Names in namespace `drop` (or
 * those the function `drop` picks) are written in no namespace: the REST namespace inside POST
 * bodies and command scripts (spec §7, §15.2), the prefixes util:strip-namespaces removes;
 * namespace declarations are added wherever a name's namespace is not the one in scope. With
 * `declarations`, each element's own declarations are written too, those of names it does not
 * use included (a context document keeps its in-scope namespaces), except any that binds the
 * namespace `drop`.
 */
export function serializeNodes(nodes: readonly Node[], drop?: string | ((name: Element | Attr) => boolean), declarations = false): string {
  const out: string[] = [];
  const root = new Map<string, string>([['', '']]);
  const dropped = typeof drop === 'function' ? drop : (n: Element | Attr): boolean => drop !== undefined && (n.namespaceURI ?? '') === drop;
  const uriOf = (n: Element | Attr): string => (dropped(n) ? '' : (n.namespaceURI ?? ''));
  const write = (node: Node, scope: ReadonlyMap<string, string>): void => {
    if (isElement(node)) writeElement(node, scope);
    else if (isText(node)) out.push(escapeText(node.nodeValue ?? ''));
    else if (node.nodeType === PI) {
      const data = node.nodeValue ?? '';
      out.push(`<?${(node as ProcessingInstruction).target}${data ? ` ${data}` : ''}?>`);
    } else if (node.nodeType === COMMENT) out.push(`<!--${node.nodeValue ?? ''}-->`);
  };
  const writeElement = (el: Element, scope: ReadonlyMap<string, string>): void => {
    const inner = new Map(scope);
    const decls: string[] = [];
    const declare = (prefix: string, uri: string): void => {
      if (inner.get(prefix) === uri) return;
      inner.set(prefix, uri);
      decls.push(`${prefix ? ` xmlns:${prefix}` : ' xmlns'}="${escapeAttribute(uri)}"`);
    };
    const uri = uriOf(el);
    const prefix = uri === '' ? '' : (el.prefix ?? '');
    declare(prefix, uri);
    const attrs: string[] = [];
    for (const a of Array.from(el.attributes)) {
      if (a.name === 'xmlns' || a.name.startsWith('xmlns:')) {
        // the element's name binds its own prefix above; a declaration for another one is kept
        const declared = a.name === 'xmlns' ? '' : a.name.slice(6);
        if (declarations && declared !== prefix && a.value !== drop) declare(declared, a.value);
        continue;
      }
      const au = uriOf(a);
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
    for (const k of kids) write(k, inner);
    out.push(`</${name}>`);
  };
  for (const n of nodes) write(n, root);
  return out.join('');
}
