/**
 * The semantics of an FTSelection over the tokens of one searched item: XQuery and XPath Full
 * Text 1.0 §4 (AllMatches). A match is a set of string includes and string excludes (token spans
 * with the position of their query token); the item satisfies the selection when some match has
 * no string exclude (§4.3). Sentences and paragraphs are the tokenizer's (tokens.ts).
 */
import { xpathError } from '../../saxon';
import { phraseTests } from './phrase-tests';
import { tokenize, wildcardWords, words, type TextTokens } from './tokens';
import type { FTMatchOptions, FTNode, FTRange, FTValue } from './selection';

interface Span {
  /** Position of the query token sequence (§4.1 queryPos), for `ordered`. */
  readonly query: number;
  readonly start: number;
  readonly end: number;
  /** For a span joined by a window or distance filter: the spans it joined, which are what it covers. */
  readonly parts?: readonly Span[];
}
interface Match {
  readonly inc: readonly Span[];
  readonly exc: readonly Span[];
}
type AllMatches = readonly Match[];

/** Matches one combination may hold before the evaluation refuses (a bound on ftand products). */
const MAX_MATCHES = 100_000;

function limited(ms: Match[]): Match[] {
  if (ms.length > MAX_MATCHES) throw xpathError('Full-text selection produces too many matches.', 'FTDY0000');
  return ms;
}

/** A computed value as the matcher reads it: its items' strings and whether each is numeric or a string. */
export interface FTItem {
  readonly text: string;
  readonly kind: 'string' | 'number' | 'other';
}

/** What one evaluation reads its computed values from. */
export interface FTContext {
  /** The computed values of the description, by index. */
  readonly values: readonly (readonly FTItem[])[];
}

export function resolve<T>(v: FTValue<T>, ctx: FTContext, conv: (s: readonly FTItem[]) => T): T {
  return 'fixed' in v ? v.fixed : conv(ctx.values[v.dyn]);
}

/** Search strings: strings, untyped or URI values (§3.2; anything else is XPTY0004). */
function searchStrings(s: readonly FTItem[]): string[] {
  for (const i of s) if (i.kind !== 'string') throw xpathError(`String expected in full-text words, found '${i.text}'.`, 'XPTY0004');
  return s.map((i) => i.text);
}

/** A count of a range or window (§3.3: xs:integer; XPTY0004 otherwise). */
function integer(s: readonly FTItem[]): number {
  if (s.length !== 1 || s[0].kind !== 'number' || !Number.isInteger(Number(s[0].text))) throw xpathError('Integer expected in full-text range.', 'XPTY0004');
  return Number(s[0].text);
}

/** A weight (§3.1: numeric). */
function number(s: readonly FTItem[]): number {
  if (s.length !== 1 || s[0].kind !== 'number') throw xpathError('Number expected as weight.', 'XPTY0004');
  return Number(s[0].text);
}

function inRange(n: number, range: FTRange, ctx: FTContext): boolean {
  const min = range.min ? resolve(range.min, ctx, integer) : 0;
  const max = range.max ? resolve(range.max, ctx, integer) : Infinity;
  return n >= min && n <= max;
}

export class ItemMatcher {
  private query = 0;

  constructor(
    readonly tokens: TextTokens,
    private readonly ctx: FTContext,
  ) {}

