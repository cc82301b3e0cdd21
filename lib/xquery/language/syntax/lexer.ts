/**
 * Character-level scanning. The parser drives the lexer: in the default mode it asks for one
 * token at a time (`scanToken`), and for direct constructors, attribute values, string
 * constructors and pragmas it scans characters itself with the helpers below. There is no
 * tokenizing prepass. The lexer never throws: problems come back as an 'invalid' token, which
 * the parser reports only if it actually needs that token.
 */
import type { EQName } from './ast';
import { isNameCode as isNameChar, isNameStartCode as isNameStartChar } from '../../../convert/names';
import type { SyntaxErrorCode } from './syntax-errors';
import { bracedUriLiteralProblem, normalizeUriLiteral } from './uri-literals';

export type TokenType =
  | 'name'
  | 'wildcard'
  | 'integer'
  | 'decimal'
  | 'double'
  | 'string'
  | 'symbol'
  | 'eof'
  | 'invalid';

export interface LexError {
  code: SyntaxErrorCode;
  message: string;
  offset: number;
}

export interface Token {
  type: TokenType;
  /** Symbol text, numeric text, decoded string value, or the name as written. */
  value: string;
  start: number;
  end: number;
  /** For 'name' and 'wildcard' (the parts that are not `*`). */
  name?: EQName;
  error?: LexError;
}

// ------------------------------------------------------------------ character classes

/**
 * Name characters (XML 1.0 fifth edition NameStartChar/NameChar without ':', astral planes
 * included) by code point: the one definition in convert/names.ts.
 */
export { isNameStartCode as isNameStartChar, isNameCode as isNameChar } from '../../../convert/names';

export function isXmlChar(c: number): boolean {
  return (
    c === 0x9 ||
    c === 0xa ||
    c === 0xd ||
    (c >= 0x20 && c <= 0xd7ff) ||
    (c >= 0xe000 && c <= 0xfffd) ||
    (c >= 0x10000 && c <= 0x10ffff)
  );
}

export function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x9 || c === 0xa || c === 0xd;
}

export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** The code point at `pos` (NaN at the end). */
export function codeAt(src: string, pos: number): number {
  const c = src.codePointAt(pos);
  return c === undefined ? NaN : c;
}

function charLen(c: number): number {
  return c > 0xffff ? 2 : 1;
}

/** End offset of an NCName starting at `pos`, or `pos` if there is none. */
export function scanNCName(src: string, pos: number): number {
  let c = codeAt(src, pos);
  if (!isNameStartChar(c)) return pos;
  let i = pos + charLen(c);
  while (i < src.length && isNameChar((c = codeAt(src, i)))) i += charLen(c);
  return i;
}

/** Line-end normalization of literal text: CR LF and lone CR become LF. */
export function normalizeEol(s: string): string {
  return s.indexOf('\r') < 0 ? s : s.replace(/\r\n?/g, '\n');
}

// ------------------------------------------------------------------ trivia

/** Skips whitespace and (nested) comments; an unterminated comment is an error. */
export function skipTrivia(src: string, pos: number): number | LexError {
  let i = pos;
  for (;;) {
    const c = src.charCodeAt(i);
    if (isWhitespace(c)) {
      i++;
    } else if (c === 0x28 /* ( */ && src.charCodeAt(i + 1) === 0x3a /* : */) {
      const start = i;
      let depth = 0;
      do {
        if (i >= src.length) return { code: 'XPST0003', message: 'Unterminated comment', offset: start };
        if (src.startsWith('(:', i)) {
          depth++;
          i += 2;
        } else if (src.startsWith(':)', i)) {
          depth--;
          i += 2;
        } else {
          i++;
        }
      } while (depth > 0);
    } else {
      return i;
    }
  }
}

// ------------------------------------------------------------------ references

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/**
 * Reads a PredefinedEntityRef or CharRef at `pos` (which holds `&`). Returns the character(s)
 * and the end offset.
 */
