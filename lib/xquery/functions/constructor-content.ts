/**
 * engine:content and engine:element-content, the content rules of node constructors (XQuery 3.1
 * §3.9.1.3, §3.9.3.1), called by the constructors' translations (translate/constructors/runtime.ts
 * `useHelper`):
 *
 *   Q{urn:xmldb-rest:engine}content($s as item()*) as item()*
 *   Q{urn:xmldb-rest:engine}element-content($c as item()*, $after as xs:boolean, $names as xs:string*) as item()*
 *
 * - `content`: the value of one enclosed expression as content: arrays flattened, each run of
 *   adjacent atomic values one text node (their string values joined by single spaces), document
 *   nodes replaced by their children, function items (maps included) XQTY0105. Different enclosed
 *   expressions are separate calls, so `<a>{1}{2}</a>` is "12".
 * - `element-content`: XQTY0024 for an attribute or namespace node after other content (`$after`:
 *   static content came before), XQDY0025 for two attributes of one name (`$names`: the start
 *   tag's attributes as `Q{uri}local`); with attributes, the zero-length text nodes left out.
 *
 * Written as stylesheet functions, they were the larger part of every stylesheet that constructs
 * nodes with node content, and about a third of the time saxon-js took to compile one (45 ms
 * against 28 without them, for `<a>{attribute x {1}, 1}</a>`). Their results go on into a
 * constructor, which copies them: a text node made here is a parentless node of the document that
 * engine:plain-element builds in (plain-elements.ts), as `xsl:value-of` makes one.
 */
import { ENGINE_NS } from '../constants';
import { NodeKind, isArray, isAtomic, isDocumentNode, isNode, registerFunctions, xpathError, type XdmArray, type XdmItem, type XdmNode, type XdmValue } from '../../saxon';
import { constructionDocument } from './plain-elements';

export const CONTENT_FUNCTION = 'content';
export const ELEMENT_CONTENT_FUNCTION = 'element-content';

/** Dynamic errors of the content rules (translate/constructors/runtime.ts lists them with the others). */
export const CONTENT_ERRORS = {
  XQTY0024: 'An attribute or namespace node follows other element content.',
  XQDY0025: 'Duplicate attribute in constructed element.',
  XQTY0105: 'A function item cannot be element content.',
} as const;

interface DomNode {
  readonly nodeType: number;
  readonly nodeValue: string | null;
  readonly firstChild: DomNode | null;
  readonly nextSibling: DomNode | null;
  readonly namespaceURI?: string | null;
  readonly localName?: string | null;
  readonly name?: string;
}

const dom = (node: XdmNode): DomNode => node as unknown as DomNode;

/** Node kinds of the child axis (a document's children: no doctype). */
const CHILD_KINDS: ReadonlySet<number> = new Set([NodeKind.element, NodeKind.text, NodeKind.processingInstruction, NodeKind.comment]);

function isDocument(item: XdmItem): item is XdmNode {
  return isNode(item) && isDocumentNode(item);
}

/** `node` as content: a document's children in their order, any other node itself. */
function pushNode(out: XdmItem[], node: XdmNode): void {
  if (!isDocumentNode(node)) {
    out.push(node);
    return;
  }
  for (let child = dom(node).firstChild; child !== null; child = child.nextSibling) {
    if (CHILD_KINDS.has(child.nodeType)) out.push(child as unknown as XdmNode);
  }
}

/** `item` with arrays flattened, into `out`. */
function flatten(item: XdmItem, out: XdmItem[]): void {
  if (!isArray(item)) {
    out.push(item);
    return;
  }
  for (const member of (item as XdmArray).value) for (const m of member) flatten(m, out);
}

function textNode(values: readonly XdmItem[]): XdmNode {
  return constructionDocument().createTextNode(values.map(String).join(' ')) as unknown as XdmNode;
}

function content([s]: XdmValue[]): XdmValue {
  if (s.every(isNode)) return s.some(isDocument) ? s.reduce<XdmItem[]>((out, n) => (pushNode(out, n as XdmNode), out), []) : s;
  if (s.every(isAtomic)) return [textNode(s)];
  const items: XdmItem[] = [];
  for (const item of s) flatten(item, items);
  const out: XdmItem[] = [];
  let run: XdmItem[] = [];
  for (const item of items) {
    if (isAtomic(item)) {
      run.push(item);
      continue;
    }
    if (run.length > 0) out.push(textNode(run));
    run = [];
    if (!isNode(item)) throw xpathError(CONTENT_ERRORS.XQTY0105, 'XQTY0105');
    pushNode(out, item);
  }
  if (run.length > 0) out.push(textNode(run));
  return out;
}

const isAttributeLike = (item: XdmItem): boolean => isNode(item) && (item.nodeType === NodeKind.attribute || item.nodeType === NodeKind.namespace);

const isEmptyText = (item: XdmItem): boolean => isNode(item) && item.nodeType === NodeKind.text && (dom(item).nodeValue ?? '') === '';

function elementContent([c, after, names]: XdmValue[]): XdmValue {
  if (!c.some(isAttributeLike)) return c;
  // an attribute after the first item that is neither an attribute nor a zero-length text node
  const first = after.length > 0 && String(after[0]) === 'true' ? 0 : c.findIndex((i) => !isAttributeLike(i) && !isEmptyText(i));
  if (first >= 0 && c.slice(first).some(isAttributeLike)) throw xpathError(CONTENT_ERRORS.XQTY0024, 'XQTY0024');
  const seen = new Set(names.map(String));
  let count = names.length;
  for (const item of c) {
    if (!isNode(item) || item.nodeType !== NodeKind.attribute) continue;
    const a = dom(item);
    const name = a.name ?? '';
    seen.add(`Q{${a.namespaceURI ?? ''}}${a.localName ?? name.slice(name.indexOf(':') + 1)}`);
    count++;
  }
  if (seen.size !== count) throw xpathError(CONTENT_ERRORS.XQDY0025, 'XQDY0025');
  return c.filter((i) => !isEmptyText(i));
}

/** Registers engine:content and engine:element-content with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerConstructorContentFunctions(): void {
  registerFunctions(ENGINE_NS, {
    [CONTENT_FUNCTION]: { sig: '1F r[*] a[*]', impl: content },
    [ELEMENT_CONTENT_FUNCTION]: { sig: '1F r[*] a[*,1AB,*AS]', impl: elementContent },
  });
}