  /** The AllMatches of `node` (§4.2). */
  eval(node: FTNode): AllMatches {
    switch (node.t) {
      case 'words':
        return this.words(node);
      case 'or':
        return limited(node.items.flatMap((i) => [...this.eval(i)]));
      case 'and':
        return node.items.map((i) => this.eval(i)).reduce((a, b) => product(a, b));
      case 'mildnot': {
        const left = this.eval(node.left);
        const right = this.eval(node.right);
        if ([...left, ...right].some((m) => m.exc.length > 0)) throw xpathError('Invalid expressions in mild not.', 'FTDY0017');
        const covered = new Set<number>();
        for (const m of right) cover(m.inc, covered);
        // A match stays unless every one of its includes lies in what the right side matched
        // (XQFTTS FTMildNot-and2: "usability" ftand "ninja" not in "ninja coder" keeps "usability").
        return left.filter((m) => m.inc.length === 0 || !m.inc.every((s) => spanTouches(s, covered)));
      }
      case 'not':
        return unaryNot(this.eval(node.item));
      case 'weight': {
        const w = resolve(node.weight, this.ctx, number);
        if (w < -1000 || w > 1000) throw xpathError(`Weight value out of range: ${w}.`, 'FTDY0016');
        return this.eval(node.item);
      }
      case 'ordered':
        return this.eval(node.item).filter((m) => {
          const inc = [...m.inc].sort((a, b) => a.query - b.query);
          return inc.every((s, i) => i === 0 || inc[i - 1].start <= s.start);
        });
      case 'window': {
        const size = resolve(node.size, this.ctx, integer);
        return this.eval(node.item).flatMap((m) => {
          if (m.inc.length === 0) return [m];
          const lo = Math.min(...m.inc.map((s) => this.unitOf(s.start, node.unit)));
          const hi = Math.max(...m.inc.map((s) => this.unitOf(s.end, node.unit)));
          if (hi - lo + 1 > size) return [];
          // §4.2.6.5: one match per placement of the window over the includes, each keeping the
          // excludes inside it, so an exclude next to the includes on one side only does not decide.
          const out: Match[] = [];
          const inc = [merged(m.inc)];
          // Windows lie inside the text (§4.2.6.5), unless the text is shorter than one.
          const first = Math.max(hi - size + 1, 0);
          const last = Math.max(Math.min(lo, this.unitOf(this.tokens.words.length - 1, node.unit) - size + 1), first);
          for (let w = first; w <= last; w++) {
            const exc = m.exc.filter((s) => this.unitOf(s.start, node.unit) >= w && this.unitOf(s.end, node.unit) <= w + size - 1);
            out.push({ inc, exc });
            if (exc.length === 0) break;
          }
          return out;
        });
      }
      case 'distance':
        return this.eval(node.item).flatMap((m) => {
          const inc = [...m.inc].sort((a, b) => a.start - b.start || a.end - b.end);
          for (let i = 1; i < inc.length; i++) {
            // §4.3.4: the number of units between the two, so adjacent sentences are 0 apart.
            const d = this.unitOf(inc[i].start, node.unit) - this.unitOf(inc[i - 1].end, node.unit) - 1;
            if (!inRange(d, node.range, this.ctx)) return [];
          }
          return [{ inc: inc.length > 0 ? [merged(inc)] : [], exc: m.exc }];
        });
      case 'scope': {
        const unit = node.unit === 'sentence' ? 'sentences' : 'paragraphs';
        return this.eval(node.item).filter((m) => {
          const units = m.inc.map((s) => [this.unitOf(s.start, unit), this.unitOf(s.end, unit)]);
          if (node.same) return units.every(([a, b]) => a === b && a === units[0][0]);
          // Different units need two includes at least (XQFTTS different-sentence-01).
          return units.length > 1 && units.every(([a], i) => units.every(([b], j) => i === j || a !== b));
        });
      }
      case 'content': {
        const count = this.tokens.words.length;
        return this.eval(node.item).filter((m) => {
          if (node.at === 'start') return m.inc.some((s) => s.start === 0);
          if (node.at === 'end') return m.inc.some((s) => s.end === count - 1);
          return count > 0 && cover(m.inc, new Set()).size === count;
        });
      }
    }
  }

  private unitOf(pos: number, unit: 'words' | 'sentences' | 'paragraphs'): number {
    return unit === 'words' ? pos : unit === 'sentences' ? this.tokens.sentences[pos] : this.tokens.paragraphs[pos];
  }

  private words(node: Extract<FTNode, { t: 'words' }>): AllMatches {
    const o = node.options;
    const strings = resolve(node.value, this.ctx, searchStrings);
    const split = (s: string): string[] => (o.wildcards ? wildcardWords(s) : words(s));
    let result: AllMatches;
    switch (node.mode) {
      case 'any':
        result = limited(strings.flatMap((s) => [...this.phrase(s, o)]));
        break;
      case 'all':
        result = strings.length === 0 ? [] : strings.map((s) => this.phrase(s, o)).reduce((a, b) => product(a, b));
        break;
      case 'phrase':
        result = this.phrase(strings.map((s) => split(s).join(' ')).join(' '), o);
        break;
      case 'any word':
        result = limited(strings.flatMap(split).flatMap((w) => [...this.phrase(w, o)]));
        break;
      case 'all words': {
        const ws = strings.flatMap(split);
        result = ws.length === 0 ? [] : ws.map((w) => this.phrase(w, o)).reduce((a, b) => product(a, b));
        break;
      }
    }
    if (!node.times) return result;
    // §4.2.6 FTTimes: the number of occurrences must fall into the range.
    const found = result.filter((m) => m.inc.length > 0);
    const min = node.times.min ? resolve(node.times.min, this.ctx, integer) : 0;
    if (found.length < min) return [];
    if (!inRange(found.length, node.times, this.ctx)) {
      // More than the range allows: as in §4.2.6.7, the occurrences beyond it are excludes, so no
      // match qualifies (and a mild not over it sees the excludes, FTDY0017).
      return limited(found.map((m) => ({ inc: m.inc, exc: found.filter((o) => o !== m).flatMap((o) => o.inc) })));
    }
    return [{ inc: found.flatMap((m) => m.inc), exc: found.flatMap((m) => m.exc) }];
  }