export function scanReference(src: string, pos: number): { value: string; end: number } | LexError {
  const semi = src.indexOf(';', pos);
  const body = semi < 0 ? '' : src.slice(pos + 1, semi);
  if (semi > 0 && Object.prototype.hasOwnProperty.call(ENTITIES, body)) {
    return { value: ENTITIES[body], end: semi + 1 };
  }
  const m = /^#(?:([0-9]+)|x([0-9a-fA-F]+))$/.exec(body);
  if (m) {
    const cp = m[1] !== undefined ? parseInt(m[1], 10) : parseInt(m[2], 16);
    if (!isXmlChar(cp) || body.length > 12) {
      return { code: 'XQST0090', message: `Character reference "&${body};" is not an XML character`, offset: pos };
    }
    return { value: String.fromCodePoint(cp), end: semi + 1 };
  }
  return { code: 'XPST0003', message: 'Invalid entity or character reference', offset: pos };
}

export function isLexError(x: unknown): x is LexError {
  return typeof x === 'object' && x !== null && 'code' in x && 'message' in x;
}

// ------------------------------------------------------------------ default-mode tokens

const SYMBOLS3 = ['``['];
const SYMBOLS2 = ['(#', ':=', '::', '!=', '<=', '>=', '<<', '>>', '//', '..', '||', '=>'];
const SYMBOLS1 = '{}()[],;.@$?*+-/|!=<>#%:`';

/** The symbols of two and three characters by the code of their first character, longest first. */
const LONGER_SYMBOLS = new Map<number, string[]>();
for (const symbol of [...SYMBOLS3, ...SYMBOLS2]) {
  const first = symbol.charCodeAt(0);
  LONGER_SYMBOLS.set(first, [...(LONGER_SYMBOLS.get(first) ?? []), symbol]);
}
/** The one-character symbols by their code. */
const SYMBOLS_BY_CODE = new Map<number, string>(Array.from(SYMBOLS1, (symbol) => [symbol.charCodeAt(0), symbol]));

function invalid(start: number, e: LexError): Token {
  return { type: 'invalid', value: '', start, end: start, error: e };
}

/** Scans one default-mode token at `pos` (trivia already skipped). */
export function scanToken(src: string, pos: number): Token {
  if (pos >= src.length) return { type: 'eof', value: '', start: pos, end: pos };
  const c = src.charCodeAt(pos);

  if (isDigit(c) || (c === 0x2e && isDigit(src.charCodeAt(pos + 1)))) return scanNumber(src, pos);
  if (c === 0x22 || c === 0x27) return scanStringLiteral(src, pos);

  // Q{uri}local and Q{uri}*
  if (c === 0x51 /* Q */ && src.charCodeAt(pos + 1) === 0x7b /* { */) return scanURIQualified(src, pos);

  const nameEnd = scanNCName(src, pos);
  if (nameEnd > pos) {
    const first = src.slice(pos, nameEnd);
    if (src.charCodeAt(nameEnd) === 0x3a /* : */) {
      if (src.charCodeAt(nameEnd + 1) === 0x2a /* * */) {
        return { type: 'wildcard', value: `${first}:*`, start: pos, end: nameEnd + 2, name: { prefix: first, local: '*' } };
      }
      const localEnd = scanNCName(src, nameEnd + 1);
      if (localEnd > nameEnd + 1) {
        const local = src.slice(nameEnd + 1, localEnd);
        return { type: 'name', value: `${first}:${local}`, start: pos, end: localEnd, name: { prefix: first, local } };
      }
    }
    return { type: 'name', value: first, start: pos, end: nameEnd, name: { local: first } };
  }

  if (c === 0x2a /* * */ && src.charCodeAt(pos + 1) === 0x3a) {
    const localEnd = scanNCName(src, pos + 2);
    if (localEnd > pos + 2) {
      const local = src.slice(pos + 2, localEnd);
      return { type: 'wildcard', value: `*:${local}`, start: pos, end: localEnd, name: { prefix: '*', local } };
    }
  }

  // a table by the first character rather than a test of every symbol (every never-seen query is scanned)
  const longer = LONGER_SYMBOLS.get(c);
  if (longer !== undefined) for (const s of longer) if (src.startsWith(s, pos)) return { type: 'symbol', value: s, start: pos, end: pos + s.length };
  const one = SYMBOLS_BY_CODE.get(c);
  if (one !== undefined) return { type: 'symbol', value: one, start: pos, end: pos + 1 };

  const cp = codeAt(src, pos);
  return invalid(pos, {
    code: 'XPST0003',
    message: `Unexpected character "${String.fromCodePoint(cp)}"`,
    offset: pos,
  });
}

