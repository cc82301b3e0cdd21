/**
 * A strict, non-validating XML 1.0 + Namespaces parser that writes the normalised document
 * straight into an {@link XmlWriter}. Parse functions are named after the productions of XML 1.0
 * (document, prolog, element, content, Reference, …).
 *
 * Safety: nothing outside the input is ever read (no DTD, no external entity: referencing one is
 * an error). Internal entities are expanded with a budget (number of expansions and characters),
 * so entity bombs fail fast with a 400; recursion is an error. Element nesting uses an explicit
 * stack, not recursion; nesting depth and attributes per element are limited (writer.ts, XML_LIMITS).
 */
import { Cursor } from './xml-cursor';
import { isXmlChar, parseDoctype, type EntityDecl } from './xml-dtd';
import { isQName } from './names';
import { elementLimit, type Pair, type XmlWriter } from './writer';

export const XML_NS = 'http://www.w3.org/XML/1998/namespace';
export const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

/** Entity expansion budget for one document. */
export const ENTITY_LIMITS = { expansions: 100_000, characters: 10_000_000, depth: 32 } as const;

/** What the parser writes to: an {@link XmlWriter}, or a sink that only checks. */
export type XmlSink = Pick<XmlWriter, 'startElement' | 'endElement' | 'characters' | 'comment' | 'processingInstruction'>;

export interface XmlParseOptions {
  /** Remove namespaces: local names only, no namespace declarations (STRIPNS). */
  readonly stripns?: boolean;
  /** Resource name for messages. */
  readonly name?: string;
}

const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' };
const INVALID_CHAR = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const XML_DECL =
  /^<\?xml[ \t\n]+version[ \t\n]*=[ \t\n]*("1\.[0-9]+"|'1\.[0-9]+')([ \t\n]+encoding[ \t\n]*=[ \t\n]*("[A-Za-z][A-Za-z0-9._-]*"|'[A-Za-z][A-Za-z0-9._-]*'))?([ \t\n]+standalone[ \t\n]*=[ \t\n]*("(yes|no)"|'(yes|no)'))?[ \t\n]*\?>/;
const TEXT_END = /[<&]/g;

interface OpenElement {
  readonly name: string;
  /** Namespace bindings this element added to the scope. */
  readonly bindings: number;
}

/** Parses a whole document (line ends not yet normalised) into the writer. */
export function parseXmlInto(input: string, writer: XmlSink, options: XmlParseOptions = {}): void {
  new XmlParser(input, writer, options).document();
}

class XmlParser {
  private readonly cur: Cursor;
  private entities: ReadonlyMap<string, EntityDecl> = new Map();
  /** In-scope namespace bindings, innermost last. */
  private readonly scope: Pair[] = [['xml', XML_NS]];
  private readonly open: OpenElement[] = [];
  /** Entities being expanded, outermost first (recursion check). */
  private readonly expanding: string[] = [];
  private expansions = 0;
  private expanded = 0;

  constructor(
    input: string,
    private readonly writer: XmlSink,
    private readonly options: XmlParseOptions,
  ) {
    const text = (input.charCodeAt(0) === 0xfeff ? input.slice(1) : input).replace(/\r\n?/g, '\n');
    this.cur = new Cursor(text, options.name);
    const bad = INVALID_CHAR.exec(text);
    if (bad !== null) throw this.cur.errorAt(bad.index, 'XML_CHAR_X', bad[0].codePointAt(0)!.toString(16).toUpperCase());
  }

  /** document ::= prolog element Misc* */
  document(): void {
    const cur = this.cur;
    this.xmlDecl();
    this.misc();
    if (cur.eat('<!DOCTYPE')) {
      this.entities = parseDoctype(cur).entities;
      this.misc();
    }
    if (cur.eof()) throw cur.error('XML_NO_ROOT');
    if (cur.peek() !== '<') throw cur.error('XML_PROLOG');
    if (cur.startsWith('<!DOCTYPE')) throw cur.error('XML_DOCTYPE_X', 'misplaced or repeated DOCTYPE');
    if (cur.startsWith('<!') || cur.startsWith('</')) throw cur.error('XML_MARKUP');
    this.content(cur, true);
    this.misc();
    if (!cur.eof()) throw cur.error('XML_TRAILING');
  }

