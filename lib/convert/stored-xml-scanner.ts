/**
 * A fast reader of stored XML text: for consumers that need its elements, namespace declarations
 * and text but no attributes (the count summaries of xquery/accelerators/leaf-summaries/leaf-summaries.ts), or,
 * `complete`, everything (the compact trees of tree/build-tree.ts).
 *
 * Stored XML is the output of writer.ts from a document our parser (xml-parser.ts) accepted, so
 * its characters, names and namespace declarations were checked on the way in, and it has no XML
 * declaration, DOCTYPE or CDATA section. This scanner skips those checks: it finds markup with
 * `indexOf`, reads start tags, end tags, text, comments, processing instructions and CDATA, and
 * reports to the sink what parseXmlInto would report; unless `complete`, with two differences its
 * callers accept: start tags come without their attributes (namespace declarations are still
 * reported), and comments and processing instructions are skipped unreported.
 *
 * It answers false, having reported part of the document, as soon as the text leaves the simple
 * form it reads: a byte order mark, a carriage return (the parser normalises line ends), a DOCTYPE
 * or any other `<!` markup, an entity reference other than the five predefined ones and character
 * references, a namespace declaration whose value needs normalising or that the parser checks
 * specially (`xmlns:xml`, an empty prefixed one), an end tag that does not match, text outside the
 * root element, unclosed markup, an attribute value with a white space character other than the
 * space or a `<` (the parser normalises or refuses those). The caller then parses the text with
 * the full parser.
 */
import type { Pair } from './writer';
import { XML_NS, XMLNS_NS, type XmlSink } from './xml-parser';

const NONE: readonly Pair[] = [];

/** XML's white space (production 3). */
export function isS(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

/** The end of the name that starts at `from`: the first white space, `>`, `/` or `=`; -1 at the end of the text. */
function nameEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isS(c) || c === 0x3e || c === 0x2f || c === 0x3d) return i;
  }
  return -1;
}

/** Whether `text` from `from` to `to` is XML white space only. */
export function spaceOnly(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isS(text.charCodeAt(i))) return false;
  return true;
}

const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' };
const CHAR_REF = /^#(?:([0-9]{1,7})|x([0-9a-fA-F]{1,6}))$/;

/** Text with its references replaced; undefined for one this scanner leaves to the parser. */
export function decodeReferences(raw: string): string | undefined {
  let out = '';
  let from = 0;
  for (let amp = raw.indexOf('&'); amp !== -1; amp = raw.indexOf('&', from)) {
    const semi = raw.indexOf(';', amp);
    if (semi === -1) return undefined;
    const ref = raw.slice(amp + 1, semi);
    let value = PREDEFINED[ref];
    if (value === undefined) {
      const m = CHAR_REF.exec(ref);
      if (m === null) return undefined;
      const cp = m[1] !== undefined ? parseInt(m[1], 10) : parseInt(m[2], 16);
      // the characters XML allows (production 2); others are the parser's errors to raise
      if (!(cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff))) return undefined;
      value = String.fromCodePoint(cp);
    }
    out += raw.slice(from, amp) + value;
    from = semi + 1;
  }
  return out + raw.slice(from);
}

/**
 * Reports stored XML `text` to `sink` (see the file comment); false when the text must be read
 * by the full parser instead (the sink has then seen part of it, to be discarded).
 */