function scanDigits(src: string, i: number): number {
  while (isDigit(src.charCodeAt(i))) i++;
  return i;
}

function scanNumber(src: string, pos: number): Token {
  let i = scanDigits(src, pos);
  let type: TokenType = 'integer';
  if (src.charCodeAt(i) === 0x2e && src.charCodeAt(i + 1) !== 0x2e) {
    type = 'decimal';
    i = scanDigits(src, i + 1);
  }
  const e = src.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    let j = i + 1;
    const sign = src.charCodeAt(j);
    if (sign === 0x2b || sign === 0x2d) j++;
    if (isDigit(src.charCodeAt(j))) {
      type = 'double';
      i = scanDigits(src, j);
    }
  }
  if (isNameStartChar(codeAt(src, i))) {
    return invalid(pos, {
      code: 'XPST0003',
      message: 'A numeric literal must not be followed directly by a name character',
      offset: i,
    });
  }
  return { type, value: src.slice(pos, i), start: pos, end: i };
}

/** StringLiteral: doubled delimiters escape themselves; references are resolved. */
export function scanStringLiteral(src: string, pos: number): Token {
  const q = src[pos];
  let i = pos + 1;
  let out = '';
  let run = i;
  for (;;) {
    if (i >= src.length) return invalid(pos, { code: 'XPST0003', message: 'Unterminated string literal', offset: pos });
    const ch = src[i];
    if (ch === q) {
      out += normalizeEol(src.slice(run, i));
      if (src[i + 1] === q) {
        out += q;
        i += 2;
        run = i;
        continue;
      }
      return { type: 'string', value: out, start: pos, end: i + 1 };
    }
    if (ch === '&') {
      out += normalizeEol(src.slice(run, i));
      const r = scanReference(src, i);
      if (isLexError(r)) return invalid(pos, r);
      out += r.value;
      i = r.end;
      run = i;
      continue;
    }
    i++;
  }
}

function scanURIQualified(src: string, pos: number): Token {
  let i = pos + 2;
  let uri = '';
  let run = i;
  for (;;) {
    if (i >= src.length) return invalid(pos, { code: 'XPST0003', message: 'Unterminated braced URI literal', offset: pos });
    const ch = src[i];
    if (ch === '}') break;
    if (ch === '{') return invalid(pos, { code: 'XPST0003', message: 'Unexpected "{" in braced URI literal', offset: i });
    if (ch === '&') {
      uri += src.slice(run, i);
      const r = scanReference(src, i);
      if (isLexError(r)) return invalid(pos, r);
      uri += r.value;
      i = r.end;
      run = i;
      continue;
    }
    i++;
  }
  uri += src.slice(run, i);
  uri = normalizeUriLiteral(uri);
  const problem = bracedUriLiteralProblem(uri);
  if (problem) return invalid(pos, { code: 'XQST0046', message: problem, offset: pos });
  i++;
  if (src[i] === '*') return { type: 'wildcard', value: src.slice(pos, i + 1), start: pos, end: i + 1, name: { uri, local: '*' } };
  const end = scanNCName(src, i);
  if (end === i) return invalid(pos, { code: 'XPST0003', message: 'Expected a local name after braced URI literal', offset: i });
  return { type: 'name', value: src.slice(pos, end), start: pos, end, name: { uri, local: src.slice(i, end) } };
}