  /** XMLDecl (production 23): checked and dropped. */
  private xmlDecl(): void {
    const cur = this.cur;
    if (!/^<\?xml[ \t\n?]/.test(cur.text)) return;
    const m = XML_DECL.exec(cur.text);
    if (m === null) throw cur.error('XML_DECL');
    cur.pos = m[0].length;
  }

  /** Misc* (production 27): comments, PIs and white space around the root element. */
  private misc(): void {
    const cur = this.cur;
    for (;;) {
      cur.skipS();
      if (cur.startsWith('<!--')) this.comment(cur);
      else if (cur.startsWith('<?')) this.pi(cur);
      else return;
    }
  }

  /**
   * element and content (productions 39, 43). With `root`, reads one element (the cursor stands
   * at its `<`); otherwise reads the replacement text of an entity to its end, which must close
   * every element it opens.
   */
  private content(cur: Cursor, root: boolean): void {
    const base = this.open.length;
    if (root && this.startTag(cur)) return;
    for (;;) {
      if (cur.eof()) {
        if (!root && this.open.length === base) return;
        throw root ? cur.error('XML_EOF') : cur.error('XML_ENTITY_MARKUP_X', this.expanding[this.expanding.length - 1]);
      }
      const c = cur.peek();
      if (c === '<') {
        const n = cur.peek(1);
        if (n === '/') {
          if (this.open.length === base) throw cur.error('XML_ENTITY_MARKUP_X', this.expanding[this.expanding.length - 1]);
          this.endTag(cur);
          if (root && this.open.length === base) return;
        } else if (n === '!') {
          if (cur.startsWith('<!--')) this.comment(cur);
          else if (cur.startsWith('<![CDATA[')) this.cdata(cur);
          else throw cur.error('XML_MARKUP');
        } else if (n === '?') {
          this.pi(cur);
        } else {
          this.startTag(cur);
        }
      } else if (c === '&') {
        this.reference(cur);
      } else {
        TEXT_END.lastIndex = cur.pos;
        const m = TEXT_END.exec(cur.text);
        const end = m === null ? cur.text.length : m.index;
        const text = cur.text.slice(cur.pos, end);
        const bad = text.indexOf(']]>');
        if (bad !== -1) throw cur.errorAt(cur.pos + bad, 'XML_CDATA_END');
        this.writer.characters(text);
        cur.pos = end;
      }
    }
  }

  /** STag / EmptyElemTag (productions 40, 44); true for an empty-element tag. */
  private startTag(cur: Cursor): boolean {
    const start = cur.pos;
    const deep = elementLimit(this.open.length + 1, 0);
    if (deep !== undefined) throw cur.errorAt(start, ...deep);
    cur.expect('<');
    const name = cur.name();
    const attributes: [string, string][] = [];
    for (;;) {
      const s = cur.skipS();
      if (cur.eat('/>') || cur.eat('>')) break;
      if (cur.eof()) throw cur.error('XML_EOF');
      if (!s) throw cur.error('XML_EXPECTED_X', "white space, '>' or '/>'");
      const many = elementLimit(0, attributes.length + 1);
      if (many !== undefined) throw cur.errorAt(start, ...many);
      const an = cur.name();
      cur.skipS();
      cur.expect('=');
      cur.skipS();
      attributes.push([an, this.attValue(cur)]);
    }
    const empty = cur.text.charCodeAt(cur.pos - 2) === 0x2f; // '/'
    const bindings = this.bindNamespaces(cur, start, name, attributes);
    this.open.push({ name, bindings: bindings.length });
    this.writeStart(name, attributes, bindings);
    if (empty) this.closeElement();
    return empty;
  }