  /** The matches of one query string taken as a phrase, or of its thesaurus expansions. */
  private phrase(s: string, o: FTMatchOptions): AllMatches {
    const query = this.query++;
    const out: Match[] = [];
    const words = this.tokens.words;
    for (const tests of phraseTests(s, o)) {
      const n = tests.length;
      const first = tests[0];
      for (let i = 0; i + n <= words.length; i++) {
        if (!first(words[i])) continue;
        let ok = true;
        for (let k = 1; k < n && ok; k++) ok = tests[k](words[i + k]);
        if (ok) out.push({ inc: [{ query, start: i, end: i + n - 1 }], exc: [] });
      }
    }
    return out;
  }
}

/**
 * The includes of a match that passed a window or distance filter, as one span from the first to
 * the last (§4.2.6.5, §4.2.6.6: later filters see the matched stretch as one; XQFTTS FTPosFilter-q4,
 * FTDistance-complexwords5).
 */
function merged(inc: readonly Span[]): Span {
  return {
    query: Math.min(...inc.map((s) => s.query)),
    start: Math.min(...inc.map((s) => s.start)),
    end: Math.max(...inc.map((s) => s.end)),
    parts: inc.flatMap(covering),
  };
}

/** The spans whose tokens a span covers (a joined span covers its parts, not the gaps between them). */
function covering(s: Span): readonly Span[] {
  return s.parts ?? [s];
}

/** Adds the token positions `spans` cover to `into`. */
function cover(spans: readonly Span[], into: Set<number>): Set<number> {
  for (const part of spans.flatMap(covering)) for (let p = part.start; p <= part.end; p++) into.add(p);
  return into;
}

function spanTouches(s: Span, covered: Set<number>): boolean {
  return covering(s).some((part) => {
    for (let p = part.start; p <= part.end; p++) if (covered.has(p)) return true;
    return false;
  });
}

/** §4.2.3 FTAnd: every pair of matches, joined. */
function product(a: AllMatches, b: AllMatches): AllMatches {
  const out: Match[] = [];
  for (const x of a) for (const y of b) out.push({ inc: [...x.inc, ...y.inc], exc: [...x.exc, ...y.exc] });
  return limited(out);
}

/** §4.2.5 FTUnaryNot: one string match of every match, inverted (includes become excludes and back). */
function unaryNot(all: AllMatches): AllMatches {
  let out: Match[] = [{ inc: [], exc: [] }];
  for (const m of all) {
    const inverted: Match[] = [...m.inc.map((s) => ({ inc: [], exc: [s] })), ...m.exc.map((s) => ({ inc: [s], exc: [] }))];
    out = [...product(out, inverted)];
  }
  return out;
}

/** Whether some match of `all` has no string exclude (§4.3). */
export function satisfied(all: AllMatches): boolean {
  return all.some((m) => m.exc.length === 0);
}

/**
 * The token positions the matches without string excludes cover (§4.3: the matches that satisfy
 * the selection): what ft:mark marks and ft:count counts (functions/ft-marks.ts).
 */
export function hitPositions(all: AllMatches): number[] {
  const covered = new Set<number>();
  for (const m of all) if (m.exc.length === 0) cover(m.inc, covered);
  return [...covered].sort((a, b) => a - b);
}

/**
 * A score in [0, 1] (§4.4 leaves it to the implementation): 0 without a match; otherwise growing
 * with the share of the text's tokens the matches cover, scaled by the selection's weights.
 */
export function score(all: AllMatches, tokenCount: number, weight: number): number {
  const good = all.filter((m) => m.exc.length === 0);
  if (good.length === 0) return 0;
  const covered = new Set<number>();
  for (const m of good) cover(m.inc, covered);
  const hits = Math.max(covered.size, 1);
  const s = (hits / (hits + Math.sqrt(Math.max(tokenCount, 1)))) * weight;
  return Math.max(0, Math.min(1, s));
}

/** The weights of a selection multiplied (weights are BaseX's score factors). */
export function weightOf(node: FTNode, ctx: FTContext): number {
  switch (node.t) {
    case 'weight':
      return resolve(node.weight, ctx, number) * weightOf(node.item, ctx);
    case 'words':
      return 1;
    case 'or':
    case 'and':
      return Math.max(...node.items.map((i) => weightOf(i, ctx)));
    case 'mildnot':
      return weightOf(node.left, ctx);
    default:
      return weightOf(node.item, ctx);
  }
}

/** The tokens of a searched text (re-exported for the ft: functions). */
export { tokenize };
