/**
 * Builds the compact form (compact-tree.ts) of a stored document from its text, with the
 * project's own parser (convert/xml-parser.ts) writing rows instead of markup. Stored text is
 * already normalised (convert/xml.ts), so the tree is the one saxon-js would build from it: the
 * same nodes, names, namespaces and text, adjacent text in one node.
 */
import { parseXmlInto, XML_NS, XMLNS_NS, type XmlSink } from '../convert/xml-parser';
import { scanStoredXml } from '../convert/stored-xml-scanner';
import type { Pair } from '../convert/writer';
import { AttributeStarts, NearRows, NodeKind, TreeStrings, type CompactTree, type TreeName } from './compact-tree';
import { TextPieces } from '../xml/text-pieces';
import { ownCopy } from '../xml/own-copy';

/** Strings up to this length are kept once in a tree as far as `TreeBuilder.stringId` finds them again. */
const SHARED_LENGTH = 64;
/**
 * Slots of the table of recent short strings at most, a power of two; a tree expected to have
 * fewer rows gets a smaller table (one slot per four rows, at least 64), as small documents and
 * the trees of constructed elements are built often.
 */
const SHARED_SLOTS = 1 << 14;

/** No attributes or namespace declarations (a default that makes no array per element). */
const NO_PAIRS: readonly Pair[] = [];

/** A growable column of 32-bit integers. */
class Column {
  data: Int32Array;
  length = 0;
  constructor(capacity: number) {
    // room for some: a column doubles when full, which from none would stay none
    this.data = new Int32Array(Math.max(16, capacity));
  }
  push(v: number): number {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length] = v;
    return this.length++;
  }
  done(): Int32Array {
    return this.data.slice(0, this.length);
  }
  /** The values so far, not copied (for a column that is converted rather than kept). */
  view(): Int32Array {
    return this.data.subarray(0, this.length);
  }
}

/**
 * Writes rows as it is told of elements, text, comments and PIs. A document's rows are all below
 * its row 0; a forest's (`forest`) top-level elements have no parent (parentless trees, as
 * constructed elements are) and its row 0 is a document node with no children, their
 * `ownerDocument`.
 */
export class TreeBuilder implements XmlSink {
  private readonly kind: Column;
  private readonly parent: Column;
  private readonly end: Column;
  private readonly ref: Column;
  /** The target's name id of each processing instruction, by its row (its `ref` is its data). */
  private readonly piTargets = new Map<number, number>();
  private readonly attrStart: Column;
  private readonly attrName: Column;
  private readonly attrValue: Column;
  private readonly names: TreeName[] = [];
  /** Name ids by namespace URI, then by qualified name (no key made by concatenation per lookup). */
  private readonly nameIds = new Map<string, Map<string, number>>();
  /**
   * The strings in order (joined into one at the end: compact-tree.ts `TreeStrings`, in chunks as
   * they come: xml/text-pieces.ts), and where each starts.
   */
  private readonly stringText = new TextPieces();
  private readonly stringStart: Column;
  private characterCount = 0;
  /** Recent short strings by a hash of their characters, and their ids (`stringId`), until `finish`. */
  private sharedText: (string | undefined)[];
  private readonly sharedId: Int32Array;
  /** Open rows, innermost last (the document first). */
  private readonly open: number[] = [0];
  /** In-scope bindings, innermost last, and how many each open element added. */
  private readonly scope: Pair[] = [['xml', XML_NS]];
  private readonly added: number[] = [];
  private text = '';

  constructor(
    capacity: number,
    private readonly forest = false,
  ) {
    this.kind = new Column(capacity);
    this.parent = new Column(capacity);
    this.end = new Column(capacity);
    this.ref = new Column(capacity);
    this.attrStart = new Column(capacity);
    // attributes and strings: room for as many as rows, up to a thousand, to start with (a large
    // document has fewer of them than rows, and each column doubles when full)
    const few = Math.min(capacity, 1024);
    this.attrName = new Column(few);
    this.attrValue = new Column(few);
    this.stringStart = new Column(few);
    const slots = Math.min(SHARED_SLOTS, Math.max(64, 2 ** Math.ceil(Math.log2(capacity / 4))));
    this.sharedText = new Array<string | undefined>(slots);
    this.sharedId = new Int32Array(slots);
    this.row(NodeKind.document, -1);
  }

  startElement(qname: string, attributes: readonly Pair[] = NO_PAIRS, namespaces: readonly Pair[] = NO_PAIRS): void {
    this.openElement(qname, namespaces);
    for (const [name, value] of attributes) this.attribute(name, value);
  }

  /** Opens element `qname`, which declares `namespaces`; its attributes follow (`attribute`), before its content. */
  openElement(qname: string, namespaces: readonly Pair[] = NO_PAIRS): void {
    this.flush();
    for (const b of namespaces) this.scope.push(b);
    this.added.push(namespaces.length);
    const colon = qname.indexOf(':');
    const prefix = colon < 0 ? '' : qname.slice(0, colon);
    const pre = this.row(NodeKind.element, this.nameId(qname, this.lookup(prefix)));
    for (const [p, uri] of namespaces) {
      this.attrName.push(this.nameId(p === '' ? 'xmlns' : 'xmlns:' + p, XMLNS_NS));
      this.attrValue.push(this.stringId(uri));
    }
    this.open.push(pre);
  }

