/**
 * CSV → XML (spec §14.2), read with csv-parse. Formats: `direct` (default: `<csv><record><entry>`),
 * `attributes` (`<entry name="col">` with a header), `w3-xml` (the fn:csv-to-xml vocabulary).
 * A blank line gives an empty record; the trailing newline adds none; fields are not trimmed.
 */
import { parse } from 'csv-parse/sync';
import { raiseAt } from './conversion-errors';
import { encodeName, FN_NS } from './names';
import { sanitizeChars, XmlWriter, type Pair, type WrittenXml } from './writer';

export type CsvFormat = 'direct' | 'attributes' | 'w3-xml';

export interface CsvOptions {
  readonly format?: CsvFormat;
  /** The first line names the fields. Default false. */
  readonly header?: boolean;
  /** One character; `comma` (default), `semicolon`, `colon`, `tab`, `space` are resolved by {@link separatorChar}. */
  readonly separator?: string;
  /** `"` quotes fields. Default true. */
  readonly quotes?: boolean;
  /** `\"` (instead of `""`) is a quote inside a quoted field. Default false. */
  readonly backslashes?: boolean;
  /** Remove white space around fields. Default false. */
  readonly trimWhitespace?: boolean;
  /** Empty fields give no element. Default false. */
  readonly skipEmpty?: boolean;
  /** Header names: lax rewriting (invalid characters → `_`). Default true; false: lossless (§14.1 rules). */
  readonly lax?: boolean;
  /** Resource name for messages. */
  readonly name?: string;
}

const SEPARATORS: Readonly<Record<string, string>> = { comma: ',', semicolon: ';', colon: ':', tab: '\t', space: ' ' };

/** The separator character for a parameter value, or undefined if it is not valid. */
export function separatorChar(value: string): string | undefined {
  const named = SEPARATORS[value.toLowerCase()];
  if (named !== undefined) return named;
  return [...value].length === 1 && value !== '\n' && value !== '\r' && value !== '"' ? value : undefined;
}

interface CsvRow {
  readonly record: string[];
  readonly raw: string;
}

/** The records of CSV text, and with `header` the first line's names apart; throws as {@link convertCsv}. */
export function readCsv(text: string, options: CsvOptions = {}): { readonly header?: string[]; readonly rows: string[][] } {
  const rows = readRows(text, options).map((r) => (isBlankLine(r) ? [] : r.record.map(sanitizeChars)));
  const header = options.header ? rows.shift() ?? [] : undefined;
  return { header, rows };
}

/** Converts CSV text; throws a 400 `XmldbError` if it cannot be read (for example an unclosed quote). */
export function convertCsv(text: string, options: CsvOptions = {}): WrittenXml {
  const { header, rows } = readCsv(text, options);
  const w = new XmlWriter();
  const skip = (v: string): boolean => options.skipEmpty === true && v === '';
  switch (options.format ?? 'direct') {
    case 'direct': {
      const names = header?.map((h) => encodeName(h, options.lax !== false)) ?? [];
      w.startElement('csv');
      for (const row of rows) {
        w.startElement('record');
        row.forEach((v, i) => skip(v) || w.element(names[i] ?? 'entry', [], v));
        w.endElement();
      }
      w.endElement();
      break;
    }
    case 'attributes': {
      w.startElement('csv');
      for (const row of rows) {
        w.startElement('record');
        row.forEach((v, i) => skip(v) || w.element('entry', header?.[i] === undefined ? [] : [['name', header[i]]], v));
        w.endElement();
      }
      w.endElement();
      break;
    }
    case 'w3-xml': {
      w.startElement('csv', [], [['', FN_NS]]);
      if (header !== undefined) {
        w.startElement('columns');
        for (const h of header) w.element('column', [], h);
        w.endElement();
      }
      w.startElement('rows');
      for (const row of rows) {
        w.startElement('row');
        row.forEach((v, i) => {
          if (skip(v)) return;
          const attributes: Pair[] = header?.[i] === undefined || header[i] === '' ? [] : [['column', header[i]]];
          w.element('field', attributes, v);
        });
        w.endElement();
      }
      w.endElement();
      w.endElement();
      break;
    }
  }
  return w.finish();
}

/** A line with nothing on it (not even `""`) is an empty record. */
function isBlankLine(row: CsvRow): boolean {
  return row.record.length === 1 && row.record[0] === '' && row.raw.replace(/\n$/, '') === '';
}

function readRows(text: string, options: CsvOptions): CsvRow[] {
  try {
    // CR LF and CR are line ends like LF, also inside quoted fields (as in XML text)
    return parse(text.replace(/\r\n?/g, '\n'), {
      record_delimiter: '\n',
      delimiter: options.separator ?? ',',
      quote: options.quotes === false ? false : '"',
      escape: options.backslashes ? '\\' : '"',
      relax_quotes: true,
      relax_column_count: true,
      skip_empty_lines: false,
      trim: options.trimWhitespace === true,
      raw: true,
    }) as unknown as CsvRow[];
  } catch (e) {
    const err = e as { code?: string; message?: string; lines?: number };
    if (err.code === undefined || !err.code.startsWith('CSV_')) throw e;
    const at = { name: options.name, line: err.lines ?? 1 };
    if (err.code === 'CSV_QUOTE_NOT_CLOSED') throw raiseAt(at, 'CSV_QUOTE');
    throw raiseAt(at, 'CSV_INPUT_X', (err.message ?? err.code).replace(/ at line \d+.*$/s, ''));
  }
}

