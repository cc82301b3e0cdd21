/**
 * Serialization parameter names and value checks (spec §2.3), one rule for every source: the
 * query string, POST `<parameter>`, `declare option output:*` and the SERIALIZER option. An
 * invalid value is the client's error: 400 `[SEPM0016]`, the code Serialization 3.1 gives a
 * parameter value outside its domain (and BaseX's for invalid serialization parameters).
 */
import { separatorChar } from '../../convert/csv';
import { serializationParamError, type QueryError } from '../query-error';

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

/**
 * Parameters whose value is text written into the body, where a tab or a line end is data
 * (`item-separator=&#10;`); no other value has a use for a control character.
 */
const TEXT_PARAMS = new Set(['item-separator', 'newline', 'line-ending', 'indent-unit', 'csv-separator', 'csv-quote-character']);
/** C0 controls, DEL and C1 controls, but tab, LF and CR. */
const CONTROL = /[\0-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/;
/** C0 controls, DEL and C1 controls. */
const CONTROL_OR_LINE_END = /[\0-\x1f\x7f-\x9f]/;
/**
 * Anything but visible ASCII and space: `media-type` is sent as the Content-Type header, whose
 * value may hold no line end (a second header) and, to be read alike by every client, nothing
 * beyond ASCII (RFC 9110 §5.5).
 */
const NOT_HEADER_TEXT = /[^\x20-\x7e]/;

function codePoint(c: string): string {
  return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** A character `value` may not hold as parameter `name`, described; undefined if there is none. */
function unsafeCharacter(name: string, value: string): string | undefined {
  const control = (TEXT_PARAMS.has(name) ? CONTROL : CONTROL_OR_LINE_END).exec(value);
  if (control) return `control character ${codePoint(control[0])}`;
  const outside = name === 'media-type' ? NOT_HEADER_TEXT.exec(value) : null;
  return outside ? `character ${codePoint(outside[0])} cannot be sent in a Content-Type header` : undefined;
}

/**
 * The JSON formats of BaseX's `json` parameter: `basic`, `w3` and `w3-xml` all name the
 * fn:json-to-xml vocabulary (XPath F&O 3.1 §17.5), the name changing across BaseX versions.
 */
export const JSON_FORMATS = ['direct', 'attributes', 'basic', 'w3', 'w3-xml', 'jsonml', 'xquery'] as const;
/** The CSV formats of BaseX's `csv` parameter; `w3` and `xquery` are maps (serialization/csv-output.ts). */
export const CSV_FORMATS = ['direct', 'attributes', 'w3-xml', 'xquery', 'w3'] as const;

type NestedKind = 'boolean' | 'separator' | 'character' | readonly string[];

/**
 * The options of BaseX's nested `json` and `csv` parameters (docs.basex.org, "Serialization":
 * json, csv; "JSON Functions", "CSV Functions"), with what each accepts. Options that only
 * matter when parsing (`merge`, `strings`, `skip-empty`…) are accepted and have no effect.
 */
const NESTED: Readonly<Record<'json' | 'csv', Readonly<Record<string, NestedKind>>>> = {
  json: { format: JSON_FORMATS, indent: 'boolean', escape: 'boolean', lax: 'boolean', merge: 'boolean', strings: 'boolean' },
  csv: {
    format: CSV_FORMATS, separator: 'separator', header: 'boolean', quotes: 'boolean', backslashes: 'boolean', quote: 'character',
    lax: 'boolean', 'skip-empty': 'boolean', 'trim-whitespace': 'boolean',
  },
};

/**
 * A nested parameter's value (`format=attributes,indent=yes`) as name → value; a comma inside a
 * value is doubled, as BaseX writes it (`separator=,,`).
 */
export function nestedOptions(value: string | undefined): Record<string, string> {
  const options: Record<string, string> = {};
  if (value === undefined || value.trim() === '') return options;
  for (const entry of value.split(/(?<!,),(?!,)/)) {
    const eq = entry.indexOf('=');
    const name = (eq < 0 ? entry : entry.slice(0, eq)).trim();
    if (name !== '' && !(name in options)) options[name] = eq < 0 ? '' : entry.slice(eq + 1).replace(/,,/g, ',');
  }
  return options;
}

function checkNested(param: 'json' | 'csv', value: string): string | undefined {
  for (const [name, v] of Object.entries(nestedOptions(value))) {
    const kind = NESTED[param][name];
    if (kind === undefined) return `unknown option "${name}"`;
    const bad =
      kind === 'boolean' ? !YES_NO.has(v.toLowerCase())
      : kind === 'separator' ? separatorChar(v) === undefined
      : kind === 'character' ? [...v].length !== 1
      : !kind.includes(v);
    if (bad) return `"${v}" is no valid value of option "${name}"`;
  }
  return undefined;
}

/**
 * A reason why `value` is invalid for parameter `name`, or undefined if it is fine. Characters
 * come first, so no reason repeats a control character of the value.
 */
function checkSerializationParam(name: string, value: string): string | undefined {
  const unsafe = unsafeCharacter(name, value);
  if (unsafe !== undefined) return unsafe;
  if (name === 'method' && !(METHODS as readonly string[]).includes(value)) return `unknown method "${value}"`;
  if (YES_NO_PARAMS.has(name) && !YES_NO.has(value.toLowerCase())) return `"${value}" is not yes or no`;
  if (name === 'standalone' && !YES_NO.has(value.toLowerCase()) && value !== 'omit') return `"${value}" is not yes, no or omit`;
  if (name === 'encoding' && !Buffer.isEncoding(encodingName(value))) return `unsupported encoding "${value}"`;
  if ((name === 'limit' || name === 'indents') && !/^\d+$/.test(value)) return `"${value}" is not a number`;
  if (name === 'html-version' && !/^\d+(\.\d+)?$/.test(value)) return `"${value}" is not a version number`;
  if (name === 'json' || name === 'csv') return checkNested(name, value);
  return undefined;
}

/** The 400 `[SEPM0016]` error of an invalid value of serialization parameter `name`, or undefined. */
export function invalidSerializationParam(name: string, value: string): QueryError | undefined {
  const problem = checkSerializationParam(name, value);
  return problem === undefined ? undefined : serializationParamError('SEPM0016', `Invalid value for serialization parameter "${name}": ${problem}.`);
}

/** Throws 400 `[SEPM0016]` for an invalid value of serialization parameter `name`. */
export function requireValidSerializationParam(name: string, value: string): void {
  const error = invalidSerializationParam(name, value);
  if (error !== undefined) throw error;
}

/** Database options whose value is a list of serialization parameters (BaseX's SERIALIZER, EXPORTER). */
const SERIALIZER_OPTIONS = new Set(['SERIALIZER', 'EXPORTER']);

/**
 * Checks the value of a database option (canonical name): a SERIALIZER or EXPORTER list,
 * `name=value` pairs separated by commas (a comma inside a value doubled, as BaseX writes it),
 * must name known parameters with valid values; throws 400 `[SEPM0016]` otherwise.
 */
export function requireValidSerializerOption(option: string, list: string): void {
  if (!SERIALIZER_OPTIONS.has(option) || list.trim() === '') return;
  for (const entry of list.split(/(?<!,),(?!,)/)) {
    const eq = entry.indexOf('=');
    const name = (eq < 0 ? entry : entry.slice(0, eq)).trim();
    if (!isSerializationParam(name)) throw serializationParamError('SEPM0016', `Unknown serialization parameter in ${option}: "${name.replace(CONTROL_OR_LINE_END, '?')}".`);
    requireValidSerializationParam(name, eq < 0 ? '' : entry.slice(eq + 1).replace(/,,/g, ','));
  }
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