  /** An attribute of the element opened last, before any of its content (its row's attributes end where the next row starts). */
  attribute(qname: string, value: string): void {
    const c = qname.indexOf(':');
    this.attrName.push(this.nameId(qname, c < 0 ? '' : this.lookup(qname.slice(0, c))));
    this.attrValue.push(this.stringId(value));
  }

  endElement(): void {
    this.flush();
    const pre = this.open.pop()!;
    this.end.data[pre] = this.kind.length;
    // pop, not `length -=`: setting an array's length is slow in V8, and most elements bind nothing
    for (let b = this.added.pop()!; b > 0; b--) this.scope.pop();
  }

  characters(s: string): void {
    this.text += s;
  }

  /** The number of rows so far: the row the next node gets. */
  get rows(): number {
    return this.kind.length + (this.text === '' ? 0 : 1);
  }

  comment(s: string): void {
    this.flush();
    this.leaf(NodeKind.comment, this.stringId(s));
  }

  processingInstruction(target: string, data: string): void {
    this.flush();
    const targetId = this.nameId(target, '');
    this.piTargets.set(this.leaf(NodeKind.pi, this.stringId(data)), targetId);
  }

  finish(): CompactTree {
    this.flush();
    // they may be slices of the source text, which they would keep alive
    this.sharedText = [];
    this.end.data[0] = this.forest ? 1 : this.kind.length;
    this.attrStart.push(this.attrName.length);
    return {
      size: this.kind.length,
      kind: Uint8Array.from(this.kind.done()),
      parent: NearRows.from(this.parent.view(), -1),
      end: NearRows.from(this.end.view(), 1),
      ref: this.ref.done(),
      piTargets: this.piTargets,
      attrStart: AttributeStarts.from(this.attrStart.done()),
      attrName: this.attrName.done(),
      attrValue: this.attrValue.done(),
      names: this.names,
      strings: new TreeStrings(this.stringText.text(), this.stringBounds()),
    };
  }

  /** Where each string starts, and after them the end of the last. */
  private stringBounds(): Int32Array {
    this.stringStart.push(this.characterCount);
    return this.stringStart.done();
  }

  private flush(): void {
    if (this.text === '') return;
    const s = this.text;
    this.text = '';
    this.leaf(NodeKind.text, this.stringId(s));
  }

  private leaf(kind: number, ref: number): number {
    const pre = this.row(kind, ref);
    this.end.data[pre] = pre + 1;
    return pre;
  }

  private row(kind: number, ref: number): number {
    const pre = this.kind.push(kind);
    this.parent.push(pre === 0 || (this.forest && this.open.length === 1) ? -1 : this.open[this.open.length - 1]);
    this.end.push(0);
    this.ref.push(ref);
    this.attrStart.push(this.attrName.length);
    return pre;
  }

  private lookup(prefix: string): string {
    for (let i = this.scope.length - 1; i >= 0; i--) if (this.scope[i][0] === prefix) return this.scope[i][1];
    return '';
  }

  private nameId(qname: string, uri: string): number {
    let ids = this.nameIds.get(uri);
    if (ids === undefined) this.nameIds.set(uri, (ids = new Map()));
    let id = ids.get(qname);
    if (id === undefined) {
      const name = ownCopy(qname);
      const colon = name.indexOf(':');
      id = this.names.push({ prefix: colon < 0 ? null : name.slice(0, colon), local: name.slice(colon + 1), uri: ownCopy(uri), qname: name }) - 1;
      ids.set(qname, id);
    }
    return id;
  }

  /**
   * The id of string `s`. Short strings are kept once as far as a table of recent ones finds
   * them: values such as dates, amounts, flags and references repeat, and so does indentation.
   * A table indexed by a hash of the characters, one string a slot, rather than a map of every
   * string seen: its lookups take about 2% of a build (a profile at XMark factor 1), where
   * builds with such a map took about a third longer (timed on a noisy machine), and it finds
   * most repeats (XMark factor 1: 0.76 million strings instead of 1.29, 75 MB of characters
   * instead of 81; a map of all would keep 0.55 million).
   */
  private stringId(s: string): number {
    const n = s.length;
    if (n > SHARED_LENGTH) return this.newString(s);
    let h = n;
    for (let i = 0; i < n; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
    const slot = h & (this.sharedId.length - 1);
    if (this.sharedText[slot] === s) return this.sharedId[slot];
    const id = this.newString(s);
    this.sharedText[slot] = s;
    this.sharedId[slot] = id;
    return id;
  }

  private newString(s: string): number {
    this.stringText.out.push(s);
    this.stringText.settle();
    const id = this.stringStart.push(this.characterCount);
    this.characterCount += s.length;
    return id;
  }
}

/**
 * The compact tree of stored XML text: read by the fast scanner of stored text when it can,
 * else by the full parser (which throws its 400 for text that is not well-formed).
 */
export function parseToCompactTree(xml: string): CompactTree {
  const capacity = Math.max(16, xml.length >> 5);
  const scanned = new TreeBuilder(capacity);
  if (scanStoredXml(xml, scanned, true)) return scanned.finish();
  const parsed = new TreeBuilder(capacity);
  parseXmlInto(xml, parsed);
  return parsed.finish();
}
