/**
 * The reading position of the XML parser: a text, an offset, and the helpers every production
 * uses (expect, whitespace, names, failing with a position). Replacement text of an entity gets
 * its own cursor whose errors point at the reference in the document.
 */
import type { XmldbError } from '../xmldb-error';
import { lineColumn, raiseAt, type ConvertErrorKey, type InputLocation } from './conversion-errors';
import { NC_CHAR_CLASS, NC_START_CLASS } from './names';

/** Name (production 5): NCName characters plus ':'. */
const NAME = new RegExp(`[:${NC_START_CLASS}][:${NC_CHAR_CLASS}]*`, 'uy');

export class Cursor {
  pos = 0;

  /**
   * @param text   the input, line ends already normalised to LF
   * @param source the resource name for messages, or the location every error in this text is
   *               reported at (for entity replacement text)
   */
  constructor(
    readonly text: string,
    private readonly source?: string | InputLocation,
  ) {}

  /** Location of an offset (default: the current one) for messages. */
  locate(pos: number = this.pos): InputLocation {
    if (typeof this.source === 'object') return this.source;
    return { name: this.source, ...lineColumn(this.text, pos) };
  }

  error(key: ConvertErrorKey, ...args: unknown[]): XmldbError {
    return raiseAt(this.locate(), key, ...args);
  }

  errorAt(pos: number, key: ConvertErrorKey, ...args: unknown[]): XmldbError {
    return raiseAt(this.locate(pos), key, ...args);
  }

  eof(): boolean {
    return this.pos >= this.text.length;
  }

  peek(offset = 0): string {
    return this.text.charAt(this.pos + offset);
  }

  startsWith(s: string): boolean {
    return this.text.startsWith(s, this.pos);
  }

  /** Consumes `s` if it comes next. */
  eat(s: string): boolean {
    if (!this.text.startsWith(s, this.pos)) return false;
    this.pos += s.length;
    return true;
  }

  /** Consumes `s` or fails with "Expected <what>." (end of input: the premature-end message). */
  expect(s: string, what = `'${s}'`): void {
    if (this.eat(s)) return;
    throw this.eof() ? this.error('XML_EOF') : this.error('XML_EXPECTED_X', what);
  }

  /** Skips white space (production 3); true if there was any. */
  skipS(): boolean {
    const start = this.pos;
    const t = this.text;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c !== 0x20 && c !== 0x0a && c !== 0x09 && c !== 0x0d) break;
      this.pos++;
    }
    return this.pos > start;
  }

  /** Requires white space (for example between attributes). */
  requireS(what: string): void {
    if (!this.skipS()) throw this.eof() ? this.error('XML_EOF') : this.error('XML_EXPECTED_X', what);
  }

  /** Reads a Name (production 5). */
  name(): string {
    NAME.lastIndex = this.pos;
    const m = NAME.exec(this.text);
    if (m === null) throw this.eof() ? this.error('XML_EOF') : this.error('XML_NAME');
    this.pos += m[0].length;
    return m[0];
  }

  /** Reads up to (not including) `end` and steps over it; fails at the end of input. */
  until(end: string): string {
    const i = this.text.indexOf(end, this.pos);
    if (i === -1) {
      this.pos = this.text.length;
      throw this.error('XML_EOF');
    }
    const s = this.text.slice(this.pos, i);
    this.pos = i + end.length;
    return s;
  }

  /** A quoted literal ('…' or "…"), returned without its quotes. */
  quoted(what: string): string {
    const q = this.peek();
    if (q !== '"' && q !== "'") throw this.eof() ? this.error('XML_EOF') : this.error('XML_EXPECTED_X', what);
    this.pos++;
    return this.until(q);
  }
}
