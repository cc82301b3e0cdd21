/**
 * The parser's cursor: lazy default-mode tokens with lookahead, `eat`/`expect` helpers and
 * positioned errors. Grammar functions live in the per-family files and take a Parser.
 */
import type { EQName } from './ast';
import { XQuerySyntaxError, type SyntaxErrorCode } from './syntax-errors';
import { isLexError, scanToken, skipTrivia, type Token } from './lexer';
import { MAX_NESTING, NESTED_TOO_DEEPLY } from './nesting';
import { normalizeUriLiteral, uriLiteralProblem } from './uri-literals';

/** Unprefixed names that cannot name a function call (XQuery 3.1 A.3). */
export const RESERVED_FUNCTION_NAMES = new Set([
  'array',
  'attribute',
  'comment',
  'document-node',
  'element',
  'empty-sequence',
  'function',
  'if',
  'item',
  'map',
  'namespace-node',
  'node',
  'processing-instruction',
  'schema-attribute',
  'schema-element',
  'switch',
  'text',
  'typeswitch',
]);

export class Parser {
  readonly src: string;
  /** Offset after the last consumed token or raw-scanned text. */
  pos = 0;
  /** Tokens scanned ahead of `pos` (default mode only). */
  private ahead: Token[] = [];
  /** Expressions open at once (nesting.ts). */
  private depth = 0;

  constructor(src: string) {
    this.src = src;
    if (src.charCodeAt(0) === 0xfeff) this.pos = 1; // byte order mark
  }

  // ---------------------------------------------------------------- cursor

  /** The k-th token after `pos`, scanned in the default mode. Never throws. */
  peek(k = 0): Token {
    while (this.ahead.length <= k) {
      const from = this.ahead.length ? this.ahead[this.ahead.length - 1] : null;
      if (from && (from.type === 'eof' || from.type === 'invalid')) {
        this.ahead.push(from);
        continue;
      }
      const start = skipTrivia(this.src, from ? from.end : this.pos);
      if (isLexError(start)) {
        this.ahead.push({ type: 'invalid', value: '', start: start.offset, end: start.offset, error: start });
      } else {
        this.ahead.push(scanToken(this.src, start));
      }
    }
    return this.ahead[k];
  }

  /** Consumes the current token. */
  next(): Token {
    const t = this.peek();
    if (t.type === 'invalid' || t.type === 'eof') this.unexpected(t);
    this.ahead.shift();
    this.pos = t.end;
    return t;
  }

  /** Moves the cursor to a raw offset (after raw scanning), dropping the lookahead. */
  reset(pos: number): void {
    this.pos = pos;
    this.ahead = [];
  }

  /** Offset where the next token starts (after trivia). */
  nextStart(): number {
    return this.peek().start;
  }

  // ---------------------------------------------------------------- tests

  isSym(s: string, k = 0): boolean {
    const t = this.peek(k);
    return t.type === 'symbol' && t.value === s;
  }

  /** An unprefixed name equal to `w` (keywords are not reserved, so they are names). */
  isWord(w: string, k = 0): boolean {
    const t = this.peek(k);
    return t.type === 'name' && t.name!.prefix === undefined && t.name!.uri === undefined && t.name!.local === w;
  }

  isName(k = 0): boolean {
    return this.peek(k).type === 'name';
  }

  /** An unprefixed NCName. */
  isNCName(k = 0): boolean {
    const t = this.peek(k);
    return t.type === 'name' && t.name!.prefix === undefined && t.name!.uri === undefined;
  }

  eat(s: string): boolean {
    if (!this.isSym(s)) return false;
    this.next();
    return true;
  }

  eatWord(w: string): boolean {
    if (!this.isWord(w)) return false;
    this.next();
    return true;
  }

  expect(s: string): Token {
    if (!this.isSym(s)) this.unexpected(this.peek(), `"${s}"`);
    return this.next();
  }

  expectWord(w: string): Token {
    if (!this.isWord(w)) this.unexpected(this.peek(), `"${w}"`);
    return this.next();
  }

  /** One of several keywords; returns the one found. */
  expectOneOf<W extends string>(words: readonly W[]): W {
    for (const w of words) if (this.eatWord(w)) return w;
    return this.unexpected(this.peek(), words.map((w) => `"${w}"`).join(', '));
  }

  expectEQName(what = 'a name'): EQName {
    const t = this.peek();
    if (t.type !== 'name') this.unexpected(t, what);
    this.next();
    return t.name!;
  }

  expectNCName(what = 'an NCName'): string {
    if (!this.isNCName()) this.unexpected(this.peek(), what);
    return this.next().name!.local;
  }

  expectString(what = 'a string literal'): string {
    const t = this.peek();
    if (t.type !== 'string') this.unexpected(t, what);
    this.next();
    return t.value;
  }

  /** A URILiteral: a string literal, whitespace-normalized and checked (uri-literals.ts). */
  expectURILiteral(what = 'a URI literal'): string {
    const start = this.peek().start;
    const uri = normalizeUriLiteral(this.expectString(what));
    const problem = uriLiteralProblem(uri);
    if (problem) this.error(problem, start, 'XQST0046');
    return uri;
  }

  /** `$` VarName. */
  expectVarName(): EQName {
    this.expect('$');
    return this.expectEQName('a variable name');
  }

  /** Parses one nesting level deeper (nesting.ts): XPST0003 at `offset` past MAX_NESTING. */
  nested<T>(offset: number, parse: () => T): T {
    if (this.depth >= MAX_NESTING) this.error(NESTED_TOO_DEEPLY, offset);
    this.depth++;
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  // ---------------------------------------------------------------- errors

  error(message: string, offset: number, code: SyntaxErrorCode = 'XPST0003'): never {
    throw new XQuerySyntaxError(code, message, this.src, offset);
  }

  unexpected(t: Token = this.peek(), expected?: string): never {
    if (t.type === 'invalid') this.error(t.error!.message, t.error!.offset, t.error!.code);
    const text = this.src.slice(t.start, t.end);
    const what = t.type === 'eof' ? 'end of query' : `"${text.length > 30 ? `${text.slice(0, 30)}…` : text}"`;
    this.error(`Unexpected ${what}${expected ? `, expected ${expected}` : ''}`, t.start);
  }
}
