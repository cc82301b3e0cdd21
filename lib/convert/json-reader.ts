/**
 * A JSON reader (RFC 8259) that keeps number literals as written: `JSON.parse` would turn
 * `1.0` into `1` and `1e400` into `Infinity`, and the conversion must copy numbers verbatim.
 * Parse functions are named after the grammar (value, object, array, string, number).
 *
 * `liberal` also accepts: comments (`//`, `/* *\/`), trailing commas, single-quoted strings,
 * unquoted keys, a leading `+`, leading zeros and `.5`/`5.` numbers, and control characters in
 * strings.
 */
import { raiseAt, lineColumn, type ConvertErrorKey } from './conversion-errors';
import type { XmldbError } from '../xmldb-error';

export type JsonValue =
  | { readonly type: 'object'; readonly members: readonly JsonMember[] }
  | { readonly type: 'array'; readonly items: readonly JsonValue[] }
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'number'; readonly text: string }
  | { readonly type: 'boolean'; readonly value: boolean }
  | { readonly type: 'null' };

export type JsonMember = readonly [key: string, value: JsonValue];

/** What to do with a key that occurs twice in one object. */
export type Duplicates = 'retain' | 'use-first' | 'use-last' | 'reject';

export interface JsonReadOptions {
  readonly liberal?: boolean;
  readonly duplicates?: Duplicates;
  /** Resource name for messages. */
  readonly name?: string;
}

/** Nesting limit: deeper input is refused rather than risking the call stack. */
export const JSON_MAX_DEPTH = 1000;

const STRICT_NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const LIBERAL_NUMBER = /[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/y;
const IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$-]*/y;
const ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

export function readJson(text: string, options: JsonReadOptions = {}): JsonValue {
  return new JsonReader(text, options).document();
}

class JsonReader {
  private pos = 0;
  private depth = 0;

  constructor(
    private readonly text: string,
    private readonly options: JsonReadOptions,
  ) {}

  document(): JsonValue {
    this.space();
    const v = this.value();
    this.space();
    if (this.pos < this.text.length) throw this.unexpected();
    return v;
  }

  private error(key: ConvertErrorKey, ...args: unknown[]): XmldbError {
    return raiseAt({ name: this.options.name, ...lineColumn(this.text, this.pos) }, key, ...args);
  }

  private unexpected(): XmldbError {
    if (this.pos >= this.text.length) return this.error('JSON_EOF');
    const c = this.text.codePointAt(this.pos)!;
    return this.error('JSON_UNEXPECTED_X', c < 0x20 ? `character 0x${c.toString(16)}` : `'${String.fromCodePoint(c)}'`);
  }