export function scanStoredXml(text: string, sink: XmlSink, complete = false): boolean {
  if (text.charCodeAt(0) === 0xfeff || text.indexOf('\r') !== -1) return false;
  const open: string[] = [];
  let rooted = false;
  let pos = 0;
  for (;;) {
    const lt = text.indexOf('<', pos);
    const to = lt === -1 ? text.length : lt;
    if (to > pos) {
      if (open.length === 0) {
        if (!spaceOnly(text, pos, to)) return false;
      } else {
        const raw = text.slice(pos, to);
        const value = raw.indexOf('&') === -1 ? raw : decodeReferences(raw);
        if (value === undefined) return false;
        sink.characters(value);
      }
    }
    if (lt === -1) return rooted && open.length === 0;
    const c = text.charCodeAt(lt + 1);
    if (c === 0x2f) {
      // ETag: the name of the open element, white space, '>'
      const name = open.pop();
      if (name === undefined || !text.startsWith(name, lt + 2)) return false;
      let p = lt + 2 + name.length;
      while (isS(text.charCodeAt(p))) p++;
      if (text.charCodeAt(p) !== 0x3e) return false;
      sink.endElement();
      pos = p + 1;
    } else if (c === 0x21) {
      if (text.startsWith('<!--', lt)) {
        const end = text.indexOf('-->', lt + 4);
        if (end === -1) return false;
        if (complete) {
          sink.comment(text.slice(lt + 4, end));
        }
        pos = end + 3;
      } else if (open.length > 0 && text.startsWith('<![CDATA[', lt)) {
        const end = text.indexOf(']]>', lt + 9);
        if (end === -1) return false;
        sink.characters(text.slice(lt + 9, end));
        pos = end + 3;
      } else return false;
    } else if (c === 0x3f) {
      const end = text.indexOf('?>', lt + 2);
      if (end === -1) return false;
      if (complete && !processingInstruction(text, lt + 2, end, sink)) return false;
      pos = end + 2;
    } else {
      if (open.length === 0 && rooted) return false;
      const end = startTag(text, lt, sink, open, complete);
      if (end < 0) return false;
      rooted = true;
      pos = end;
    }
  }
}

/** Reports the processing instruction between `from` (after `<?`) and `end` (its `?>`); false to leave it to the parser. */
function processingInstruction(text: string, from: number, end: number, sink: XmlSink): boolean {
  let t = from;
  while (t < end && !isS(text.charCodeAt(t))) t++;
  if (t === from) return false;
  const target = text.slice(from, t);
  if (target.toLowerCase() === 'xml') return false;
  while (t < end && isS(text.charCodeAt(t))) t++;
  sink.processingInstruction(target, text.slice(t, end));
  return true;
}

/**
 * Reads the start tag at `lt` and reports it (and its end, for an empty-element tag; otherwise
 * its name goes on `open`); the position after it, or -1 to leave the text to the parser.
 */
function startTag(text: string, lt: number, sink: XmlSink, open: string[], complete: boolean): number {
  const end = nameEnd(text, lt + 1);
  if (end <= lt + 1 || text.charCodeAt(end) === 0x3d) return -1;
  const name = text.slice(lt + 1, end);
  let namespaces: Pair[] | undefined;
  let attributes: Pair[] | undefined;
  let p = end;
  for (;;) {
    const spaced = p;
    while (isS(text.charCodeAt(p))) p++;
    const c = text.charCodeAt(p);
    if (c === 0x3e || c === 0x2f) {
      const empty = c === 0x2f;
      if (empty && text.charCodeAt(p + 1) !== 0x3e) return -1;
      sink.startElement(name, attributes ?? NONE, namespaces ?? NONE);
      if (empty) sink.endElement();
      else open.push(name);
      return p + (empty ? 2 : 1);
    }
    // an attribute: white space before it, name="value" or name='value'
    if (p === spaced || p >= text.length) return -1;
    const eq = nameEnd(text, p);
    if (eq <= p || text.charCodeAt(eq) !== 0x3d) return -1;
    const quote = text[eq + 1];
    if (quote !== '"' && quote !== "'") return -1;
    const close = text.indexOf(quote, eq + 2);
    if (close === -1) return -1;
    const attribute = text.slice(p, eq);
    if (attribute === 'xmlns' || attribute.startsWith('xmlns:')) {
      const prefix = attribute === 'xmlns' ? '' : attribute.slice(6);
      const value = text.slice(eq + 2, close);
      if (prefix === 'xml' || prefix === 'xmlns' || (prefix !== '' && value === '') || value === XML_NS || value === XMLNS_NS || /[&<\t\n]/.test(value)) return -1;
      (namespaces ??= []).push([prefix, value]);
    } else if (complete) {
      const raw = text.slice(eq + 2, close);
      if (/[<\t\n\r]/.test(raw)) return -1;
      const value = raw.indexOf('&') === -1 ? raw : decodeReferences(raw);
      if (value === undefined) return -1;
      (attributes ??= []).push([attribute, value]);
    }
    p = close + 1;
  }
}
