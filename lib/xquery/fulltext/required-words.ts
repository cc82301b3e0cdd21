/**
 * A pre-check of `contains text` over text without an index: words of which a searched text must
 * hold at least one as a token for the selection to be satisfied, so that a text holding none is
 * passed over without tokenizing it or running the matcher (matcher.ts).
 *
 * The check is done only where it cannot change an answer:
 * - on ASCII text, where a token is a run of ASCII letters and digits (tokens.ts) and lowercasing
 *   the whole text lowercases each token alike, so a token equal to a word ignoring case is a
 *   substring of the lowercased text;
 * - for words compared as written or by case and diacritics only: no stemming, wildcards, fuzzy
 *   matching, thesauri or stop words (each of these lets a word match a token that is not it), no
 *   language, and values fixed in the query, so that every error the matcher raises for an item
 *   (a computed word or count of the wrong type, a language or weight out of range, `not in`
 *   over an exclusion) is still raised;
 * - through selections whose match needs a match of such words (§4 of XQuery and XPath Full Text
 *   1.0): `ftand` needs each operand, `ftor` one, and the positional filters, `weight` and
 *   `occurs` at least once only narrow the matches of their operand; `ftnot` and `occurs`
 *   allowing zero times are satisfied without one, so they give no words.
 *
 * The words are folded ignoring case and diacritics, a superset of what any case or diacritics
 * option matches.
 */
import { normalizeToken, words } from './tokens';
import type { FTMatchOptions, FTNode, FTRange } from './selection';

const ASCII = /^[\x00-\x7f]*$/;
const FOLD = { case: 'insensitive', diacritics: 'insensitive' } as const;

/** The words of which a satisfying text holds one; undefined when the selection gives none. */
export function requiredWords(node: FTNode): readonly string[] | undefined {
  switch (node.t) {
    case 'words':
      return wordsNode(node);
    case 'or': {
      const out: string[] = [];
      for (const item of node.items) {
        const ws = requiredWords(item);
        if (ws === undefined) return undefined;
        out.push(...ws);
      }
      return out;
    }
    case 'and': {
      // any operand's words will do; the fewest and longest are the cheapest and most selective
      let best: readonly string[] | undefined;
      for (const item of node.items) {
        const ws = requiredWords(item);
        if (ws !== undefined && (best === undefined || ws.length < best.length || (ws.length === best.length && length(ws) > length(best)))) best = ws;
      }
      return best;
    }
    case 'not':
    case 'mildnot':
      return undefined;
    case 'weight':
      return 'fixed' in node.weight && Math.abs(node.weight.fixed) <= 1000 ? requiredWords(node.item) : undefined;
    case 'window':
      return 'fixed' in node.size ? requiredWords(node.item) : undefined;
    case 'distance':
      return fixedRange(node.range) ? requiredWords(node.item) : undefined;
    case 'ordered':
    case 'scope':
    case 'content':
      return requiredWords(node.item);
  }
}

function fixedRange(r: FTRange): boolean {
  return (r.min === null || 'fixed' in r.min) && (r.max === null || 'fixed' in r.max);
}

function length(ws: readonly string[]): number {
  return ws.reduce((n, w) => n + w.length, 0);
}

function comparedAsWritten(o: FTMatchOptions): boolean {
  return !o.stemming && !o.wildcards && !o.fuzzy && o.stopWords.length === 0 && o.thesauri.length === 0 && o.language === undefined;
}

function wordsNode(node: Extract<FTNode, { t: 'words' }>): readonly string[] | undefined {
  if (!('fixed' in node.value) || !comparedAsWritten(node.options)) return undefined;
  const min = node.times?.min;
  if (node.times && !(min && 'fixed' in min && min.fixed >= 1)) return undefined;
  const folded = node.value.fixed.map((term) => words(term).map((w) => normalizeToken(w, FOLD)));
  if (folded.some((ws) => ws.some((w) => !ASCII.test(w)))) return undefined;
  const longest = (ws: readonly string[]): string => ws.reduce((a, b) => (b.length > a.length ? b : a));
  const nonEmpty = folded.filter((ws) => ws.length > 0);
  // a selection of no words is left to the matcher
  if (nonEmpty.length === 0) return undefined;
  switch (node.mode) {
    case 'any':
      // each term is a phrase: one of its words, from any term
      return nonEmpty.map(longest);
    case 'any word':
      return nonEmpty.flat();
    case 'all':
    case 'phrase':
    case 'all words':
      // every word is needed: the longest one
      return [longest(nonEmpty.flat())];
  }
}

/**
 * Per list of words: a pattern finding any of them ignoring case, when they are ASCII letters and
 * digits (nothing a pattern reads otherwise). Without the `u` flag, ignoring case maps no character
 * beyond ASCII to an ASCII one, so on ASCII text it finds what the lowercased text includes.
 */
const patterns = new WeakMap<readonly string[], RegExp | null>();

function patternOf(required: readonly string[]): RegExp | null {
  let p = patterns.get(required);
  if (p === undefined) patterns.set(required, (p = required.every((w) => /^[0-9a-z]+$/.test(w)) ? new RegExp(required.join('|'), 'i') : null));
  return p;
}

/** Whether `text` surely holds none of `required` as a token (false when it cannot tell). */
export function holdsNone(text: string, required: readonly string[]): boolean {
  // the words are looked for first: most texts a scan passes over are ASCII, most it keeps hold one
  const pattern = patternOf(required);
  if (pattern !== null) {
    if (pattern.test(text)) return false;
  } else {
    const lower = text.toLowerCase();
    for (const w of required) if (lower.includes(w)) return false;
  }
  return ASCII.test(text);
}
