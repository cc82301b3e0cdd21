/**
 * BaseX's JSON Module (docs.basex.org, "JSON Functions"), as saxon-js extension functions in
 * namespace `http://basex.org/modules/json` (prefix `json`):
 *
 *   json:parse($value as xs:string?, $options as map(*)? := {}) as item()?
 *   json:doc($href as xs:string?, $options as map(*)? := {}) as item()?
 *   json:serialize($input as item()?, $options as map(*)? := {}) as xs:string
 *
 * Formats (option `format`): `direct` (default), `attributes`, `basic` (the fn:json-to-xml
 * vocabulary), `jsonml` give a document node; `xquery` gives maps, arrays, strings, xs:double
 * numbers, booleans, and the empty sequence for null. Parsing is the input conversion of stored
 * JSON (convert/json.ts, with the options it has: `liberal`, `merge`, `strings`, `lax`,
 * `duplicates`, `escape` for basic); in the xquery format a repeated key keeps its first value (as fn:parse-json).
 * Serialization is the json output method of the REST layer (serialization/json-output.ts), with
 * options `format` (XML in that format is written as the JSON it stands for), `indent` (default
 * no), `escape` (default yes), `lax`; the empty sequence is `null`.
 *
 * json:doc reads through the file rules of fn:unparsed-text (guards/resource-guard.ts): a URI without a
 * scheme names a stored resource, anything else a host file, readable only with allowFileAccess
 * by an admin. Errors: invalid JSON is `[json:parse]`, XML that breaks its format's rules
 * `[json:serialize]`; options are checked as BaseX does (functions/support/option-maps.ts).
 */
import { convertJson, type JsonFormat } from '../../convert/json';
import { readJson, type JsonValue } from '../../convert/json-reader';
import { parseToCompactDom } from '../../convert/xml';
import { XmldbError } from '../../xmldb-error';
import { serializeJson as jsonOutput, type JsonFormat as OutputFormat } from '../serialization/json-output';
import { arrayValue, castString, saxon, stringValue, xpathError, type XdmItem, type XdmNode, type XdmValue } from '../../saxon';
import { moduleError, type OptionValues } from './support/option-maps';
import { registerTextFormat } from './support/text-format';

const FORMATS = ['direct', 'attributes', 'basic', 'jsonml', 'xquery'] as const;
type Format = (typeof FORMATS)[number];

const PARSE_OPTIONS = {
  format: FORMATS,
  liberal: 'boolean',
  merge: 'boolean',
  strings: 'boolean',
  lax: 'boolean',
  duplicates: ['retain', 'use-first', 'use-last', 'reject'],
  escape: 'boolean',
} as const;

const SERIALIZE_OPTIONS = { format: FORMATS, indent: 'boolean', escape: 'boolean', lax: 'boolean' } as const;

/** Our converter's name for each XML format. */
const CONVERTER_FORMATS: Readonly<Record<Exclude<Format, 'xquery'>, JsonFormat>> = { direct: 'direct', attributes: 'attributes', basic: 'w3-xml', jsonml: 'jsonml' };

/** Runs a conversion; its input errors (400 XmldbErrors from convert/) become `json:parse`. */
function parsing<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof XmldbError) throw moduleError('json', 'parse', e.message);
    throw e;
  }
}

function parse(text: string, options: OptionValues): XdmValue {
  const format = (options.format ?? 'direct') as Format;
  const bool = (name: string): boolean | undefined => options[name] as boolean | undefined;
  if (format === 'xquery') {
    const value = parsing(() => readJson(text, { liberal: bool('liberal'), duplicates: (options.duplicates as 'retain' | undefined) ?? 'use-first' }));
    return toXdm(value);
  }
  const written = parsing(() =>
    convertJson(text, {
      format: CONVERTER_FORMATS[format],
      liberal: bool('liberal'),
      merge: bool('merge'),
      strings: bool('strings'),
      lax: bool('lax'),
      duplicates: options.duplicates as 'retain' | undefined,
      escape: bool('escape'),
    }),
  );
  return [parseToCompactDom(written.xml) as XdmNode];
}

/** A JSON value as XDM (the xquery format). */
function toXdm(v: JsonValue): XdmValue {
  switch (v.type) {
    case 'object': {
      const map = new (saxon().XdmMap)();
      const seen = new Set<string>();
      for (const [key, value] of v.members) {
        if (seen.has(key)) continue;
        seen.add(key);
        map.inSituPut(stringValue(key), toXdm(value));
      }
      return [map as XdmItem];
    }
    case 'array':
      return [arrayValue(v.items.map(toXdm))];
    case 'string':
      return [stringValue(v.value)];
    case 'number':
      return [castString(v.text, 'double')];
    case 'boolean':
      return [castString(String(v.value), 'boolean')];
    case 'null':
      return [];
  }
}

function serializeJson(input: XdmValue, options: OptionValues): string {
  if (input.length === 0) return 'null';
  if (input.length > 1) throw xpathError('json:serialize: at most one item expected.', 'XPTY0004');
  return jsonOutput(input[0], {
    format: (options.format as OutputFormat | undefined) ?? 'direct',
    indent: options.indent === true,
    escape: options.escape !== false,
    lax: options.lax === true,
    allowDuplicateNames: false,
    nodeOutputMethod: 'xml',
  });
}

/** Registers the json: functions with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerJsonFunctions(): void {
  registerTextFormat('json', { parseOptions: PARSE_OPTIONS, serializeOptions: SERIALIZE_OPTIONS, parse, serialize: serializeJson });
}
