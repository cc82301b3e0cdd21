/**
 * Tokenizing and folding text as BaseX's full-text lexer does (docs.basex.org, Full-Text:
 * "tokenization"): a token is a run of Unicode letters and digits (with their combining marks);
 * `.`, `!` and `?` end a sentence, a line end ends a paragraph (XQuery Full Text 1.0 §4.1 leaves
 * boundaries to the implementation). The full-text index reuses these functions, so what is
 * indexed and what is searched is tokenized by one rule.
 */

/** A token of searched text: its position (0-based, in tokens), sentence and paragraph. */
export interface TextToken {
  readonly word: string;
  readonly pos: number;
  readonly sentence: number;
  readonly paragraph: number;
}

const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;

/** The tokens of `text` with their positions. */
export function tokenize(text: string): TextToken[] {
  const tokens: TextToken[] = [];
  let sentence = 0;
  let paragraph = 0;
  let last = 0;
  for (const m of text.matchAll(TOKEN)) {
    if (tokens.length > 0) {
      const gap = text.slice(last, m.index);
      if (/[.!?]/.test(gap)) sentence++;
      if (/\n/.test(gap)) {
        paragraph++;
        if (!/[.!?]/.test(gap)) sentence++;
      }
    }
    tokens.push({ word: m[0], pos: tokens.length, sentence, paragraph });
    last = m.index + m[0].length;
  }
  return tokens;
}

/** Where the tokens of `text` are: the start and end (exclusive) of each, in code units, in token order. */
export function tokenSpans(text: string): { readonly start: number; readonly end: number }[] {
  return Array.from(text.matchAll(TOKEN), (m) => ({ start: m.index, end: m.index + m[0].length }));
}

/** The words of `text` (the tokens without their positions). */
export function words(text: string): string[] {
  return text.match(TOKEN) ?? [];
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
