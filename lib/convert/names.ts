/**
 * XML names (XML 1.0 fifth edition, productions 4, 4a, 5; Namespaces in XML 1.0, NCName) and the
 * rewriting of arbitrary strings (JSON keys, CSV headers, HTML names) into element names.
 */

/** Namespace of the fn:json-to-xml and fn:csv-to-xml vocabularies (`w3-xml` formats). */
export const FN_NS = 'http://www.w3.org/2005/xpath-functions';

const START =
  'A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C-\\u200D' +
  '\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}';
const CHAR = START + '\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040';

/** NameStartChar minus ':' as a character class body; NameChar minus ':' likewise. */
export const NC_START_CLASS = START;
export const NC_CHAR_CLASS = CHAR;

const NCNAME = new RegExp(`^[${START}][${CHAR}]*$`, 'u');
const QNAME = new RegExp(`^[${START}][${CHAR}]*(?::[${START}][${CHAR}]*)?$`, 'u');
const START_CHAR = new RegExp(`^[${START}]$`, 'u');
const NAME_CHAR = new RegExp(`^[${CHAR}]$`, 'u');

export function isNCName(s: string): boolean {
  return NCNAME.test(s);
}

/** `prefix:local` or `local`, both NCNames. */
export function isQName(s: string): boolean {
  return QNAME.test(s);
}

export function isNameStartChar(ch: string): boolean {
  return START_CHAR.test(ch);
}

export function isNameChar(ch: string): boolean {
  return NAME_CHAR.test(ch);
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
