/**
 * The `csv` output method, for the shapes our CSV input conversion produces and the obvious
 * XDM ones:
 * - a `<csv>` document or element whose `<record>` children hold one element per field
 *   (BaseX's "direct" format); with `header` the first record's field names form a header line;
 * - the fn:csv-to-xml vocabulary (BaseX's `w3-xml` format);
 * - BaseX's map formats `xquery` (`records`, `names`) and `w3` (`rows`, `columns`);
 * - an array of arrays (or a sequence of arrays): one row per array, one field per member;
 * - a sequence of atomic values: one row each.
 * Options come from `csv-header`, `csv-separator`, `csv-quote-character` and BaseX's nested
 * `csv` parameter (`header=yes,separator=semicolon`), or from csv:serialize's map. Fields
 * containing the separator, the quote character or a line break are quoted, with quotes doubled
 * (or, with `backslashes`, escaped by a backslash); `quotes=no` writes every field as it is.
 * Lines end with `\n`.
 */
import { separatorChar } from '../../convert/csv';
import { FN_NS } from '../../convert/names';
import { serializationError, serializationParamError } from '../query-error';
import { NodeKind, isArray, isAtomic, isDocumentNode, isMap, isNode, stringValue, type XdmItem, type XdmMap, type XdmNode } from '../../saxon';
import { nestedOptions, yes, type SerializationParams } from './params';

export interface CsvOptions {
  readonly header: boolean;
  readonly separator: string;
  readonly quote: string;
  /** csv:serialize: `attributes` takes the header from the fields' `name` attributes. Default `direct`. */
  readonly format?: 'direct' | 'attributes';
  /** csv:serialize: false writes fields as they are, never quoted. Default true. */
  readonly quotes?: boolean;
  /** csv:serialize: a quote inside a quoted field is written `\"` instead of `""`. Default false. */
  readonly backslashes?: boolean;
}

/**
 * The options of the csv method from a request's serialization parameters: the standard
 * `csv-header`, `csv-separator`, `csv-quote-character` win over the same options in BaseX's
 * nested `csv` parameter (`header=yes,separator=semicolon,format=attributes,quotes=no`).
 */
export function csvOptions(params: SerializationParams): CsvOptions {
  const nested = nestedOptions(params.csv);
  const separator = params['csv-separator'] ?? nested.separator ?? ',';
  const quote = params['csv-quote-character'] ?? nested.quote ?? '"';
  const sep = separatorChar(separator);
  if (sep === undefined) throw serializationParamError('SEPM0016', `Invalid CSV separator: "${separator}".`);
  if ([...quote].length !== 1) throw serializationParamError('SEPM0016', `Invalid CSV quote character: "${quote}".`);
  return {
    header: yes(params['csv-header'] ?? nested.header),
    separator: sep,
    quote,
    format: nested.format === 'attributes' ? 'attributes' : 'direct',
    quotes: nested.quotes === undefined ? undefined : yes(nested.quotes),
    backslashes: nested.backslashes === undefined ? undefined : yes(nested.backslashes),
  };
}

function elementChildren(node: XdmNode): XdmNode[] {
  const kids = (node as unknown as { childNodes: ArrayLike<XdmNode> }).childNodes;
  return Array.from(kids).filter((c) => c.nodeType === NodeKind.element);
}

const localName = (n: XdmNode): string => (n as unknown as { localName: string }).localName;
const textOf = (n: XdmNode): string => (n as unknown as { textContent: string | null }).textContent ?? '';

function field(value: string, o: CsvOptions): string {
  if (o.quotes === false) return value;
  const needsQuotes = value.includes(o.separator) || value.includes(o.quote) || /[\r\n]/.test(value);
  const escaped = o.backslashes ? value.replace(/\\/g, '\\\\') : value;
  return needsQuotes ? o.quote + escaped.split(o.quote).join((o.backslashes ? '\\' : o.quote) + o.quote) + o.quote : value;
}

