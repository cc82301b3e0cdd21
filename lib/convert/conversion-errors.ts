/**
 * Errors of the input conversions (PUT bodies, spec §8.5, §14). Every one is a client error
 * (400): the body is not well-formed for its type. Code throws an entry by name; messages that
 * point into the input get a `"name" (Line l, Column c): ` prefix via {@link raiseAt}.
 */
import { entry, raise, XmldbError, type ErrorEntry } from '../xmldb-error';

export const CONVERT_ERRORS = {
  // Decoding (all text inputs)
  INPUT_ENCODING_X: entry(400, 'Input is not valid % data.'),

  // XML (§14.5)
  XML_CHAR_X: entry(400, 'Invalid XML character (Unicode: 0x%).'),
  XML_EOF: entry(400, 'XML document structures must start and end within the same entity.'),
  XML_NO_ROOT: entry(400, 'Document has no root element.'),
  XML_PROLOG: entry(400, 'Content is not allowed in prolog.'),
  XML_TRAILING: entry(400, 'Content is not allowed after the root element.'),
  XML_EXPECTED_X: entry(400, 'Expected %.'),
  XML_NAME: entry(400, 'Invalid or missing name.'),
  XML_QNAME_X: entry(400, 'Invalid qualified name: "%".'),
  XML_END_TAG_XX: entry(400, 'Element <%> is closed by </%>.'),
  XML_DUP_ATTR_X: entry(400, 'Attribute "%" is specified more than once.'),
  XML_ATTR_LT: entry(400, "The value of an attribute must not contain '<'."),
  XML_CDATA_END: entry(400, "The sequence ']]>' is not allowed in content."),
  XML_COMMENT: entry(400, "The string '--' is not allowed in comments."),
  XML_PI_TARGET_X: entry(400, 'Invalid processing instruction target "%".'),
  XML_DECL: entry(400, 'Malformed or misplaced XML declaration.'),
  XML_MARKUP: entry(400, 'Malformed markup.'),
  XML_DOCTYPE_X: entry(400, 'Malformed document type declaration: %.'),
  XML_CHARREF_X: entry(400, 'Invalid character reference "&#%;".'),
  XML_ENTITY_X: entry(400, 'Undeclared entity "&%;".'),
  XML_EXTERNAL_ENTITY_X: entry(400, 'External entity "&%;" is not loaded.'),
  XML_UNPARSED_ENTITY_X: entry(400, 'Reference to unparsed entity "&%;".'),
  XML_ENTITY_RECURSION_X: entry(400, 'Recursive entity reference "&%;".'),
  XML_ENTITY_LIMIT: entry(400, 'Entity expansion limit exceeded.'),
  XML_ENTITY_MARKUP_X: entry(400, 'Entity "&%;" is not allowed here or has unbalanced markup.'),
  XML_PREFIX_X: entry(400, 'Namespace prefix "%" is not declared.'),
  XML_NS_DECL_X: entry(400, 'Invalid namespace declaration: %.'),
  XML_DEPTH_X: entry(400, 'Elements are nested deeper than % levels.'),
  XML_ATTRIBUTES_X: entry(400, 'An element has more than % attributes.'),

  // JSON (§14.1)
  JSON_UNEXPECTED_X: entry(400, 'Unexpected %.'),
  JSON_EOF: entry(400, 'Unexpected end of input.'),
  JSON_ESCAPE_X: entry(400, 'Invalid escape sequence "%".'),
  JSON_CONTROL_X: entry(400, 'Unescaped control character (Unicode: 0x%).'),
  JSON_NUMBER_X: entry(400, 'Invalid number "%".'),
  JSON_DUPLICATE_X: entry(400, 'Duplicate key "%".'),
  JSON_DEPTH_X: entry(400, 'Nesting is deeper than % levels.'),
  JSON_JSONML_X: entry(400, 'Invalid JsonML: %.'),

  // CSV (§14.2)
  CSV_QUOTE: entry(400, 'Quote not closed before the end of the input.'),
  CSV_INPUT_X: entry(400, 'Invalid CSV input: %.'),
} as const satisfies Record<string, ErrorEntry>;

export type ConvertErrorKey = keyof typeof CONVERT_ERRORS;

/** Where an error occurred: the resource name (if known) and a 1-based line and column. */
export interface InputLocation {
  readonly name?: string;
  readonly line: number;
  readonly column?: number;
}

/** `"doc.xml" (Line 3, Column 7): ` (BaseX puts the input name and line before its messages). */
export function locationPrefix(at: InputLocation): string {
  const pos = at.column === undefined ? `Line ${at.line}` : `Line ${at.line}, Column ${at.column}`;
  return at.name === undefined ? `(${pos}): ` : `"${at.name}" (${pos}): `;
}

/** Throwable error for a catalog entry. */
export function convertError(key: ConvertErrorKey, ...args: unknown[]): XmldbError {
  return raise(CONVERT_ERRORS, key, ...args);
}

/** Throwable error for a catalog entry, prefixed with the position in the input. */
export function raiseAt(at: InputLocation, key: ConvertErrorKey, ...args: unknown[]): XmldbError {
  const e = raise(CONVERT_ERRORS, key, ...args);
  return new XmldbError(e.status, locationPrefix(at) + e.message, e.code);
}

/** Line and column (1-based, in UTF-16 units) of an offset in a text. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  const end = Math.min(offset, text.length);
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: end - start + 1 };
}
