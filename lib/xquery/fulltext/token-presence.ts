/**
 * Deciding `contains text` without tokenizing the text, for the selections whose satisfaction
 * depends only on which query words the text holds as tokens: FTWords of single-word phrases
 * (`any`, `any word`, `all`, `all words`, a one-word `phrase`), joined by `ftor` and `ftand`, under
 * a weight (§4 of XQuery and XPath Full Text 1.0: a words match is a string include per
 * occurrence, `ftor` unites the matches, `ftand` joins every pair, a weight changes only the
 * score; none of them makes a string exclude).
 *
 * It answers only where it cannot change an answer (undefined elsewhere):
 * - a word is held when it occurs with neither an ASCII letter or digit nor a character beyond
 *   ASCII on either side: a token (tokens.ts) that folds to the word; it is not held when it does
 *   not occur so in ASCII text, where tokens are the maximal runs of ASCII letters and digits;
 * - for words of ASCII letters and digits compared as written or ignoring case, with diacritics
 *   either way (the ASCII folding of terms.ts): no stemming, wildcards, fuzzy matching, thesauri,
 *   stop words, language or `occurs`, and values fixed in the query, so that the matcher would
 *   raise no error either.
 * Whether a text holds a word decides satisfaction; score and hits still need the matcher.
 */
import { normalizeToken } from './terms';
import { words } from './tokens';
import type { FTMatchOptions, FTNode } from './selection';

/**
 * A query word as a text must hold it: a pattern finding it as a token, with neither a letter or
 * digit nor a character beyond ASCII beside it (so the token it finds is the word itself; around
 * a character beyond ASCII the tokenizer and folding would have to decide), ignoring case or not.
 * Without the `u` flag, ignoring case maps no character beyond ASCII to an ASCII one
 * (ECMAScript Canonicalize), so what it finds is the word's ASCII letters and digits.
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

function wordsPresence(node: Extract<FTNode, { t: 'words' }>): Presence | undefined {
  const o = node.options;
  if (!('fixed' in node.value) || node.times || !plainOptions(o)) return undefined;
  const terms = node.value.fixed.map((term) => words(term).map((w) => normalizeToken(w, o)));
  if (terms.some((ws) => ws.some((w) => !ASCII_WORD.test(w)))) return undefined;
  const flags = o.case === 'insensitive' ? 'i' : '';
  const held = (ws: readonly string[]): Held[] => ws.map((word) => ({ held: new RegExp(`(?<![0-9A-Za-z\\u0080-\\uffff])${word}(?![0-9A-Za-z\\u0080-\\uffff])`, flags) }));
  switch (node.mode) {
    case 'any':
      // each term is a phrase: one without words matches nothing, one of two words needs adjacency
      if (terms.some((ws) => ws.length > 1)) return undefined;
      return { all: false, parts: held(terms.flat()) };
    case 'any word':
      return { all: false, parts: held(terms.flat()) };
    case 'all':
      if (terms.some((ws) => ws.length > 1)) return undefined;
      return terms.length === 0 || terms.some((ws) => ws.length === 0) ? NEVER : { all: true, parts: held(terms.flat()) };
    case 'all words': {
      const all = terms.flat();
      return all.length === 0 ? NEVER : { all: true, parts: held(all) };
    }
    case 'phrase': {
      const all = terms.flat();
      if (all.length > 1) return undefined;
      return all.length === 0 ? NEVER : { all: true, parts: held(all) };
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
