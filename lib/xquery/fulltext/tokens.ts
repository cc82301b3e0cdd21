/**
 * Tokenizing and folding text as BaseX's full-text lexer does (docs.basex.org, Full-Text:
 * "tokenization"): a token is a run of Unicode letters and digits (with their combining marks);
 * `.`, `!` and `?` end a sentence, a line end ends a paragraph (XQuery Full Text 1.0 §4.1 leaves
 * boundaries to the implementation). The full-text index reuses these functions, so what is
 * indexed and what is searched is tokenized by one rule.
 */
import type { FTMatchOptions } from './selection';

/**
 * The tokens of a searched text, by position (0-based, in tokens): each one's word, and its
 * sentence and paragraph, as parallel arrays (not an object per token). Sentences and paragraphs
 * are found when first asked for: only positional filters over them read them.
 */
export class TextTokens {
  private units?: { readonly sentences: readonly number[]; readonly paragraphs: readonly number[] };

  constructor(
    private readonly text: string,
    readonly words: readonly string[],
  ) {}

  get sentences(): readonly number[] {
    return (this.units ??= unitsOf(this.text)).sentences;
  }

  get paragraphs(): readonly number[] {
    return (this.units ??= unitsOf(this.text)).paragraphs;
  }
}

const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;

/**
 * A token is `[\p{L}\p{N}][\p{L}\p{N}\p{M}]*` over code points, as a regular expression with the
 * `u` flag reads it; the scan below finds the same tokens without one (the index tokenizes every
 * text of a database), classifying each code point once: ASCII directly, the rest of the Basic
 * Multilingual Plane through a table filled on first sight, other planes by the expression.
 */
const NONE = 0;
const BASE = 1;
const MARK = 2;
/** Per BMP code point: its class + 1, or 0 while unknown. */
const bmpClasses = new Uint8Array(0x10000);

function slowClass(cp: number): number {
  const c = String.fromCodePoint(cp);
  return /[\p{L}\p{N}]/u.test(c) ? BASE : /\p{M}/u.test(c) ? MARK : NONE;
}

/** The class of ASCII characters: letters and digits are BASE. */
const asciiClasses = Uint8Array.from({ length: 0x80 }, (_, c) => (/[0-9A-Za-z]/.test(String.fromCharCode(c)) ? BASE : NONE));

/** The class of the code point at `i` (a code unit `c`); its width is 2 when it is astral. */
function classAt(text: string, i: number, c: number): number {
  if (c < 0x80) return asciiClasses[c];
  if (c >= 0xd800 && c < 0xdc00) {
    const cp = text.codePointAt(i) as number;
    if (cp > 0xffff) return slowClass(cp);
  }
  let k = bmpClasses[c];
  if (k === 0) bmpClasses[c] = k = slowClass(c) + 1;
  return k - 1;
}

/** The width in code units of the code point at `i` (a code unit `c`). */
function widthAt(text: string, i: number, c: number): number {
  return c >= 0xd800 && c < 0xdc00 && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
}

/** The start of the first token at or after `i` (text.length when there is none). */
function tokenStart(text: string, i: number): number {
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 0x80 ? asciiClasses[c] === BASE : classAt(text, i, c) === BASE) return i;
    i += c < 0xd800 ? 1 : widthAt(text, i, c);
  }
  return n;
}

/** The end (exclusive) of the token starting at `start`. */
function tokenEnd(text: string, start: number): number {
  const n = text.length;
  const c = text.charCodeAt(start);
  let i = start + (c < 0xd800 ? 1 : widthAt(text, start, c));
  while (i < n) {
    const d = text.charCodeAt(i);
    if (d < 0x80) {
      if (asciiClasses[d] === NONE) break;
      i++;
    } else {
      if (classAt(text, i, d) === NONE) break;
      i += d < 0xd800 ? 1 : widthAt(text, i, d);
    }
  }
  return i;
}

/** Calls `each` with the start and end (exclusive, in code units) of every token of `text`, in order. */
export function scanTokens(text: string, each: (start: number, end: number) => void): void {
  for (let start = tokenStart(text, 0); start < text.length; ) {
    const end = tokenEnd(text, start);
    each(start, end);
    start = tokenStart(text, end);
  }
}

/** The tokens of `text`. */
export function tokenize(text: string): TextTokens {
  const words: string[] = [];
  for (let start = tokenStart(text, 0); start < text.length; ) {
    const end = tokenEnd(text, start);
    words.push(text.slice(start, end));
    start = tokenStart(text, end);
  }
  return new TextTokens(text, words);
}

/** The sentence and paragraph of each token of `text`. */
function unitsOf(text: string): { sentences: number[]; paragraphs: number[] } {
  const sentences: number[] = [];
  const paragraphs: number[] = [];
  let sentence = 0;
  let paragraph = 0;
  let last = -1;
  scanTokens(text, (start, end) => {
    if (last >= 0) {
      // what lies between this token and the last: a sentence end, a line end, both or neither
      let ends = false;
      let breaks = false;
      for (let i = last; i < start; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x2e || c === 0x21 || c === 0x3f) ends = true;
        else if (c === 0x0a) breaks = true;
      }
      if (ends || breaks) sentence++;
      if (breaks) paragraph++;
    }
    sentences.push(sentence);
    paragraphs.push(paragraph);
    last = end;
  });
  return { sentences, paragraphs };
}

/** Where the tokens of `text` are: the start and end (exclusive) of each, in code units, in token order. */
export function tokenSpans(text: string): { readonly start: number; readonly end: number }[] {
  const spans: { start: number; end: number }[] = [];
  scanTokens(text, (start, end) => spans.push({ start, end }));
  return spans;
}

/** The words of `text` (the tokens without their positions). */
export function words(text: string): string[] {
  const out: string[] = [];
  scanTokens(text, (start, end) => out.push(text.slice(start, end)));
  return out;
}

/**
 * The tokens of a query string with wildcards on (§3.4.8): the wildcard characters `.`, `?`, `*`,
 * `+`, `{m,n}` and `\` escapes belong to the token they are in.
 */
export function wildcardWords(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && i + 1 < text.length && WORD_CHAR.test(text[i + 1])) {
      cur += c + text[++i];
    } else if (c === '\\' && i + 1 < text.length && '.?*+{}\\'.includes(text[i + 1]) && cur.length > 0) {
      // An escaped wildcard character that cannot occur in a token ends it (XQFTTS ftwildcard-q14: "nex.\?" matches "next").
      i++;
      out.push(cur);
      cur = '';
    } else if (WORD_CHAR.test(c) || '.?*+'.includes(c)) {
      cur += c;
    } else if (c === '{' && cur.endsWith('.')) {
      const close = text.indexOf('}', i);
      if (close < 0) {
        cur += c;
      } else {
        cur += text.slice(i, close + 1);
        i = close;
      }
    } else if (cur) {
      out.push(cur);
      cur = '';
    }
  }
  if (cur) out.push(cur);
  return out;
}

/** Without diacritics: the base characters of the canonical decomposition (§3.4.4 `diacritics insensitive`). */
export function stripDiacritics(word: string): string {
  return /[^\u0000-\u007f]/.test(word) ? word.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC') : word;
}

/** A token as compared: case and diacritics folded as the options say (stemming after). */
export function normalizeToken(word: string, o: Pick<FTMatchOptions, 'case' | 'diacritics'>): string {
  let w = o.diacritics === 'insensitive' ? stripDiacritics(word) : word;
  if (o.case === 'insensitive') w = w.toLowerCase();
  return w;
}
