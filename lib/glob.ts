/**
 * Glob patterns of names (`*` any run of characters, `?` one), as commands (DROP DB, CREATE and
 * DROP BACKUP, user commands, CREATEFILTER) and grants (GRANT … ON pattern) take them.
 *
 * Matching never backtracks: the pattern is cut at its stars into segments; the first must
 * match at the start of the name, the last at its end, and each one between is taken at its
 * leftmost place after the one before. The leftmost place is always right: whatever the later
 * segments match after a later place, they match after the leftmost one too. A match costs at
 * most (name length × pattern length) character comparisons, whatever the stars, where a
 * backtracking matcher (a regular expression) takes time exponential in their number.
 *
 * Pattern lists are bounded too (`patternList`): at most MAX_PATTERNS patterns of at most
 * MAX_PATTERN_LENGTH characters each, so that a command's matching is bounded by the number of
 * names alone.
 */
import { entry, raise } from './xmldb-error';

/** Longest pattern: a name has at most 255 bytes; a longer pattern only adds stars. */
export const MAX_PATTERN_LENGTH = 512;
/** Most patterns in one comma-separated list. */
export const MAX_PATTERNS = 64;

export const GLOB_ERRORS = {
  PATTERN_TOO_LONG_X: entry(400, `Pattern longer than ${MAX_PATTERN_LENGTH} characters: '%…'.`),
  TOO_MANY_PATTERNS: entry(400, `More than ${MAX_PATTERNS} patterns.`),
} as const;

/** Whether a pattern has wildcards (a name without them matches itself only). */
export function isGlob(pattern: string): boolean {
  return pattern.includes('*') || pattern.includes('?');
}

/** Answers `pattern` if it is not too long; PATTERN_TOO_LONG_X otherwise. */
export function checkPattern(pattern: string): string {
  if (pattern.length > MAX_PATTERN_LENGTH) throw raise(GLOB_ERRORS, 'PATTERN_TOO_LONG_X', pattern.slice(0, 32));
  return pattern;
}

/** The patterns of a comma-separated list (empty ones dropped), each checked, at most MAX_PATTERNS. */
export function patternList(list: string): string[] {
  const patterns = list.split(',').filter((p) => p !== '');
  if (patterns.length > MAX_PATTERNS) throw raise(GLOB_ERRORS, 'TOO_MANY_PATTERNS');
  return patterns.map(checkPattern);
}

/** Whether `segment` (`?` any character) matches `name` at `at`. */
function matchesAt(segment: string, name: string, at: number): boolean {
  for (let i = 0; i < segment.length; i++) {
    const c = segment.charCodeAt(i);
    if (c !== QUESTION && c !== name.charCodeAt(at + i)) return false;
  }
  return true;
}

const QUESTION = '?'.charCodeAt(0);

/** Whether `name` matches the glob `pattern` (`*` any run, `?` one character). */
export function globMatches(pattern: string, name: string): boolean {
  const segments = pattern.split('*');
  const first = segments[0];
  if (segments.length === 1) return name.length === first.length && matchesAt(first, name, 0);
  const last = segments[segments.length - 1];
  const end = name.length - last.length;
  if (end < first.length || !matchesAt(first, name, 0) || !matchesAt(last, name, end)) return false;
  let at = first.length;
  for (let s = 1; s < segments.length - 1; s++) {
    const segment = segments[s];
    while (at + segment.length <= end && !matchesAt(segment, name, at)) at++;
    if (at + segment.length > end) return false;
    at += segment.length;
  }
  return true;
}
