/**
 * Whether a query token matches a token of the searched text under the match options in force
 * (XQuery Full Text 1.0 §3.4): case, diacritics, stemming, wildcards, BaseX's fuzzy matching and
 * stop words. The full-text index folds the tokens it stores with `normalizeToken` (tokens.ts).
 */
import { xpathError } from '../../saxon';
import { stemmerFor } from './stemmers';
import { normalizeToken } from './tokens';
import type { FTMatchOptions } from './selection';

/** A query token made ready to compare with text tokens. */
export type TermTest = (textWord: string) => boolean;

/** Levenshtein distance of `a` and `b`, stopping early beyond `limit`. */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, cur[j]);
    }
    if (best > limit) return limit + 1;
    prev = cur;
  }
  return prev[b.length];
}

/**
 * The regular expression of a wildcard token (§3.4.8): `.` any character, `.?`, `.*`, `.+`,
 * `.{m,n}`; `\` escapes the next character. A malformed one is FTDY0020.
 */
export function wildcardPattern(token: string): RegExp {
  let re = '';
  for (let i = 0; i < token.length; i++) {
    const c = token[i];
    if (c === '\\') {
      if (i + 1 >= token.length) throw xpathError(`Invalid wildcard syntax: '${token}'.`, 'FTDY0020');
      re += token[++i].replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
    } else if (c === '.') {
      const next = token[i + 1];
      if (next === '?' || next === '*' || next === '+') {
        re += `.${next}`;
        i++;
      } else if (next === '{') {
        const m = /^\{(\d+),(\d+)\}/.exec(token.slice(i + 1));
        if (!m || Number(m[1]) > Number(m[2])) throw xpathError(`Invalid wildcard syntax: '${token}'.`, 'FTDY0020');
        re += `.{${m[1]},${m[2]}}`;
        i += m[0].length;
      } else {
        re += '.';
      }
    } else if ('?*+{}'.includes(c)) {
      throw xpathError(`Invalid wildcard syntax: '${token}'.`, 'FTDY0020');
    } else {
      re += c.replace(/[\\^$()[\]|/-]/g, '\\$&');
    }
  }
  return new RegExp(`^${re}$`, 'su');
}

/** Text tokens whose outcome one test keeps before it starts over (bounded memory in a long-lived worker). */
const OUTCOMES_MAX = 50_000;

/**
 * A test that remembers its outcome per text token: tests are pure functions of the token, and a
 * text repeats its words, so stemming, fuzzy distances and wildcard expressions run once per
 * distinct token of the texts a query searches (phrase-tests.ts keeps a test for the whole run).
 */
function remembering(test: TermTest): TermTest {
  const outcomes = new Map<string, boolean>();
  return (w) => {
    let r = outcomes.get(w);
    if (r === undefined) {
      r = test(w);
      if (outcomes.size >= OUTCOMES_MAX) outcomes.clear();
      outcomes.set(w, r);
    }
    return r;
  };
}

/**
 * Whether the folded text token `w` equals the folded query token `q`, read from `w`'s ASCII
 * prefix alone: undefined when `w` has a character beyond ASCII before the answer is known.
 * Folding leaves an ASCII character as it is, or lowers it when `lower` (case insensitive), and
 * keeps the ASCII prefix of a token in place (stripping diacritics removes marks, which follow
 * their base characters, and ASCII characters compose with nothing but marks), so a difference in
 * the prefix, or the end of an all-ASCII token, decides.
 */
function asciiFoldedEquals(w: string, q: string, lower: boolean): boolean | undefined {
  const n = w.length;
  const m = q.length;
  for (let i = 0; i < n; i++) {
    let c = w.charCodeAt(i);
    if (c >= 0x80) return undefined;
    if (lower && c >= 0x41 && c <= 0x5a) c += 0x20;
    if (i >= m || c !== q.charCodeAt(i)) return false;
  }
  return n === m;
}

/** The test for one query token (`stop` when it is a stop word: it matches any token, §3.4.7). */
export function termTest(queryWord: string, o: FTMatchOptions, stop: boolean): TermTest {
  // §3.4.6: a language the implementation knows: an ISO 639 code (two or three letters) and subtags.
  if (o.language !== undefined && !/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{1,8})*$/.test(o.language)) {
    throw xpathError(`Language '${o.language}' is not supported.`, 'FTST0009');
  }
  if (stop) return () => true;
  const fold = (w: string): string => normalizeToken(w, o);
  let q = fold(queryWord);
  let caseCheck: (w: string) => boolean = () => true;
  if (o.case === 'lowercase' || o.case === 'uppercase') {
    // §3.4.3: the text token must be in that case, and matches the query token in that case.
    const toCase = (w: string): string => (o.case === 'lowercase' ? w.toLowerCase() : w.toUpperCase());
    q = toCase(q);
    caseCheck = (w) => w === toCase(w);
  }
  if (o.wildcards) {
    const re = wildcardPattern(q);
    return remembering((w) => caseCheck(w) && re.test(fold(w)));
  }
  if (o.fuzzy) {
    // BaseX: a quarter of the query token's length, one error at least.
    const limit = Math.max(1, Math.floor(q.length / 4));
    return remembering((w) => caseCheck(w) && distance(q, fold(w), limit) <= limit);
  }
  if (o.stemming) {
    const stem = stemmerFor(o.language);
    if (!stem) throw xpathError(`Language '${o.language}' is not supported.`, 'FTST0009');
    const sq = stem(q.toLowerCase());
    const exact = o.case === 'sensitive';
    return remembering((w) => caseCheck(w) && stem(fold(w).toLowerCase()) === sq && (!exact || sameCaseShape(fold(w), q)));
  }
  if (o.case === 'lowercase' || o.case === 'uppercase') return remembering((w) => caseCheck(w) && fold(w) === q);
  const lower = o.case === 'insensitive';
  const folded = remembering((w) => fold(w) === q);
  return (w) => asciiFoldedEquals(w, q, lower) ?? folded(w);
}

/** With `case sensitive` and stemming, the common prefix of both tokens must agree in case. */
function sameCaseShape(a: string, b: string): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i].toLowerCase() === b[i].toLowerCase() && a[i] !== b[i]) return false;
  return true;
}