  /** White space, and comments when liberal. */
  private space(): void {
    const t = this.text;
    for (;;) {
      const c = t.charCodeAt(this.pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.pos++;
      else if (this.options.liberal && c === 0x2f && t[this.pos + 1] === '/') {
        const end = t.indexOf('\n', this.pos);
        this.pos = end === -1 ? t.length : end + 1;
      } else if (this.options.liberal && c === 0x2f && t[this.pos + 1] === '*') {
        const end = t.indexOf('*/', this.pos + 2);
        if (end === -1) {
          this.pos = t.length;
          throw this.error('JSON_EOF');
        }
        this.pos = end + 2;
      } else return;
    }
  }

  private value(): JsonValue {
    const c = this.text[this.pos];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"' || (c === "'" && this.options.liberal)) return { type: 'string', value: this.string() };
    if (this.eat('true')) return { type: 'boolean', value: true };
    if (this.eat('false')) return { type: 'boolean', value: false };
    if (this.eat('null')) return { type: 'null' };
    return this.number();
  }

  private eat(word: string): boolean {
    if (!this.text.startsWith(word, this.pos)) return false;
    this.pos += word.length;
    return true;
  }

  private enter(): void {
    if (++this.depth > JSON_MAX_DEPTH) throw this.error('JSON_DEPTH_X', JSON_MAX_DEPTH);
  }

  private object(): JsonValue {
    this.enter();
    this.pos++;
    const members: JsonMember[] = [];
    const index = new Map<string, number>();
    this.space();
    if (this.text[this.pos] !== '}') {
      for (;;) {
        const keyStart = this.pos;
        const key = this.key();
        this.space();
        if (this.text[this.pos] !== ':') throw this.unexpected();
        this.pos++;
        this.space();
        const v = this.value();
        this.member(members, index, key, v, keyStart);
        this.space();
        if (this.text[this.pos] === ',') {
          this.pos++;
          this.space();
          if (this.options.liberal && this.text[this.pos] === '}') break;
        } else if (this.text[this.pos] === '}') break;
        else throw this.unexpected();
      }
    }
    this.pos++;
    this.depth--;
    return { type: 'object', members };
  }

  private member(members: JsonMember[], index: Map<string, number>, key: string, v: JsonValue, keyStart: number): void {
    const at = index.get(key);
    if (at === undefined) {
      index.set(key, members.length);
      members.push([key, v]);
      return;
    }
    switch (this.options.duplicates ?? 'retain') {
      case 'retain':
        members.push([key, v]);
        return;
      case 'use-first':
        return;
      case 'use-last':
        members[at] = [key, v];
        return;
      case 'reject':
        this.pos = keyStart;
        throw this.error('JSON_DUPLICATE_X', key);
    }
  }

  private key(): string {
    const c = this.text[this.pos];
    if (c === '"' || (c === "'" && this.options.liberal)) return this.string();
    if (this.options.liberal) {
      IDENTIFIER.lastIndex = this.pos;
      const m = IDENTIFIER.exec(this.text);
      if (m !== null) {
        this.pos += m[0].length;
        return m[0];
      }
    }
    throw this.unexpected();
  }

  private array(): JsonValue {
    this.enter();
    this.pos++;
    const items: JsonValue[] = [];
    this.space();
    if (this.text[this.pos] !== ']') {
      for (;;) {
        items.push(this.value());
        this.space();
        if (this.text[this.pos] === ',') {
          this.pos++;
          this.space();
          if (this.options.liberal && this.text[this.pos] === ']') break;
        } else if (this.text[this.pos] === ']') break;
        else throw this.unexpected();
      }
    }
    this.pos++;
    this.depth--;
    return { type: 'array', items };
  }

  /** A string literal; the cursor stands at its opening quote. */
  private string(): string {
    const t = this.text;
    const quote = t[this.pos++];
    let out = '';
    let run = this.pos;
    for (;;) {
      if (this.pos >= t.length) throw this.error('JSON_EOF');
      const c = t.charCodeAt(this.pos);
      if (t[this.pos] === quote) {
        out += t.slice(run, this.pos);
        this.pos++;
        return out;
      }
      if (c === 0x5c) {
        out += t.slice(run, this.pos);
        out += this.escape();
        run = this.pos;
      } else if (c < 0x20 && !this.options.liberal) {
        throw this.error('JSON_CONTROL_X', c.toString(16).toUpperCase());
      } else this.pos++;
    }
  }

  /** An escape sequence; the cursor stands at its backslash. */
  private escape(): string {
    const t = this.text;
    const e = t[this.pos + 1];
    if (e === 'u') {
      const hex = t.slice(this.pos + 2, this.pos + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw this.error('JSON_ESCAPE_X', t.slice(this.pos, this.pos + 6));
      this.pos += 6;
      return String.fromCharCode(parseInt(hex, 16));
    }
    const s = e === undefined ? undefined : (ESCAPES[e] ?? (this.options.liberal && e === "'" ? "'" : undefined));
    if (s === undefined) {
      if (e === undefined) throw this.error('JSON_EOF');
      throw this.error('JSON_ESCAPE_X', '\\' + e);
    }
    this.pos += 2;
    return s;
  }

  private number(): JsonValue {
    const re = this.options.liberal ? LIBERAL_NUMBER : STRICT_NUMBER;
    re.lastIndex = this.pos;
    const m = re.exec(this.text);
    if (m === null) throw this.unexpected();
    const end = this.pos + m[0].length;
    // "01", "1.", "1e": the literal continues with characters the grammar does not allow.
    const next = this.text[end];
    if (next !== undefined && /[0-9.eE+\-a-zA-Z_]/.test(next)) {
      let stop = end;
      while (stop < this.text.length && /[0-9.eE+\-a-zA-Z_]/.test(this.text[stop])) stop++;
      throw this.error('JSON_NUMBER_X', this.text.slice(this.pos, stop));
    }
    this.pos = end;
    return { type: 'number', text: m[0] };
  }
}
