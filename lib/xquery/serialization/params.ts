/** Serialization parameter names and value checks (spec §2.3). */

const STANDARD = [
  'byte-order-mark', 'cdata-section-elements', 'doctype-public', 'doctype-system', 'encoding',
  'escape-uri-attributes', 'escape-solidus', 'html-version', 'include-content-type', 'indent',
  'item-separator', 'json-node-output-method', 'json-lines', 'media-type', 'method', 'normalization-form',
  'omit-xml-declaration', 'parameter-document', 'standalone', 'suppress-indentation', 'undeclare-prefixes',
  'use-character-maps', 'version', 'allow-duplicate-names', 'canonical', 'csv-header', 'csv-quote-character',
  'csv-separator',
];

const SERVER_SPECIFIC = [
  'csv', 'json', 'newline', 'line-ending', 'indent-unit', 'tabulator', 'indents', 'limit', 'binary',
  'expression', 'indent-attributes',
];

const NAMES = new Set([...STANDARD, ...SERVER_SPECIFIC]);

export const METHODS = ['xml', 'xhtml', 'html', 'text', 'json', 'csv', 'adaptive', 'basex'] as const;
export type OutputMethod = (typeof METHODS)[number];

const YES_NO = new Set(['yes', 'true', 'on', '1', 'no', 'false', 'off', '0']);
const YES_NO_PARAMS = new Set([
  'byte-order-mark', 'escape-uri-attributes', 'escape-solidus', 'include-content-type', 'indent', 'json-lines',
  'omit-xml-declaration', 'undeclare-prefixes', 'allow-duplicate-names', 'canonical', 'csv-header',
  'tabulator', 'binary', 'indent-attributes',
]);

/** Serialization parameters of one request, by name (first value wins). */
export type SerializationParams = Readonly<Record<string, string>>;

/** Whether `name` (exact, lower-case) is a serialization parameter. */
export function isSerializationParam(name: string): boolean {
  return NAMES.has(name);
}

/** A reason why `value` is invalid for parameter `name`, or undefined if it is fine. */
export function checkSerializationParam(name: string, value: string): string | undefined {
  if (name === 'method' && !(METHODS as readonly string[]).includes(value)) return `unknown method "${value}"`;
  if (YES_NO_PARAMS.has(name) && !YES_NO.has(value.toLowerCase())) return `"${value}" is not yes or no`;
  if (name === 'standalone' && !YES_NO.has(value.toLowerCase()) && value !== 'omit') return `"${value}" is not yes, no or omit`;
  if (name === 'encoding' && !Buffer.isEncoding(encodingName(value))) return `unsupported encoding "${value}"`;
  if ((name === 'limit' || name === 'indents') && !/^\d+$/.test(value)) return `"${value}" is not a number`;
  return undefined;
}

/** Node's name for an encoding label (UTF-8 → utf8, ISO-8859-1 → latin1, …). */
export function encodingName(label: string): BufferEncoding {
  const l = label.toLowerCase().replace(/[_\s]/g, '-');
  if (l === 'utf-8' || l === 'utf8') return 'utf8';
  if (l === 'utf-16' || l === 'utf-16le') return 'utf16le';
  if (l === 'iso-8859-1' || l === 'latin1' || l === 'latin-1' || l === 'us-ascii' || l === 'ascii') return l.includes('ascii') ? 'ascii' : 'latin1';
  return l as BufferEncoding;
}

export function yes(value: string | undefined): boolean {
  return value !== undefined && ['yes', 'true', 'on', '1'].includes(value.toLowerCase());
}
