/**
 * Deciding `contains text` over ASCII text without tokenizing it, for the selections whose
 * satisfaction depends only on which query words the text holds as tokens: FTWords of single-word
 * phrases (`any`, `any word`, `all`, `all words`, a one-word `phrase`), joined by `ftor` and
 * `ftand`, under a weight (§4 of XQuery and XPath Full Text 1.0: a words match is a string include
 * per occurrence, `ftor` unites the matches, `ftand` joins every pair, a weight changes only the
 * score; none of them makes a string exclude).
 *
 * It answers only where it cannot change an answer (undefined elsewhere):
 * - on ASCII text, where a token is a maximal run of ASCII letters and digits (tokens.ts), so a
 *   word is held as a token exactly when it occurs with no letter or digit on either side;
 * - for words compared as written or ignoring case, with diacritics either way (the ASCII folding
 *   of terms.ts): no stemming, wildcards, fuzzy matching, thesauri, stop words, language or
 *   `occurs`, and values fixed in the query, so that the matcher would raise no error either.
 * Whether a text holds a word decides satisfaction; score and hits still need the matcher.
 */
import { normalizeToken } from './terms';
import { words } from './tokens';
import type { FTMatchOptions, FTNode } from './selection';

/** A query word as a text must hold it: folded, and whether it is compared ignoring case. */
interface Held {
  readonly word: string;
  readonly lower: boolean;
}

/** Satisfied when every part (`all`) or some part (`any`) is. */
export interface Presence {
  readonly all: boolean;
  readonly parts: readonly (Held | Presence)[];
}

const ASCII = /^[\x00-\x7f]*$/;

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
  if (terms.some((ws) => ws.some((w) => w === '' || !ASCII.test(w)))) return undefined;
  const lower = o.case === 'insensitive';
  const held = (ws: readonly string[]): Held[] => ws.map((word) => ({ word, lower }));
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

function isWordChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/** Whether ASCII `text` holds `word` as a token: an occurrence with no letter or digit beside it. */
function holdsToken(text: string, word: string): boolean {
  for (let i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + 1)) {
    const end = i + word.length;
    if ((i === 0 || !isWordChar(text.charCodeAt(i - 1))) && (end === text.length || !isWordChar(text.charCodeAt(end)))) return true;
  }
  return false;
}

/** The texts one test reads: as written, and lowered once if a part needs it. */
interface Texts {
  readonly text: string;
  lowered?: string;
}

function holds(p: Presence | Held, t: Texts): boolean {
  if ('word' in p) return holdsToken(p.lower ? (t.lowered ??= t.text.toLowerCase()) : t.text, p.word);
  return p.all ? p.parts.every((q) => holds(q, t)) : p.parts.some((q) => holds(q, t));
}

/** Whether `text` satisfies the selection of `presence`; undefined when `text` is not ASCII. */
export function satisfiedByPresence(presence: Presence, text: string): boolean | undefined {
  return ASCII.test(text) ? holds(presence, { text }) : undefined;
}