  /**
   * Checks names and namespace declarations of a start tag and adds its bindings to the scope.
   * Returns the declarations, in document order.
   */
  private bindNamespaces(cur: Cursor, start: number, name: string, attributes: [string, string][]): Pair[] {
    const seen = new Set<string>();
    const decls: Pair[] = [];
    for (const [an, value] of attributes) {
      if (seen.has(an)) throw cur.errorAt(start, 'XML_DUP_ATTR_X', an);
      seen.add(an);
      if (!isQName(an)) throw cur.errorAt(start, 'XML_QNAME_X', an);
      if (an === 'xmlns') {
        if (value === XML_NS || value === XMLNS_NS) throw cur.errorAt(start, 'XML_NS_DECL_X', `xmlns="${value}"`);
        decls.push(['', value]);
      } else if (an.startsWith('xmlns:')) {
        const prefix = an.slice(6);
        if (prefix === 'xmlns' || value === XMLNS_NS || (prefix === 'xml') !== (value === XML_NS) || value === '') {
          throw cur.errorAt(start, 'XML_NS_DECL_X', `${an}="${value}"`);
        }
        if (prefix !== 'xml') decls.push([prefix, value]);
      }
    }
    if (!isQName(name)) throw cur.errorAt(start, 'XML_QNAME_X', name);
    this.scope.push(...decls);
    const prefixOf = (qn: string): string | undefined => (qn.includes(':') ? qn.slice(0, qn.indexOf(':')) : undefined);
    const elementPrefix = prefixOf(name);
    if (elementPrefix !== undefined) this.resolve(cur, start, elementPrefix);
    const expanded = new Set<string>();
    for (const [an] of attributes) {
      const prefix = prefixOf(an);
      if (prefix === undefined || prefix === 'xmlns') continue;
      const key = this.resolve(cur, start, prefix) + ' ' + an.slice(prefix.length + 1);
      if (expanded.has(key)) throw cur.errorAt(start, 'XML_DUP_ATTR_X', an);
      expanded.add(key);
    }
    return decls;
  }

  private resolve(cur: Cursor, start: number, prefix: string): string {
    for (let i = this.scope.length - 1; i >= 0; i--) if (this.scope[i][0] === prefix) return this.scope[i][1];
    throw cur.errorAt(start, 'XML_PREFIX_X', prefix);
  }

  private writeStart(name: string, attributes: [string, string][], decls: Pair[]): void {
    if (!this.options.stripns) {
      const plain = attributes.filter(([an]) => an !== 'xmlns' && !an.startsWith('xmlns:'));
      this.writer.startElement(name, plain, decls);
      return;
    }
    const local = (qn: string): string => qn.slice(qn.indexOf(':') + 1);
    const kept: [string, string][] = [];
    const names = new Set<string>();
    for (const [an, value] of attributes) {
      if (an === 'xmlns' || an.startsWith('xmlns:')) continue;
      const n = an.startsWith('xml:') ? an : local(an);
      if (names.has(n)) continue; // p:x and x collapse to x: the first one wins
      names.add(n);
      kept.push([n, value]);
    }
    this.writer.startElement(local(name), kept);
  }

  /** ETag (production 42). */
  private endTag(cur: Cursor): void {
    const start = cur.pos;
    cur.pos += 2;
    const name = cur.name();
    cur.skipS();
    cur.expect('>');
    const top = this.open[this.open.length - 1];
    if (top.name !== name) throw cur.errorAt(start, 'XML_END_TAG_XX', top.name, name);
    this.closeElement();
  }

  private closeElement(): void {
    const top = this.open.pop()!;
    this.scope.length -= top.bindings;
    this.writer.endElement();
  }

  /** AttValue (production 10), normalised (§3.3.3, CDATA: white space characters become spaces). */
  private attValue(cur: Cursor): string {
    const start = cur.pos;
    const raw = cur.quoted('a quoted attribute value');
    return this.attText(raw, cur, start + 1);
  }

  /**
   * `raw` with its references replaced and its white space characters made spaces. The text
   * between those is copied as slices, not a character at a time: a generated stylesheet's
   * attributes hold whole expressions, kilobytes long.
   */
  private attText(raw: string, cur: Cursor, offset: number): string {
    let out = '';
    let from = 0;
    let i = 0;
    while (i < raw.length) {
      const c = raw.charCodeAt(i);
      if (c === 0x3c) throw cur.errorAt(offset + i, 'XML_ATTR_LT'); // '<'
      if (c === 0x26) {
        // '&'
        out += raw.slice(from, i);
        const end = raw.indexOf(';', i);
        if (end === -1) throw cur.errorAt(offset + i, 'XML_EXPECTED_X', "';' after the reference");
        const ref = raw.slice(i + 1, end);
        if (ref.startsWith('#')) {
          out += this.charRef(ref, cur, offset + i);
        } else {
          const pre = PREDEFINED[ref];
          if (pre !== undefined) out += pre;
          else {
            const value = this.enter(ref, cur, offset + i);
            const inner = new Cursor(value, cur.locate(offset + i));
            out += this.attText(value, inner, 0);
            this.expanding.pop();
          }
        }
        i = from = end + 1;
      } else if (c === 0x09 || c === 0x0a || c === 0x0d) {
        out += `${raw.slice(from, i)} `;
        i = from = i + 1;
      } else {
        i++;
      }
    }
    return from === 0 ? raw : out + raw.slice(from);
  }

