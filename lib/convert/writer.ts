/**
 * Builds the stored XML text of a converted document and counts its nodes on the way (spec §4:
 * document node + elements + attributes + text nodes + comments + PIs; namespace declarations are
 * not attributes). Every converter (XML, JSON, CSV, HTML) writes through it, so all stored
 * documents share one serialization: no XML declaration, `<a/>` for empty elements, adjacent
 * text merged into one node, empty text dropped.
 */
import { escapeAttribute, escapeText } from '../xml';
import { convertError, type ConvertErrorKey } from './conversion-errors';
import { XML_LIMITS } from './xml-limits';
import type { Utf8Output } from './utf8-output';

/** Characters that may not appear in XML 1.0 text (also lone surrogates). */
const INVALID_CHARS = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Replaces characters XML cannot hold with U+FFFD (for text taken from JSON, CSV or HTML). */
export function sanitizeChars(s: string): string {
  return s.replace(INVALID_CHARS, '\uFFFD');
}

const WHITESPACE_ONLY = /^[ \t\n\r]*$/;

/** The error for an element at `depth` with `attributes` attributes, if it is past a limit. */
export function elementLimit(depth: number, attributes: number): [ConvertErrorKey, number] | undefined {
  if (depth > XML_LIMITS.depth) return ['XML_DEPTH_X', XML_LIMITS.depth];
  if (attributes > XML_LIMITS.attributes) return ['XML_ATTRIBUTES_X', XML_LIMITS.attributes];
  return undefined;
}

export interface WriterOptions {
  /** Drop whitespace-only text nodes, except below `xml:space="preserve"` (STRIPWS). */
  readonly stripws?: boolean;
  /**
   * Where the output is encoded as it is written: the document is then never held as text
   * ({@link XmlWriter.finishBytes}); without it, it is kept as text ({@link XmlWriter.finish}).
   */
  readonly utf8?: Utf8Output;
}

/** Attribute as `[name, value]`; namespace declaration as `[prefix, uri]` (`''` = default namespace). */
export type Pair = readonly [string, string];

export interface WrittenXml {
  readonly xml: string;
  readonly nodes: number;
}

/** {@link WrittenXml} as UTF-8 bytes. */
export interface WrittenBytes {
  readonly bytes: Buffer;
  readonly nodes: number;
}

/**
 * Output is kept as a list of pieces, each joined from about this many characters of appends, and
 * the pieces are joined once at the end (with `utf8` output, each piece is encoded as it is made). Appending to one string makes a rope of one cell per
 * append, which for a large document holds several times the document's size until it is flattened.
 */
const PIECE_CHARS = 1 << 16;

export class XmlWriter {
  /** Finished pieces of the output. */
  private readonly pieces: string[] = [];
  /** Appends since the last piece, and their length. */
  private parts: string[] = [];
  private partsChars = 0;
  private readonly names: string[] = [];
  /** xml:space="preserve" in effect, one entry per open element. */
  private readonly preserve: boolean[] = [];
  private text = '';
  private startTagOpen = false;
  private count = 1; // the document node

  constructor(private readonly options: WriterOptions = {}) {}

  /** Number of elements currently open. */
  get depth(): number {
    return this.names.length;
  }

  startElement(name: string, attributes: readonly Pair[] = [], namespaces: readonly Pair[] = []): void {
    const limit = elementLimit(this.names.length + 1, attributes.length + namespaces.length);
    if (limit !== undefined) throw convertError(...limit);
    this.flush();
    this.closeStartTag();
    let tag = '<' + name;
    for (const [prefix, uri] of namespaces) tag += (prefix === '' ? ' xmlns' : ' xmlns:' + prefix) + '="' + escapeAttribute(uri) + '"';
    let preserve = this.preserve.length > 0 && this.preserve[this.preserve.length - 1];
    for (const [n, v] of attributes) {
      tag += ' ' + n + '="' + escapeAttribute(v) + '"';
      if (n === 'xml:space') preserve = v === 'preserve';
    }
    this.emit(tag);
    this.names.push(name);
    this.preserve.push(preserve);
    this.startTagOpen = true;
    this.count += 1 + attributes.length;
  }

  endElement(): void {
    this.flush();
    const name = this.names.pop();
    if (name === undefined) throw new Error('XmlWriter: no open element');
    this.preserve.pop();
    this.emit(this.startTagOpen ? '/>' : '</' + name + '>');
    this.startTagOpen = false;
  }

  /** Convenience: an element with attributes and optional text content. */
  element(name: string, attributes: readonly Pair[] = [], text?: string): void {
    this.startElement(name, attributes);
    if (text !== undefined) this.characters(text);
    this.endElement();
  }

  /** Text; adjacent calls form one text node. */
  characters(s: string): void {
    this.text += s;
  }

  comment(s: string): void {
    this.flush();
    this.closeStartTag();
    this.emit('<!--' + s + '-->');
    this.count++;
  }

  processingInstruction(target: string, data: string): void {
    this.flush();
    this.closeStartTag();
    this.emit('<?' + target + (data === '' ? '' : ' ' + data) + '?>');
    this.count++;
  }

  /** The document as text (a writer without `utf8` output). */
  finish(): WrittenXml {
    if (this.options.utf8) throw new Error('XmlWriter: the output is bytes (finishBytes)');
    this.end();
    const xml = this.pieces.length === 1 ? this.pieces[0] : this.pieces.join('');
    this.pieces.length = 0;
    return { xml, nodes: this.count };
  }

  /** The document as the UTF-8 bytes of its `utf8` output. */
  finishBytes(): WrittenBytes {
    if (!this.options.utf8) throw new Error('XmlWriter: the output is text (finish)');
    this.end();
    return { bytes: this.options.utf8.bytes(), nodes: this.count };
  }

  private end(): void {
    this.flush();
    if (this.names.length > 0) throw new Error('XmlWriter: unclosed elements');
    this.cut();
  }

  private emit(s: string): void {
    this.parts.push(s);
    this.partsChars += s.length;
    if (this.partsChars >= PIECE_CHARS) this.cut();
  }

  /** Joins the appends since the last piece into a piece, encoded at once to `utf8` output. */
  private cut(): void {
    if (this.parts.length === 0) return;
    const piece = this.parts.join('');
    if (this.options.utf8) this.options.utf8.write(piece);
    else this.pieces.push(piece);
    this.parts = [];
    this.partsChars = 0;
  }

  private closeStartTag(): void {
    if (this.startTagOpen) {
      this.emit('>');
      this.startTagOpen = false;
    }
  }

  private flush(): void {
    const t = this.text;
    if (t === '') return;
    this.text = '';
    if (this.names.length === 0) return; // text outside the root element is never stored
    if (this.options.stripws && !this.preserve[this.preserve.length - 1] && WHITESPACE_ONLY.test(t)) return;
    this.closeStartTag();
    this.emit(escapeText(t));
    this.count++;
  }
}
