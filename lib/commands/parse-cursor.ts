/**
 * The scanning side of the string command syntax (parse.ts and the command table hold the
 * grammar): the character and token cursor over one line, the name-character rules and the "Did
 * you mean" keyword suggestion.
 */
import { commandError } from './messages';
import { commandHelp } from './registry';

/** Characters allowed in database names (spec §1.1), besides letters and digits. */
const NAME_SPECIALS = "_-+=~!#$%^&()[]{}@'`";

function isWs(ch: string): boolean {
  return ch !== '' && ch <= ' ';
}

function isNameChar(ch: string, first: boolean, glob: boolean): boolean {
  if (ch === '') return false;
  if (/[A-Za-z0-9]/.test(ch) || NAME_SPECIALS.includes(ch)) return true;
  if (ch === '.') return !first;
  return glob && (ch === '*' || ch === '?' || ch === ',');
}

/** Edit distance with transpositions (optimal string alignment). */
function distance(a: string, b: string): number {
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) d.push([i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/** The candidate closest to `word` within a small distance, if any. */
export function similarKeyword(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toUpperCase();
  const limit = w.length > 6 ? 2 : 1;
  let best: string | undefined;
  let bestDist = limit + 1;
  for (const c of candidates) {
    const dist = distance(w, c);
    if (dist < bestDist) {
      best = c;
      bestDist = dist;
    }
  }
  return best;
}

/** A cursor over one line (or a whole single-command input), with its token parsers. */
export class ParseCursor {
  protected pos = 0;

  constructor(private readonly text: string) {}

  /**
   * Parses a keyword out of `choices` (a token up to a space or `;`, any case). At the end of the
   * command, answers undefined if `optional` or at top level, else a syntax error of `parent`.
   * An unknown word: "Did you mean" when close to one of `suggest`, else the top-level
   * "Unknown command" or a syntax error of `parent`.
   */
  protected parseKeyword(
    choices: readonly string[],
    suggest: readonly string[],
    parent: string | undefined,
    optional = false,
  ): string | undefined {
    this.skipWs();
    const start = this.pos;
    while (this.more() && !this.eoc() && !isWs(this.curr())) this.pos++;
    const token = this.text.slice(start, this.pos);
    if (token === '') {
      if (parent === undefined || optional) return undefined;
      throw this.syntax(parent);
    }
    const upper = token.toUpperCase();
    if (choices.includes(upper)) return upper;
    const similar = similarKeyword(upper, suggest);
    if (similar !== undefined) throw commandError('UNKNOWN_SIMILAR_X_X', upper, similar);
    if (parent === undefined) throw commandError('UNKNOWN_TRY_X', token);
    throw this.syntax(parent);
  }

  /** Parses a fixed word such as `TO` or `ON`, followed by a space or the end. */
  protected parseKey(word: string, parent: string, required: boolean): boolean {
    this.skipWs();
    const end = this.pos + word.length;
    const ok =
      this.text.slice(this.pos, end).toUpperCase() === word && (end >= this.text.length || isWs(this.text[end]));
    if (ok) this.pos = end;
    else if (required) throw this.syntax(parent);
    return ok;
  }

  /**
   * Parses a name (or, with `glob`, a pattern). Characters that may not appear in a name make the
   * command invalid, as does a trailing `.`; nothing at all answers undefined.
   */
  protected parseName(parent: string, glob: boolean): string | undefined {
    this.skipWs();
    const start = this.pos;
    while (isNameChar(this.curr(), this.pos === start, glob)) this.pos++;
    const name = this.text.slice(start, this.pos);
    if (!(this.eoc() || isWs(this.curr())) || name.endsWith('.')) throw this.syntax(parent);
    return name === '' ? undefined : name;
  }

  protected reqName(parent: string, glob = false): string {
    return this.req(this.parseName(parent, glob), parent);
  }

  /** Parses a string: up to a space or `;`, or from a double quote to the next one. */
  protected parseString(): string | undefined {
    this.skipWs();
    const start = this.pos;
    if (this.curr() === '"') {
      const close = this.text.indexOf('"', this.pos + 1);
      this.pos = close < 0 ? this.text.length : close + 1;
    } else {
      while (this.more() && !this.eoc() && !isWs(this.curr())) this.pos++;
    }
    const s = stripQuotes(this.text.slice(start, this.pos));
    return s === '' ? undefined : s;
  }

  protected reqString(parent: string): string {
    return this.req(this.parseString(), parent);
  }

  /**
   * Parses the rest of the line, `;` included; optionally drops enclosing double quotes. A `;`
   * right where the argument would start ends the command instead (`CREATE DB a; OPEN a`).
   */
  protected parseRest(quotes: boolean): string | undefined {
    this.skipWs();
    if (this.curr() === ';') return undefined;
    const rest = this.text.slice(this.pos);
    this.pos = this.text.length;
    const s = quotes ? stripQuotes(rest) : rest;
    return s === '' ? undefined : s;
  }

  /** Parses an optional integer (INFO STORAGE). */
  protected parseNumber(parent: string): string | undefined {
    this.skipWs();
    const m = /^-?\d+/.exec(this.text.slice(this.pos));
    if (m === null) {
      if (this.eoc()) return undefined;
      throw this.syntax(parent);
    }
    this.pos += m[0].length;
    if (!(this.eoc() || isWs(this.curr()))) throw this.syntax(parent);
    return m[0];
  }

  protected req<T>(value: T | undefined, parent: string): T {
    if (value === undefined) throw this.syntax(parent);
    return value;
  }

  protected syntax(keyword: string) {
    const help = commandHelp(keyword, true) ?? `${keyword}\n`;
    return commandError('SYNTAX_X', help.trimEnd());
  }

  protected skipWs(): void {
    while (isWs(this.curr())) this.pos++;
  }

  protected curr(): string {
    return this.pos < this.text.length ? this.text[this.pos] : '';
  }

  protected more(): boolean {
    return this.pos < this.text.length;
  }

  /** End of command: end of input or `;`. */
  private eoc(): boolean {
    return !this.more() || this.curr() === ';';
  }
}

/** Removes one leading and one trailing double quote. */
function stripQuotes(s: string): string {
  return s.replace(/^"/, '').replace(/"$/, '');
}
