/**
 * A query's literal shape: its text with each string and numeric literal replaced by a mark of the
 * literal's kind and length, and the literals themselves. Queries with one shape differ only in
 * the values of literals of the same kinds at the same offsets (engine/literal-variants.ts).
 *
 * A scan, not a parse: it finds the literals of normal code and of the enclosed expressions of
 * direct constructors, skips comments, EQNames' braced URIs and constructor text, and answers
 * undefined wherever it is not sure (a pragma, a string constructor, a reference in a string
 * literal, text it cannot close). It need not be right about every query: its literals are
 * checked against the parser's before a shape is used (`sameLiterals`), so a scan that missed a
 * literal or took text for one only keeps that query's shape from being used. Two texts with one
 * shape agree outside the literals, and within them on kind, length and delimiter, so a lexer
 * that found literals at those places in one finds them in the other.
 */
import type { Literal } from './ast-primary';

export type LiteralKind = Literal['kind'];

export interface ScannedLiteral {
  readonly start: number;
  /** Offset after the literal's last character. */
  readonly end: number;
  readonly kind: LiteralKind;
  /** As the parser gives it (ast-primary.ts): a number as written, a string without its delimiters and with doubled ones single. */
  readonly value: string;
}

export interface LiteralShape {
  readonly key: string;
  readonly literals: readonly ScannedLiteral[];
}

/** Longest text scanned (a longer query is rarely sent twice with other literals, and each scan reads it all). */
const MAX_LENGTH = 64 * 1024;

/**
 * Deepest nesting of constructors and enclosed expressions scanned: the scan recurses per level,
 * and a query nested deeper than the parser allows (syntax/nesting.ts) must reach the parser's
 * static error, not this thread's stack limit.
 */
const MAX_DEPTH = 64;