/** A field's name in a header line: its `name` attribute in the attributes format, else its element name. */
function fieldName(node: XdmNode, o: CsvOptions): string {
  const name = o.format === 'attributes' ? (node as unknown as { getAttribute(n: string): string | null }).getAttribute('name') : null;
  return name ?? localName(node);
}

function rowsOf(items: XdmItem[], o: CsvOptions): { header?: string[]; rows: string[][] } {
  if (items.length === 1 && isNode(items[0])) {
    let root = items[0];
    if (isDocumentNode(root)) {
      const top = elementChildren(root);
      if (top.length !== 1) throw serializationError('SERE0014', 'CSV output needs one root element.');
      root = top[0];
    }
    if (root.nodeType !== NodeKind.element) throw serializationError('SERE0014', 'CSV output needs a <csv> element.');
    if ((root as unknown as { namespaceURI: string | null }).namespaceURI === FN_NS) return w3XmlRows(root, o);
    const records = elementChildren(root);
    const rows = records.map((r) => elementChildren(r).map(textOf));
    const header = o.header && records.length > 0 ? elementChildren(records[0]).map((f) => fieldName(f, o)) : undefined;
    return { header, rows };
  }
  if (items.length === 1 && isMap(items[0])) return xqueryRows(items[0], o);
  const flat = items.length === 1 && isArray(items[0]) && items[0].value.every((m) => m.length === 1 && isArray(m[0]))
    ? items[0].value.map((m) => m[0])
    : items;
  const rows = flat.map((item) => {
    if (isArray(item)) return item.value.map((member) => member.map((m) => (isAtomic(m) || isNode(m) ? stringOf(m) : '')).join(' '));
    if (isAtomic(item)) return [item.toString()];
    if (isNode(item)) return [textOf(item)];
    throw serializationError('SERE0014', 'Maps and functions cannot be written as CSV.');
  });
  return { rows };
}

/**
 * The fn:csv-to-xml vocabulary (XPath F&O 4.0; BaseX's `w3-xml` format): `<csv>` with optional
 * `<columns><column>` names and `<rows><row><field>`, in the fn namespace.
 */
function w3XmlRows(root: XdmNode, o: CsvOptions): { header?: string[]; rows: string[][] } {
  const part = (name: string): XdmNode[] => elementChildren(root).filter((c) => localName(c) === name).flatMap(elementChildren);
  const names = part('columns').map(textOf);
  return { header: o.header && names.length > 0 ? names : undefined, rows: part('rows').map((row) => elementChildren(row).map(textOf)) };
}

const stringOf = (m: XdmItem): string => (isAtomic(m) ? m.toString() : textOf(m as XdmNode));

/**
 * BaseX's map formats: `xquery`, a map with `records` (arrays of fields) and, optionally, `names`
 * (an array); `w3`, the fn:parse-csv record (XPath F&O 4.0), with `rows` (arrays of fields) and
 * `columns` (the names, a sequence of strings).
 */
function xqueryRows(map: XdmMap, o: CsvOptions): { header?: string[]; rows: string[][] } {
  const entry = (key: string): XdmItem[] => map.get(stringValue(key)) ?? [];
  const fields = (a: XdmItem): string[] => {
    if (!isArray(a)) throw serializationError('SERE0014', 'CSV records must be arrays.');
    return a.value.map((member) => member.map(stringOf).join(' '));
  };
  const w3 = entry('records').length === 0 && entry('rows').length > 0;
  const names = w3 ? entry('columns').map(stringOf) : entry('names').flatMap(fields);
  return { header: o.header && names.length > 0 ? names : undefined, rows: (w3 ? entry('rows') : entry('records')).map(fields) };
}

export function serializeCsv(items: XdmItem[], o: CsvOptions): string {
  if (items.length === 0) return '';
  const { header, rows } = rowsOf(items, o);
  const lines = (header ? [header, ...rows] : rows).map((r) => r.map((f) => field(f, o)).join(o.separator));
  return lines.map((l) => `${l}\n`).join('');
}
