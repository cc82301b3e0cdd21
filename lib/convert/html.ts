/**
 * HTML → XML (spec §14.3) with htmlparser2's lenient parser (the one sanitize-html builds on;
 * sanitize-html itself would drop content). The result is well-formed: root `html` in no
 * namespace with `head` and `body` supplied, lower-case names, void elements empty, comments
 * kept, doctype and PIs dropped, `xmlns` attributes dropped, names XML cannot hold rewritten
 * (lax rules of names.ts: `svg:rect` → `svg_rect`, `@click` → `_click`).
 *
 * `<x/>` closes `x` (recognizeSelfClosing), which suits XHTML-style input and inline SVG.
 */
import { DomUtils, Parser } from 'htmlparser2';
import { DomHandler, type ChildNode, type Document, type Element } from 'domhandler';
import { convertError } from './conversion-errors';
import { encodeName, isNCName } from './names';
import { elementLimit, sanitizeChars, XmlWriter, type Pair, type WrittenXml } from './writer';

export interface HtmlOptions {
  /** Drop whitespace-only text nodes. Default false. */
  readonly stripws?: boolean;
}

/** Elements that belong in `head` when they come before any body content. */
const HEAD_ELEMENTS = new Set(['base', 'link', 'meta', 'noscript', 'script', 'style', 'template', 'title']);
const XML_ATTRIBUTES = new Set(['xml:lang', 'xml:space', 'xml:base']);

/**
 * The DOM builder, stopped at the first element past the nesting limit. htmlparser2's parser
 * takes time quadratic in the elements open at once (100,000 unclosed `<div>`, 500 KB, took
 * 5.5 s of CPU), and a document that deep is refused by the writer anyway, with this error: an
 * element is written at least as deep as it was parsed.
 */
class NestingLimitedDom extends DomHandler {
  override onopentag(name: string, attribs: Record<string, string>): void {
    super.onopentag(name, attribs);
    // tagStack holds the document node below the open elements; attributes are counted by the writer
    const deep = elementLimit(this.tagStack.length - 1, 0);
    if (deep !== undefined) throw convertError(...deep);
  }
}

function parseHtml(text: string): Document {
  const dom = new NestingLimitedDom();
  new Parser(dom, { lowerCaseTags: true, lowerCaseAttributeNames: true, decodeEntities: true, recognizeSelfClosing: true }).end(text);
  return dom.root;
}

export function convertHtml(text: string, options: HtmlOptions = {}): WrittenXml {
  const doc = parseHtml(text);
  const w = new XmlWriter({ stripws: options.stripws });

  // Comments before the first element stay outside the root; everything else is sorted into
  // html's attributes, head and body.
  const top = doc.children;
  let i = 0;
  for (; i < top.length && !DomUtils.isTag(top[i]) && !isContentText(top[i]); i++) {
    const n = top[i];
    if (DomUtils.isComment(n)) w.comment(commentText(n.data));
  }
  let htmlAttributes: Record<string, string> = {};
  let bodyAttributes: Record<string, string> = {};
  const head: ChildNode[] = [];
  const body: ChildNode[] = [];
  let inBody = false;
  const sort = (nodes: readonly ChildNode[]): void => {
    for (const n of nodes) {
      if (DomUtils.isTag(n) && n.name === 'html') {
        htmlAttributes = { ...n.attribs, ...htmlAttributes };
        sort(n.children);
      } else if (DomUtils.isTag(n) && n.name === 'head' && !inBody) {
        head.push(...n.children);
      } else if (DomUtils.isTag(n) && n.name === 'body') {
        bodyAttributes = { ...n.attribs, ...bodyAttributes };
        inBody = true;
        body.push(...n.children);
      } else if (DomUtils.isTag(n) && n.name === 'head') {
        body.push(...n.children);
      } else if (DomUtils.isTag(n)) {
        if (!inBody && HEAD_ELEMENTS.has(n.name)) head.push(n);
        else {
          inBody = true;
          body.push(n);
        }
      } else if (DomUtils.isText(n)) {
        if (isContentText(n)) inBody = true;
        if (inBody) body.push(n);
      } else if (DomUtils.isComment(n)) {
        (inBody ? body : head).push(n);
      }
    }
  };
  sort(top.slice(i));

  w.startElement('html', attributes(htmlAttributes));
  w.startElement('head');
  head.forEach((n) => writeNode(w, n));
  w.endElement();
  w.startElement('body', attributes(bodyAttributes));
  body.forEach((n) => writeNode(w, n));
  w.endElement();
  w.endElement();
  return w.finish();
}

function isContentText(n: ChildNode): boolean {
  return DomUtils.isText(n) && !/^[ \t\n\r\f]*$/.test(n.data);
}

function writeNode(w: XmlWriter, n: ChildNode): void {
  if (DomUtils.isTag(n)) writeElement(w, n);
  else if (DomUtils.isText(n)) w.characters(sanitizeChars(n.data));
  else if (DomUtils.isComment(n)) w.comment(commentText(n.data));
  // doctype and processing instructions ("directives") are dropped
}

/** Elements nest deeply in bad HTML: an explicit stack instead of recursion. */
function writeElement(w: XmlWriter, root: Element): void {
  const stack: (ChildNode | null)[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n === null) w.endElement();
    else if (DomUtils.isTag(n)) {
      w.startElement(elementName(n.name), attributes(n.attribs));
      stack.push(null);
      for (let k = n.children.length - 1; k >= 0; k--) stack.push(n.children[k]);
    } else writeNode(w, n);
  }
}

function elementName(name: string): string {
  return isNCName(name) ? name : encodeName(name, true);
}

/** Attributes XML can hold: `xmlns*` dropped, invalid names rewritten, first of duplicates kept. */
function attributes(attribs: Record<string, string>): Pair[] {
  const out: Pair[] = [];
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(attribs)) {
    if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
    const n = XML_ATTRIBUTES.has(name) || isNCName(name) ? name : encodeName(name, true);
    if (seen.has(n)) continue;
    seen.add(n);
    out.push([n, sanitizeChars(value)]);
  }
  return out;
}

/** Comment text XML can hold: no `--`, no trailing `-`. */
function commentText(s: string): string {
  let t = sanitizeChars(s);
  while (t.includes('--')) t = t.replace(/--/g, '- -');
  return t.endsWith('-') ? t + ' ' : t;
}