/** Names after which a `<` starts a direct constructor rather than comparing. */
const OPERATOR_WORDS = new Set(['return', 'then', 'else', 'satisfies', 'in', 'to', 'and', 'or', 'div', 'idiv', 'mod', 'union', 'intersect', 'except', 'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'is']);

const NUMBER = /(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/y;

/** Thrown inside the scan where it gives up. */
class Unsure extends Error {}

/** The literal shape of `text`, or undefined where the scan is not sure of it. */
export function literalShape(text: string): LiteralShape | undefined {
  if (text.length > MAX_LENGTH) return undefined;
  try {
    const scanner = new Scanner(text);
    scanner.code(false);
    return scanner.shape();
  } catch (e) {
    if (e instanceof Unsure) return undefined;
    throw e;
  }
}

/** Whether `scanned` are exactly the literals of a parsed query, with the parser's values. */
export function sameLiterals(scanned: readonly ScannedLiteral[], parsed: readonly Literal[]): boolean {
  if (scanned.length !== parsed.length) return false;
  const sorted = [...parsed].sort((a, b) => a.start - b.start);
  return sorted.every((p, i) => {
    const s = scanned[i];
    return s.start === p.start && s.end === p.end && s.kind === p.kind && s.value === p.value;
  });
}

function isNameStart(c: string): boolean {
  return /[A-Za-z_\u00C0-\uFFFF]/.test(c);
}

function isNameChar(c: string): boolean {
  return /[A-Za-z0-9_.\-\u00B7-\uFFFF]/.test(c);
}

class Scanner {
  private i = 0;
  private readonly literals: ScannedLiteral[] = [];
  /** Whether the last token of normal code was an operand (a `<` after it compares). */
  private operand = false;
  /** Constructors and enclosed expressions open around the scan. */
  private depth = 0;

  constructor(private readonly text: string) {}

  shape(): LiteralShape {
    let key = '';
    let at = 0;
    for (const l of this.literals) {
      // a string's delimiter too: which quote is doubled inside depends on it
      const delimiter = l.kind === 'StringLiteral' ? this.text[l.start] : '';
      key += `${this.text.slice(at, l.start)}\u0000${l.kind}:${l.end - l.start}:${delimiter}\u0000`;
      at = l.end;
    }
    return { key: key + this.text.slice(at), literals: this.literals };
  }

  /** Normal code up to the end, or (`enclosed`) up to and past the `}` closing it. */
  code(enclosed: boolean): void {
    const t = this.text;
    let depth = 0;
    while (this.i < t.length) {
      const c = t[this.i];
      const next = t[this.i + 1] ?? '';
      if (c === '(' && next === ':') this.comment();
      else if (c === '(' && next === '#') throw new Unsure();
      else if (c === '`') throw new Unsure();
      else if (c === '"' || c === "'") this.string(c);
      else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(next))) this.number();
      else if (c === 'Q' && next === '{') this.eqname();
      else if (isNameStart(c) || c === '$') this.name();
      else if (c === '<' && !this.operand && (isNameStart(next) || next === '!' || next === '?')) this.directConstructor();
      else {
        this.i++;
        if (/\s/.test(c)) continue;
        if (c === '{') depth++;
        else if (c === '}') {
          if (depth === 0) {
            if (enclosed) return;
            throw new Unsure();
          }
          depth--;
        }
        this.operand = c === ')' || c === ']' || c === '}' || c === '.' || c === '?' || c === '*';
      }
    }
    if (enclosed) throw new Unsure();
  }

  private comment(): void {
    const t = this.text;
    let depth = 0;
    while (this.i < t.length) {
      if (t.startsWith('(:', this.i)) {
        depth++;
        this.i += 2;
      } else if (t.startsWith(':)', this.i)) {
        depth--;
        this.i += 2;
        if (depth === 0) return;
      } else this.i++;
    }
    throw new Unsure();
  }

  private string(quote: string): void {
    const t = this.text;
    const start = this.i;
    let value = '';
    this.i++;
    for (;;) {
      const end = t.indexOf(quote, this.i);
      if (end < 0) throw new Unsure();
      value += t.slice(this.i, end);
      if (t[end + 1] === quote) {
        value += quote;
        this.i = end + 2;
        continue;
      }
      this.i = end + 1;
      break;
    }
    // a reference (`&amp;`) is resolved by the parser: not worth modelling here
    if (value.includes('&')) throw new Unsure();
    this.literals.push({ start, end: this.i, kind: 'StringLiteral', value });
    this.operand = true;
  }

  private number(): void {
    const t = this.text;
    NUMBER.lastIndex = this.i;
    const m = NUMBER.exec(t);
    if (!m) throw new Unsure();
    const lexical = m[0];
    const end = this.i + lexical.length;
    // `1e`, `1.2.3`, `12abc`: not a literal alone
    if (end < t.length && (isNameChar(t[end]) || t[end] === '.')) throw new Unsure();
    const kind: LiteralKind = /[eE]/.test(lexical) ? 'DoubleLiteral' : lexical.includes('.') ? 'DecimalLiteral' : 'IntegerLiteral';
    this.literals.push({ start: this.i, end, kind, value: lexical });
    this.i = end;
    this.operand = true;
  }

  private eqname(): void {
    const close = this.text.indexOf('}', this.i);
    if (close < 0) throw new Unsure();
    this.i = close + 1;
    while (this.i < this.text.length && isNameChar(this.text[this.i])) this.i++;
    this.operand = true;
  }

  /** A name, a prefixed name or a variable reference, digits and dashes in it included. */
  private name(): void {
    const t = this.text;
    const start = this.i;
    if (t[this.i] === '$') this.i++;
    while (this.i < t.length && (isNameChar(t[this.i]) || (t[this.i] === ':' && isNameStart(t[this.i + 1] ?? '')))) this.i++;
    const word = t.slice(start, this.i);
    this.operand = !OPERATOR_WORDS.has(word);
  }

  /** A direct constructor from its `<`: tags, attribute values and content, enclosed expressions as code. */
  private directConstructor(): void {
    const t = this.text;
    if (t.startsWith('<!--', this.i)) return this.skipPast('-->');
    if (t.startsWith('<?', this.i)) return this.skipPast('?>');
    if (++this.depth > MAX_DEPTH) throw new Unsure();
    this.i++;
    this.tagName();
    for (;;) {
      this.spaces();
      if (t.startsWith('/>', this.i)) {
        this.i += 2;
        this.operand = true;
        this.depth--;
        return;
      }
      if (t[this.i] === '>') {
        this.i++;
        break;
      }
      this.tagName();
      this.spaces();
      if (t[this.i] !== '=') throw new Unsure();
      this.i++;
      this.spaces();
      this.attributeValue();
    }
    this.content();
    this.operand = true;
    this.depth--;
  }

  private tagName(): void {
    const start = this.i;
    while (this.i < this.text.length && (isNameChar(this.text[this.i]) || this.text[this.i] === ':')) this.i++;
    if (this.i === start) throw new Unsure();
  }

  private spaces(): void {
    while (this.i < this.text.length && /\s/.test(this.text[this.i])) this.i++;
  }

  private attributeValue(): void {
    const t = this.text;
    const quote = t[this.i];
    if (quote !== '"' && quote !== "'") throw new Unsure();
    this.i++;
    while (this.i < t.length) {
      const c = t[this.i];
      if (c === quote) {
        if (t[this.i + 1] === quote) this.i += 2;
        else {
          this.i++;
          return;
        }
      } else if (c === '{' || c === '}') this.braces(c);
      else this.i++;
    }
    throw new Unsure();
  }

  /** Element content up to and past the end tag. */
  private content(): void {
    const t = this.text;
    while (this.i < t.length) {
      const c = t[this.i];
      if (c === '<') {
        if (t.startsWith('</', this.i)) return this.skipPast('>');
        if (t.startsWith('<![CDATA[', this.i)) this.skipPast(']]>');
        else this.directConstructor();
      } else if (c === '{' || c === '}') this.braces(c);
      else this.i++;
    }
    throw new Unsure();
  }

  /** `{{` and `}}` in constructor text; `{` an enclosed expression. */
  private braces(c: string): void {
    if (this.text[this.i + 1] === c) {
      this.i += 2;
      return;
    }
    if (c === '}') throw new Unsure();
    if (++this.depth > MAX_DEPTH) throw new Unsure();
    this.i++;
    this.operand = false;
    this.code(true);
    this.depth--;
  }

  private skipPast(end: string): void {
    const at = this.text.indexOf(end, this.i);
    if (at < 0) throw new Unsure();
    this.i = at + end.length;
    this.operand = true;
  }
}
