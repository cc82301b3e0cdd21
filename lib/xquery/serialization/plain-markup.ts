/**
 * The XML text of a plain element tree, written directly: the text saxon-js writes for it with
 * the XML method, no indentation and no XML declaration (node-output.ts), which it takes several
 * microseconds an element to produce. Constructed results (element constructors, engine:plain-element
 * in functions/plain-elements.ts) are mostly such trees.
 *
 * A plain tree: a parentless element (so no namespace is inherited from ancestors), or an
 * element of a stored document's compact tree in which no name has a namespace, and under it
 * only elements and attributes in no namespace with unprefixed names (no `xmlns` declaration
 * either) and non-empty text nodes. Nothing in it needs a namespace declaration, so saxon-js
 * writes each element as `<name a="v">content</name>`, or `<name a="v"/>` when it has no
 * children, the attributes in their order. Its character references, which differ from
 * xml/escape.ts (the same text must come out as before): `&amp;` `&lt;` `&gt;` and `&#13;` in
 * text; in attribute values also `&#34;`, `&#9;` and `&#10;`. Characters saxon-js writes as
 * references of its own choice (C0 and C1 controls, U+2028) and unpaired surrogates are left to
 * saxon-js: for any tree holding one, or any other node, `plainMarkup` answers undefined.
 */
import { NodeKind, type XdmNode } from '../../saxon';
import { firstChild, hasNoNamespaces, nextSibling, type CompactTree, type TreeName } from '../../tree/compact-tree';
import { treeNode } from '../../tree/tree-dom';

interface DomAttr {
  readonly name: string;
  readonly namespaceURI: string | null;
  readonly value: string;
}

interface DomNode {
  readonly nodeType: number;
  readonly parentNode: DomNode | null;
  readonly firstChild: DomNode | null;
  readonly nextSibling: DomNode | null;
  readonly namespaceURI?: string | null;
  readonly nodeName: string;
  readonly nodeValue: string | null;
  readonly attributes?: ArrayLike<DomAttr>;
}

/** Deepest nesting written here (deeper trees, rare in results, go to saxon-js). */
const MAX_DEPTH = 64;

