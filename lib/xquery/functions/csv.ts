/**
 * BaseX's CSV Module (docs.basex.org, "CSV Functions"), as saxon-js extension functions in
 * namespace `http://basex.org/modules/csv` (prefix `csv`):
 *
 *   csv:parse($value as xs:string?, $options as map(*)? := {}) as item()?
 *   csv:doc($href as xs:string?, $options as map(*)? := {}) as item()?
 *   csv:serialize($input as item()?, $options as map(*)? := {}) as xs:string
 *
 * Options: `separator` (`comma` (default), `semicolon`, `colon`, `tab`, `space` or one
 * character), `header` (the first line names the fields; default false), `format`, `quotes`
 * (default true), `backslashes` (default false), `lax` (header names to element names, default
 * true), and for parsing `skip-empty` and `trim-whitespace`. Formats: `direct` (default:
 * `<csv><record><entry>`, or elements named by the header), `attributes` (`<entry name="…">`),
 * `w3-xml` (the fn:csv-to-xml vocabulary) give a document node; `xquery` gives a map with
 * `records` (one array of strings per record) and, with a header, `names` (an array).
 *
 * Parsing is the input conversion of stored CSV (convert/csv.ts); serializing is the csv output
 * method (serialization/csv-output.ts), which takes these documents and maps, arrays and atomic values. csv:doc
 * reads as json:doc does (guards/resource-guard.ts). Unreadable CSV is `[csv:parse]`; options are
 * checked as BaseX does (functions/support/option-maps.ts).
 */
import { convertCsv, readCsv, separatorChar, type CsvOptions as ParseOptions } from '../../convert/csv';
import { parseToCompactDom } from '../../convert/xml';
import { XmldbError } from '../../xmldb-error';
import { serializeCsv } from '../serialization/csv-output';
import { arrayValue, saxon, stringValue, xpathError, type XdmItem, type XdmNode, type XdmValue } from '../../saxon';
import { moduleError, type OptionValues } from './support/option-maps';
import { registerTextFormat } from './support/text-format';

const OPTIONS = {
  separator: 'string',
  header: 'boolean',
  format: ['direct', 'attributes', 'w3-xml', 'xquery'],
  quotes: 'boolean',
  backslashes: 'boolean',
  lax: 'boolean',
  'skip-empty': 'boolean',
  'trim-whitespace': 'boolean',
} as const;

function separator(options: OptionValues): string {
  const value = (options.separator as string | undefined) ?? 'comma';
  const char = separatorChar(value);
  if (char === undefined) throw xpathError(`Invalid separator: '${value}'.`, 'XPTY0004');
  return char;
}

function parseOptions(options: OptionValues): ParseOptions {
  const format = options.format as string | undefined;
  return {
    format: format === 'attributes' || format === 'w3-xml' ? format : 'direct',
    header: options.header === true,
    separator: separator(options),
    quotes: options.quotes as boolean | undefined,
    backslashes: options.backslashes as boolean | undefined,
    lax: options.lax as boolean | undefined,
    skipEmpty: options['skip-empty'] as boolean | undefined,
    trimWhitespace: options['trim-whitespace'] as boolean | undefined,
  };
}

function parse(text: string, options: OptionValues): XdmValue {
  const converter = parseOptions(options);
  try {
    if (options.format !== 'xquery') return [parseToCompactDom(convertCsv(text, converter).xml) as XdmNode];
    const { header, rows } = readCsv(text, converter);
    const fields = (row: string[]): XdmItem => arrayValue(row.map((f) => [stringValue(f)]));
    const map = new (saxon().XdmMap)();
    map.inSituPut(stringValue('records'), rows.map(fields));
    if (header !== undefined) map.inSituPut(stringValue('names'), [fields(header)]);
    return [map as XdmItem];
  } catch (e) {
    if (e instanceof XmldbError) throw moduleError('csv', 'parse', e.message);
    throw e;
  }
}

function serialize(input: XdmValue, options: OptionValues): string {
  if (input.length > 1) throw xpathError('csv:serialize: at most one item expected.', 'XPTY0004');
  return serializeCsv(input, {
    header: options.header === true,
    separator: separator(options),
    quote: '"',
    format: options.format === 'attributes' ? 'attributes' : 'direct',
    quotes: options.quotes as boolean | undefined,
    backslashes: options.backslashes as boolean | undefined,
  });
}

/** Registers the csv: functions with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerCsvFunctions(): void {
  registerTextFormat('csv', { parseOptions: OPTIONS, serializeOptions: OPTIONS, parse, serialize });
}
