/**
 * Reading XML request bodies (POST commands) as a DOM, and writing element subtrees back as XML
 * text. Parsing uses saxon-js's own parser, which never loads DTDs or resolves entities.
 */
import SaxonJS from 'saxon-js';

export const REST_NS = 'http://basex.org/rest';

/** Parses XML text into a document node; throws with the parser's message. */
export function parseXml(text: string): Document {
  return SaxonJS.XPath.evaluate('parse-xml($text)', null, { params: { text } }) as Document;
}

export function childElements(node: Node): Element[] {
  return Array.from(node.childNodes).filter((c): c is Element => c.nodeType === 1);
}

function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#xD;');
}

function escapeAttr(s: string): string {
  return escapeText(s).replace(/"/g, '&quot;').replace(/\n/g, '&#xA;').replace(/\t/g, '&#x9;');
}

/**
 * Serializes an element, moving names in `dropNs` to no namespace (the REST namespace inside
 * POST bodies). Namespace declarations are written where a name's namespace differs from the
 * one in scope.
 */
export function serializeElement(el: Element, dropNs = REST_NS): string {
  return serializeNodes([el], dropNs);
}

/** Serializes a sequence of nodes (elements, text, comments, PIs); see serializeElement. */
export function serializeNodes(nodes: readonly Node[], dropNs = REST_NS): string {
  const out: string[] = [];
  const write = (node: Node, scope: ReadonlyMap<string, string>): void => {
    switch (node.nodeType) {
      case 1: {
        const e = node as Element;
        const uri = e.namespaceURI === dropNs ? '' : (e.namespaceURI ?? '');
        const prefix = uri === '' ? '' : (e.prefix ?? '');
        const name = prefix ? `${prefix}:${e.localName}` : e.localName;
        const inner = new Map(scope);
        const decls: string[] = [];
        const declare = (p: string, u: string): void => {
          if (inner.get(p) === u) return;
          inner.set(p, u);
          decls.push(p ? ` xmlns:${p}="${escapeAttr(u)}"` : ` xmlns="${escapeAttr(u)}"`);
        };
        declare(prefix, uri);
        const attrs: string[] = [];
        for (const a of Array.from(e.attributes)) {
          if (a.name === 'xmlns' || a.name.startsWith('xmlns:')) continue;
          const au = a.namespaceURI === dropNs ? '' : (a.namespaceURI ?? '');
          if (au !== '' && a.prefix) declare(a.prefix, au);
          attrs.push(` ${au !== '' && a.prefix ? `${a.prefix}:${a.localName}` : a.localName}="${escapeAttr(a.value)}"`);
        }
        out.push(`<${name}${decls.join('')}${attrs.join('')}`);
        if (e.childNodes.length === 0) {
          out.push('/>');
        } else {
          out.push('>');
          for (const c of Array.from(e.childNodes)) write(c, inner);
          out.push(`</${name}>`);
        }
        break;
      }
      case 3:
      case 4:
        out.push(escapeText(node.nodeValue ?? ''));
        break;
      case 7:
        out.push(`<?${(node as ProcessingInstruction).target} ${node.nodeValue ?? ''}?>`);
        break;
      case 8:
        out.push(`<!--${node.nodeValue ?? ''}-->`);
        break;
      default:
        break;
    }
  };
  for (const node of nodes) write(node, new Map([['', '']]));
  return out.join('');
}