/** Characters saxon-js writes as references of its own choice, and surrogates (paired ones too: left to saxon-js). */
const UNSAFE = /[\0-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\u2028\uD800-\uDFFF]/;
const TEXT = /[&<>\r]/g;
const ATTRIBUTE = /[&<>"\t\n\r]/g;
const REFERENCES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&#34;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};
const reference = (c: string): string => REFERENCES[c];

/** Thrown inside the walk when the tree is not plain. */
class NotPlain {}
const NOT_PLAIN = new NotPlain();

// Read once: the saxon door's exports are getters (its `export *`), a call each time they are
// read, which a walk over tens of thousands of elements paid for every node.
const ELEMENT = NodeKind.element;
const TEXT_NODE = NodeKind.text;

function plainName(name: string): string {
  if (name.includes(':') || name === 'xmlns') throw NOT_PLAIN;
  return name;
}

function checked(s: string): string {
  if (UNSAFE.test(s)) throw NOT_PLAIN;
  return s;
}

/** What needs a look in text: a character to escape, or one that is not plain. */
const TEXT_SPECIAL = /[&<>\r\0-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\u2028\uD800-\uDFFF]/;
const ATTRIBUTE_SPECIAL = /[&<>"\t\n\r\0-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\u2028\uD800-\uDFFF]/;

/** Text as written: most text needs neither escaping nor a refusal, and is found so by one test. */
function textOut(s: string): string {
  return TEXT_SPECIAL.test(s) ? checked(s).replace(TEXT, reference) : s;
}

function attributeOut(s: string): string {
  return ATTRIBUTE_SPECIAL.test(s) ? checked(s).replace(ATTRIBUTE, reference) : s;
}

/** Writes `el` to `out` (pieces joined later). */
function write(el: DomNode, out: string[], depth: number): void {
  if (depth > MAX_DEPTH || (el.namespaceURI ?? '') !== '') throw NOT_PLAIN;
  const name = plainName(el.nodeName);
  out.push('<', name);
  const attributes = el.attributes;
  for (let i = 0, n = attributes?.length ?? 0; i < n; i++) {
    const a = attributes![i];
    if ((a.namespaceURI ?? '') !== '') throw NOT_PLAIN;
    out.push(' ', plainName(a.name), '="', attributeOut(a.value), '"');
  }
  if (el.firstChild === null) {
    out.push('/>');
    return;
  }
  out.push('>');
  for (let c: DomNode | null = el.firstChild; c !== null; c = c.nextSibling) {
    if (c.nodeType === ELEMENT) write(c, out, depth + 1);
    else if (c.nodeType === TEXT_NODE && c.nodeValue) out.push(textOut(c.nodeValue));
    else throw NOT_PLAIN;
  }
  out.push('</', name, '>');
}

/** The markup of a plain name: the start tag's opening, the end tag, an attribute up to its value. */
interface NameMarkup {
  readonly open: string;
  readonly close: string;
  readonly attribute: string;
}

/**
 * The markup of the names of the tree written last, by name id, made when first needed (null:
 * not plain). A result's elements mostly share one tree (tree/element-forest.ts), and a tree's
 * names are only ever added to, so an id keeps its markup.
 */
let markupNames: readonly TreeName[] | undefined;
let markupById: (NameMarkup | null | undefined)[] = [];

function nameMarkup(names: readonly TreeName[], id: number): NameMarkup {
  if (names !== markupNames) {
    markupNames = names;
    markupById = [];
  }
  let markup = markupById[id];
  if (markup === undefined) {
    const { uri, qname } = names[id];
    const plain = uri === '' && !qname.includes(':') && qname !== 'xmlns';
    markup = markupById[id] = plain ? { open: `<${qname}`, close: `</${qname}>`, attribute: ` ${qname}="` } : null;
  }
  if (markup === null) throw NOT_PLAIN;
  return markup;
}

/**
 * `write` for an element of a compact tree, from its rows. Pieces go to the result's pieces
 * (xml/text-pieces.ts) rather than into a string per element: concatenating makes a rope object per
 * piece, which a large result (tens of thousands of elements) kept alive until its end, for the
 * garbage collector to copy. Each piece costs its share of the joins, so an element is as few
 * pieces as its names' markup allows: `<g n="v">t</g>` is `<g`, ` n="`, `v`, `">`, `t`, `</g>`.
 */
function writeRows(tree: CompactTree, pre: number, depth: number, out: string[]): void {
  if (depth > MAX_DEPTH) throw NOT_PLAIN;
  const { names } = tree;
  const element = nameMarkup(names, tree.ref[pre]);
  out.push(element.open);
  const from = tree.attrStart.at(pre);
  const to = tree.attrStart.at(pre + 1);
  for (let i = from; i < to; i++) {
    const attribute = nameMarkup(names, tree.attrName[i]).attribute;
    const value = attributeOut(tree.strings.at(tree.attrValue[i]));
    if (i === from) out.push(attribute, value);
    else out.push('"', attribute, value);
  }
  const first = firstChild(tree, pre);
  if (first < 0) {
    out.push(from < to ? '"/>' : '/>');
    return;
  }
  out.push(from < to ? '">' : '>');
  for (let c = first; c >= 0; c = nextSibling(tree, c)) {
    const kind = tree.kind[c];
    const text = kind === TEXT_NODE ? tree.strings.at(tree.ref[c]) : '';
    if (kind === ELEMENT) writeRows(tree, c, depth + 1, out);
    else if (text) out.push(textOut(text));
    else throw NOT_PLAIN;
  }
  out.push(element.close);
}

/**
 * Whether an element of a compact tree inherits no namespace: it has no parent (a constructed
 * element, tree/element-forest.ts), or no name of its tree has a namespace, so none is in scope
 * anywhere in it and saxon-js writes it with no declaration, as a parentless one.
 */
function noInheritedNamespaces(tree: CompactTree, pre: number): boolean {
  return tree.parent.at(pre) < 0 || hasNoNamespaces(tree);
}

/**
 * Appends the XML text of `node` to `out` when it is a plain tree (see the file comment) and
 * answers true; else answers false with `out` as it was.
 */
export function writePlainMarkup(node: XdmNode, out: string[]): boolean {
  const n = node as unknown as DomNode;
  // an element of a compact tree is read from its rows
  const row = treeNode(node);
  if (row !== undefined && (row.v.tree.kind[row.p] !== ELEMENT || !noInheritedNamespaces(row.v.tree, row.p))) return false;
  if (row === undefined && (n.nodeType !== ELEMENT || n.parentNode !== null)) return false;
  const mark = out.length;
  try {
    if (row !== undefined) writeRows(row.v.tree, row.p, 0, out);
    else write(n, out, 0);
    return true;
  } catch (e) {
    out.length = mark;
    if (e === NOT_PLAIN) return false;
    throw e;
  }
}

/** The XML text of `node` when it is a plain tree (see the file comment), else undefined. */
export function plainMarkup(node: XdmNode): string | undefined {
  const out: string[] = [];
  return writePlainMarkup(node, out) ? out.join('') : undefined;
}
