/**
 * Deciding `contains text` without tokenizing the text, for the selections whose satisfaction
 * depends only on which query phrases the text holds as consecutive tokens: FTWords in any mode,
 * joined by `ftor` and `ftand`, under a weight (§4 of XQuery and XPath Full Text 1.0: a words match
 * is a string include per occurrence of a phrase, `ftor` unites the matches, `ftand` joins every
 * pair, a weight changes only the score; none of them makes a string exclude).
 *
 * It answers only where it cannot change an answer (undefined elsewhere):
 * - a phrase is held when its words occur in order with only ASCII characters other than letters
 *   and digits between them, and neither an ASCII letter or digit nor a character beyond ASCII on
 *   either side: consecutive tokens (tokens.ts) that fold to the words; it is not held when it does
 *   not occur so in ASCII text, where tokens are the maximal runs of ASCII letters and digits;
 * - for words of ASCII letters and digits compared as written or ignoring case, with diacritics
 *   either way (the ASCII folding of terms.ts): no stemming, wildcards, fuzzy matching, thesauri,
 *   stop words, language or `occurs`, and values fixed in the query, so that the matcher would
 *   raise no error either.
 * Whether a text holds a word decides satisfaction; score and hits still need the matcher.
 */
import { normalizeToken, words } from './tokens';
import type { FTMatchOptions, FTNode } from './selection';

/**
 * A phrase as a text must hold it: a pattern finding its words as consecutive tokens, the words
 * separated by ASCII characters other than letters and digits, with neither an ASCII letter or
 * digit nor a character beyond ASCII beside them (so the tokens it finds are the words themselves;
 * around a character beyond ASCII the tokenizer and folding would have to decide), ignoring case
 * or not. Without the `u` flag, ignoring case maps no character beyond ASCII to an ASCII one
 * (ECMAScript Canonicalize), so what it finds is the words' ASCII letters and digits.
 */
interface Held {
  readonly held: RegExp;
}

/** Satisfied when every part (`all`) or some part (`any`) is. */
export interface Presence {
  readonly all: boolean;
  readonly parts: readonly (Held | Presence)[];
}

const ASCII = /^[\x00-\x7f]*$/;
/** A folded query word this test can look for: ASCII letters and digits (so nothing a pattern reads otherwise). */
const ASCII_WORD = /^[0-9A-Za-z]+$/;

function plainOptions(o: FTMatchOptions): boolean {
  return (
    (o.case === 'insensitive' || o.case === 'sensitive') &&
    !o.stemming &&
    !o.wildcards &&
    !o.fuzzy &&
    o.stopWords.length === 0 &&
    o.thesauri.length === 0 &&
    o.language === undefined
  );
}

const NEVER: Presence = { all: false, parts: [] };

/** No ASCII letter or digit and no character beyond ASCII before the first word, between words (and something), after the last. */
const BESIDE = '(?<![0-9A-Za-z\\u0080-\\uffff])';
const BETWEEN = '[^0-9A-Za-z\\u0080-\\uffff]+';
const AFTER = '(?![0-9A-Za-z\\u0080-\\uffff])';

function wordsPresence(node: Extract<FTNode, { t: 'words' }>): Presence | undefined {
  const o = node.options;
  if (!('fixed' in node.value) || node.times || !plainOptions(o)) return undefined;
  const terms = node.value.fixed.map((term) => words(term).map((w) => normalizeToken(w, o)));
  if (terms.some((ws) => ws.some((w) => !ASCII_WORD.test(w)))) return undefined;
  const flags = o.case === 'insensitive' ? 'i' : '';
  const held = (phrase: readonly string[]): Held => ({ held: new RegExp(`${BESIDE}${phrase.join(BETWEEN)}${AFTER}`, flags) });
  const nonEmpty = terms.filter((ws) => ws.length > 0);
  switch (node.mode) {
    case 'any':
      // each term is a phrase; one without words matches nothing
      return { all: false, parts: nonEmpty.map(held) };
    case 'any word':
      return { all: false, parts: terms.flat().map((w) => held([w])) };
    case 'all':
      return nonEmpty.length === 0 || nonEmpty.length < terms.length ? NEVER : { all: true, parts: nonEmpty.map(held) };
    case 'all words': {
      const all = terms.flat();
      return all.length === 0 ? NEVER : { all: true, parts: all.map((w) => held([w])) };
    }
    case 'phrase': {
      const all = terms.flat();
      return all.length === 0 ? NEVER : { all: true, parts: [held(all)] };
    }
  }
}

/** The presence test equivalent to the selection; undefined when there is none. */
export function presenceOf(node: FTNode): Presence | undefined {
  switch (node.t) {
    case 'words':
      return wordsPresence(node);
    case 'or':
    case 'and': {
      const parts: Presence[] = [];
      for (const item of node.items) {
        const p = presenceOf(item);
        if (p === undefined) return undefined;
        parts.push(p);
      }
      return { all: node.t === 'and', parts };
    }
    case 'weight':
      return 'fixed' in node.weight && Math.abs(node.weight.fixed) <= 1000 ? presenceOf(node.item) : undefined;
    default:
      return undefined;
  }
}

/** A text as the tests read it, and once known whether it is ASCII. */
interface Texts {
  readonly text: string;
  ascii?: boolean;
}

/** Whether the text satisfies `p`; undefined when a word it does not hold might be held beyond ASCII. */
function holds(p: Presence | Held, t: Texts): boolean | undefined {
  if ('held' in p) return p.held.test(t.text) ? true : (t.ascii ??= ASCII.test(t.text)) ? false : undefined;
  // `all`: false as soon as a part is false; `any`: true as soon as a part is true
  let unknown = false;
  for (const q of p.parts) {
    const r = holds(q, t);
    if (r === undefined) unknown = true;
    else if (r !== p.all) return r;
  }
  return unknown ? undefined : p.all;
}

/**
 * Whether `text` satisfies the selection of `presence`: decided when the text holds the words that
 * decide it as ASCII tokens, or when it is ASCII; undefined otherwise.
 */
export function satisfiedByPresence(presence: Presence, text: string): boolean | undefined {
  return holds(presence, { text });
}
