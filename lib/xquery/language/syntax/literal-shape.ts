/**
 * A query's literal shape: its text with each string and numeric literal replaced by a mark of the
 * literal's kind, length and delimiter, and the literals themselves. Queries with one shape differ
 * only in the values of literals of the same kinds at the same offsets (engine/literal-variants.ts).
 *
 * A scan, not a parse: normal code is read token by token with the parser's own lexer (so a
 * literal's value is the one the parser gives it: references resolved, line ends normalized),
 * direct constructors by their tags, attribute values and content, whose enclosed expressions are
 * normal code again. The scan answers undefined wherever it is not sure (a pragma, a string
 * constructor, an invalid token, text it cannot close, deep nesting). It need not be right about
 * every query: its literals are checked against the parser's before a shape is used
 * (`scannedAll`), so a scan that missed a literal only keeps that query's shape from being used. Two texts with one shape agree outside the literals, and within them on
 * kind, length and delimiter, so a lexer that found literals at those places in one finds them in
 * the other.
 */
import type { Literal, Node } from './ast';
import { isLiteral } from './kinds';
import { isLexError, scanNCName, scanToken, skipTrivia } from './lexer';
import { childNodes } from './walk';

export type LiteralKind = Literal['kind'];

export interface ScannedLiteral {
  readonly start: number;
  /** Offset after the literal's last character. */
  readonly end: number;
  readonly kind: LiteralKind;
  /** As the parser gives it (ast-primary.ts). */
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

/** Symbols after which a `<` compares: they end an operand. */
const OPERAND_ENDS = new Set([')', ']', '}', '.', '..', '?', '*']);

/** The lexer's literal tokens, by the kinds of literal the parser makes of them. */
const LITERAL_KINDS: Readonly<Record<string, LiteralKind>> = { string: 'StringLiteral', integer: 'IntegerLiteral', decimal: 'DecimalLiteral', double: 'DoubleLiteral' };

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

/**
 * Whether the scan found every literal of the parsed query `parsed` (its module), at its offsets,
 * of its kind, with its value. The scan may find more: strings the parser keeps in no literal node
 * (the version of `xquery version "3.1"`, a namespace URI), which never differ between queries of
 * a shape that share a translation (only literals made parameters do: engine/literal-variants.ts).
 */
export function scannedAll(scanned: readonly ScannedLiteral[], parsed: Node): boolean {
  const byStart = new Map(scanned.map((s) => [s.start, s]));
  const found = (node: Node): boolean => {
    if (!isLiteral(node)) return childNodes(node).every(found);
    const s = byStart.get(node.start);
    return s !== undefined && s.end === node.end && s.kind === node.kind && s.value === node.value;
  };
  return found(parsed);
}

class Scanner {
  private i = 0;
  private readonly literals: ScannedLiteral[] = [];
  /** Whether the last token of normal code ended an operand (a `<` after it compares). */
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
      // a literal over line ends as it is: the lines of what follows it are part of the shape
      // (a translation writes the query's line numbers in: translate/conditional.ts `errorPosition`)
      const text = this.text.slice(l.start, l.end);
      const mark = /[\n\r]/.test(text) ? text : `${l.kind}:${l.end - l.start}:${delimiter}`;
      key += `${this.text.slice(at, l.start)}\u0000${mark}\u0000`;
      at = l.end;
    }
    return { key: key + this.text.slice(at), literals: this.literals };
  }

  /** Normal code up to the end, or (`enclosed`) up to and past the `}` closing it. */
  code(enclosed: boolean): void {
    const t = this.text;
    let braces = 0;
    for (;;) {
      const at = skipTrivia(t, this.i);
      if (isLexError(at)) throw new Unsure();
      this.i = at;
      if (at >= t.length) break;
      if (t[at] === '<' && !this.operand && (scanNCName(t, at + 1) > at + 1 || t[at + 1] === '!' || t[at + 1] === '?')) {
        this.directConstructor();
        continue;
      }
      const token = scanToken(t, at);
      this.i = token.end;
      const kind = LITERAL_KINDS[token.type];
      if (kind !== undefined) {
        this.literals.push({ start: token.start, end: token.end, kind, value: token.value });
        this.operand = true;
      } else if (token.type === 'name') {
        this.operand = !OPERATOR_WORDS.has(token.value);
      } else if (token.type === 'symbol') {
        if (token.value === '(#' || token.value === '``[' || token.value === '`') throw new Unsure();
        if (token.value === '{') braces++;
        else if (token.value === '}') {
          if (braces === 0) {
            if (enclosed) return;
            throw new Unsure();
          }
          braces--;
        }
        this.operand = OPERAND_ENDS.has(token.value);
      } else if (token.type === 'invalid' || token.type === 'eof') {
        // an invalid token is the parser's to report
        throw new Unsure();
      } else {
        this.operand = true;
      }
    }
    if (enclosed) throw new Unsure();
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
        break;
      }
      if (t[this.i] === '>') {
        this.i++;
        this.content();
        break;
      }
      this.tagName();
      this.spaces();
      if (t[this.i] !== '=') throw new Unsure();
      this.i++;
      this.spaces();
      this.attributeValue();
    }
    this.operand = true;
    this.depth--;
  }

  /** A tag or attribute name: NCNames and colons (the parser checks that it is a QName). */
  private tagName(): void {
    const start = this.i;
    for (;;) {
      const end = scanNCName(this.text, this.i);
      if (end > this.i) this.i = end;
      else if (this.text[this.i] === ':') this.i++;
      else break;
    }
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
