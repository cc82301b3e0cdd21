/**
 * XML names (XML 1.0 fifth edition, productions 4, 4a, 5; Namespaces in XML 1.0, NCName) and the
 * rewriting of arbitrary strings (JSON keys, CSV headers, HTML names) into element names.
 */

/** Namespace of the fn:json-to-xml and fn:csv-to-xml vocabularies (`w3-xml` formats). */
export const FN_NS = 'http://www.w3.org/2005/xpath-functions';

/**
 * NameStartChar minus ':' (XML 1.0 fifth edition, production 4), as inclusive code point ranges.
 * The one definition of the name characters: the XML parser, the conversions and the XQuery
 * lexer all derive their tests from these two tables.
 */
const NAME_START_RANGES: readonly (readonly [number, number])[] = [
  [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a], [0xc0, 0xd6], [0xd8, 0xf6], [0xf8, 0x2ff], [0x370, 0x37d],
  [0x37f, 0x1fff], [0x200c, 0x200d], [0x2070, 0x218f], [0x2c00, 0x2fef], [0x3001, 0xd7ff], [0xf900, 0xfdcf],
  [0xfdf0, 0xfffd], [0x10000, 0xeffff],
];
/** What NameChar (production 4a) adds to NameStartChar. */
const NAME_ONLY_RANGES: readonly (readonly [number, number])[] = [
  [0x2d, 0x2e], [0x30, 0x39], [0xb7, 0xb7], [0x300, 0x36f], [0x203f, 0x2040],
];

const hex = (c: number): string => `\\u{${c.toString(16)}}`;
const classBody = (ranges: readonly (readonly [number, number])[]): string =>
  ranges.map(([a, b]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`)).join('');

const START = classBody(NAME_START_RANGES);
const CHAR = START + classBody(NAME_ONLY_RANGES);

/** NameStartChar minus ':' as a character class body for a `u` regular expression; NameChar minus ':' likewise. */
export const NC_START_CLASS = START;
export const NC_CHAR_CLASS = CHAR;

const NCNAME = new RegExp(`^[${START}][${CHAR}]*$`, 'u');
const QNAME = new RegExp(`^[${START}][${CHAR}]*(?::[${START}][${CHAR}]*)?$`, 'u');

function inRanges(c: number, ranges: readonly (readonly [number, number])[]): boolean {
  for (const [a, b] of ranges) {
    if (c < a) return false;
    if (c <= b) return true;
  }
  return false;
}

/** Whether the code point `c` is a NameStartChar other than ':'. */
export function isNameStartCode(c: number): boolean {
  return inRanges(c, NAME_START_RANGES);
}

/** Whether the code point `c` is a NameChar other than ':'. */
export function isNameCode(c: number): boolean {
  return inRanges(c, NAME_START_RANGES) || inRanges(c, NAME_ONLY_RANGES);
}

export function isNCName(s: string): boolean {
  return NCNAME.test(s);
}

/** `prefix:local` or `local`, both NCNames. */
export function isQName(s: string): boolean {
  return QNAME.test(s);
}

/** Whether the character `ch` (one code point) is a NameStartChar other than ':'. */
export function isNameStartChar(ch: string): boolean {
  return isNameStartCode(ch.codePointAt(0) ?? NaN);
}

/** Whether the character `ch` (one code point) is a NameChar other than ':'. */
export function isNameChar(ch: string): boolean {
  return isNameCode(ch.codePointAt(0) ?? NaN);
}

/**
 * Turns a string into an element name (NCName).
 *
 * Lossless (`lax=false`, JSON `direct` default): empty → `_`; `_` → `__`; every other character
 * that is not allowed where it stands → `_` + 4 lower-case hex digits of each UTF-16 code unit.
 *
 * Lax (`lax=true`, CSV header default): empty → `_`; a first character that is a name character
 * but cannot start a name (digit, `-`, `.`, …) gets `_` put before it; every other invalid
 * character → `_`.
 */
export function encodeName(s: string, lax: boolean): string {
  if (s === '') return '_';
  if (isNCName(s) && (lax || !s.includes('_'))) return s;
  if (lax) {
    let out = '';
    let first = true;
    for (const ch of s) {
      if (first && !isNameStartChar(ch)) out += isNameChar(ch) ? '_' + ch : '_';
      else out += isNameChar(ch) ? ch : '_';
      first = false;
    }
    return out;
  }
  let out = '';
  let first = true;
  for (const ch of s) {
    if (ch === '_') out += '__';
    else if (first ? isNameStartChar(ch) : isNameChar(ch)) out += ch;
    else for (let i = 0; i < ch.length; i++) out += '_' + ch.charCodeAt(i).toString(16).padStart(4, '0');
    first = false;
  }
  return out;
}

/**
 * The string an element name written by {@link encodeName} stands for (JSON `direct` keys,
 * `convert:decode-key`). Lossless names: `_` alone → empty; `__` → `_`; `_` + 4 hex digits → that
 * UTF-16 code unit; other characters as they are. Lax names cannot be decoded (the rewriting lost
 * the original characters): they stand for themselves, except `_` alone for the empty string.
 */
export function decodeName(name: string, lax: boolean): string {
  if (name === '_') return '';
  if (lax || !name.includes('_')) return name;
  return name.replace(/__|_([0-9a-fA-F]{4})/g, (all, code: string | undefined) => (code === undefined ? '_' : String.fromCharCode(parseInt(code, 16))));
}