  /** CharRef (production 66); `ref` without `&` and `;`. */
  private charRef(ref: string, cur: Cursor, pos: number): string {
    const digits = ref[1] === 'x' ? ref.slice(2) : ref.slice(1);
    const ok = ref[1] === 'x' ? /^[0-9a-fA-F]{1,8}$/.test(digits) : /^[0-9]{1,10}$/.test(digits);
    const cp = ok ? parseInt(digits, ref[1] === 'x' ? 16 : 10) : -1;
    if (!isXmlChar(cp)) throw cur.errorAt(pos, 'XML_CHARREF_X', ref.slice(1));
    return String.fromCodePoint(cp);
  }

  /** Reference in content (production 67). */
  private reference(cur: Cursor): void {
    const start = cur.pos;
    cur.pos++;
    if (cur.peek() === '#') {
      const end = cur.text.indexOf(';', cur.pos);
      if (end === -1 || end - cur.pos > 12) throw cur.errorAt(start, 'XML_EXPECTED_X', "';' after the character reference");
      this.writer.characters(this.charRef(cur.text.slice(cur.pos, end), cur, start));
      cur.pos = end + 1;
      return;
    }
    const name = cur.name();
    cur.expect(';', "';' after the entity name");
    const pre = PREDEFINED[name];
    if (pre !== undefined) {
      this.writer.characters(pre);
      return;
    }
    const value = this.enter(name, cur, start);
    if (!value.includes('<') && !value.includes('&')) this.writer.characters(value);
    else this.content(new Cursor(value, cur.locate(start)), false);
    this.expanding.pop();
  }

  /** Starts expanding a declared internal entity (checks kind, recursion, budget). */
  private enter(name: string, cur: Cursor, pos: number): string {
    const decl = this.entities.get(name);
    if (decl === undefined) throw cur.errorAt(pos, 'XML_ENTITY_X', name);
    if (decl.kind === 'external') throw cur.errorAt(pos, 'XML_EXTERNAL_ENTITY_X', name);
    if (decl.kind === 'unparsed') throw cur.errorAt(pos, 'XML_UNPARSED_ENTITY_X', name);
    if (this.expanding.includes(name)) throw cur.errorAt(pos, 'XML_ENTITY_RECURSION_X', name);
    this.expansions++;
    this.expanded += decl.value.length;
    if (
      this.expansions > ENTITY_LIMITS.expansions ||
      this.expanded > ENTITY_LIMITS.characters ||
      this.expanding.length >= ENTITY_LIMITS.depth
    ) {
      throw cur.errorAt(pos, 'XML_ENTITY_LIMIT');
    }
    this.expanding.push(name);
    return decl.value;
  }

  /** Comment (production 15). */
  private comment(cur: Cursor): void {
    cur.pos += 4;
    const start = cur.pos;
    const body = cur.until('-->');
    const dash = body.indexOf('--');
    if (dash !== -1) throw cur.errorAt(start + dash, 'XML_COMMENT');
    if (body.endsWith('-')) throw cur.errorAt(start + body.length - 1, 'XML_COMMENT');
    this.writer.comment(body);
  }

  /** PI (production 16); the target `xml` (any case) is reserved, and targets have no colon. */
  private pi(cur: Cursor): void {
    const start = cur.pos;
    cur.pos += 2;
    const target = cur.name();
    if (target.toLowerCase() === 'xml') {
      throw start === 0 || target === 'xml' ? cur.errorAt(start, 'XML_DECL') : cur.errorAt(start, 'XML_PI_TARGET_X', target);
    }
    if (target.includes(':')) throw cur.errorAt(start, 'XML_PI_TARGET_X', target);
    let data = '';
    if (!cur.eat('?>')) {
      cur.requireS("white space or '?>'");
      data = cur.until('?>');
    }
    this.writer.processingInstruction(target, data);
  }

  /** CDSect (production 18): stored as text. */
  private cdata(cur: Cursor): void {
    cur.pos += 9;
    this.writer.characters(cur.until(']]>'));
  }
}
