/**
 * JSON → XML (spec §14.1). Formats: `direct` (default), `attributes`, `jsonml`, `w3-xml`
 * (the fn:json-to-xml vocabulary). Parameters: `lax`, `merge` (direct), `strings`
 * (direct/attributes), `duplicates`, `liberal`, `escape` (w3-xml). Number literals are copied
 * verbatim; characters XML cannot hold become U+FFFD.
 */
import { convertError } from './conversion-errors';
import { readJson, type Duplicates, type JsonValue } from './json-reader';
import { encodeName, FN_NS, isNCName } from './names';
import { sanitizeChars, XmlWriter, type Pair, type WrittenXml } from './writer';

export type JsonFormat = 'direct' | 'attributes' | 'jsonml' | 'w3-xml';

export interface JsonOptions {
  readonly format?: JsonFormat;
  /** direct: lossy names (invalid characters → `_`). Default false. */
  readonly lax?: boolean;
  /** direct: list types on the root element instead of per element. Default false. */
  readonly merge?: boolean;
  /** direct, attributes: also give strings a type. Default false. */
  readonly strings?: boolean;
  /** Key occurring twice in one object. Default `retain` (both kept). */
  readonly duplicates?: Duplicates;
  /** Accept non-standard JSON (see json-reader.ts). Default false. */
  readonly liberal?: boolean;
  /** w3-xml: keep JSON escapes in strings and keys, marked with `escaped`/`escaped-key`. Default false. */
  readonly escape?: boolean;
  /** Resource name for messages. */
  readonly name?: string;
}

/** Converts JSON text; throws a 400 `XmldbError` for invalid JSON (or invalid JsonML). */
export function convertJson(text: string, options: JsonOptions = {}): WrittenXml {
  const value = readJson(text, { liberal: options.liberal, duplicates: options.duplicates, name: options.name });
  const w = new XmlWriter();
  switch (options.format ?? 'direct') {
    case 'direct':
      writeDirect(w, value, options);
      break;
    case 'attributes':
      writeAttributes(w, JSON_XML_NAMES.root, [], value, options.strings === true);
      break;
    case 'jsonml':
      writeJsonml(w, value);
      break;
    case 'w3-xml':
      writeW3(w, value, undefined, options.escape === true, true);
      break;
  }
  return w.finish();
}

/** Text of a scalar: strings as they are, numbers verbatim, booleans as `true`/`false`. */
function scalarText(v: JsonValue): string | undefined {
  switch (v.type) {
    case 'string':
      return sanitizeChars(v.value);
    case 'number':
      return v.text;
    case 'boolean':
      return String(v.value);
    default:
      return undefined;
  }
}

// --- direct ------------------------------------------------------------------------------

/**
 * The element names of BaseX's JSON formats (docs.basex.org, "JSON Functions", Conversion
 * Formats): the root, an array member in `direct`, an object member and an array member in
 * `attributes`. serialization/json-from-xml.ts reads them back.
 */
export const JSON_XML_NAMES = { root: 'json', member: '_', pair: 'pair', item: 'item' } as const;

/** Each JSON type, with the root attribute that lists the names of that type with `merge`. */
export const MERGE_ATTRIBUTES: readonly (readonly [JsonValue['type'], string])[] = [
  ['array', 'arrays'],
  ['boolean', 'booleans'],
  ['null', 'nulls'],
  ['number', 'numbers'],
  ['object', 'objects'],
  ['string', 'strings'],
];

function writeDirect(w: XmlWriter, root: JsonValue, options: JsonOptions): void {
  const lax = options.lax === true;
  const strings = options.strings === true;
  // merge: element name → its types throughout the document
  const types = new Map<string, Set<JsonValue['type']>>();
  if (options.merge) {
    const collect = (name: string, v: JsonValue): void => {
      let set = types.get(name);
      if (set === undefined) types.set(name, (set = new Set()));
      set.add(v.type);
      if (v.type === 'object') for (const [k, c] of v.members) collect(encodeName(k, lax), c);
      else if (v.type === 'array') for (const c of v.items) collect(JSON_XML_NAMES.member, c);
    };
    collect(JSON_XML_NAMES.root, root);
  }
  const typeAttribute = (name: string, v: JsonValue): Pair[] => {
    if (options.merge && types.get(name)!.size === 1) return [];
    return v.type === 'string' && !strings ? [] : [['type', v.type]];
  };
  const write = (name: string, attributes: Pair[], v: JsonValue): void => {
    w.startElement(name, attributes);
    if (v.type === 'object') for (const [k, c] of v.members) { const n = encodeName(k, lax); write(n, typeAttribute(n, c), c); }
    else if (v.type === 'array') for (const c of v.items) write(JSON_XML_NAMES.member, typeAttribute(JSON_XML_NAMES.member, c), c);
    else {
      const text = scalarText(v);
      if (text !== undefined) w.characters(text);
    }
    w.endElement();
  };
  const rootAttributes = typeAttribute(JSON_XML_NAMES.root, root);
  if (options.merge) {
    for (const [type, attribute] of MERGE_ATTRIBUTES) {
      if (type === 'string' && !strings) continue;
      const names = [...types].filter(([, set]) => set.size === 1 && set.has(type)).map(([n]) => n);
      if (names.length > 0) rootAttributes.push([attribute, names.join(' ')]);
    }
  }
  write(JSON_XML_NAMES.root, rootAttributes, root);
}

// --- attributes --------------------------------------------------------------------------

function writeAttributes(w: XmlWriter, name: string, attributes: Pair[], v: JsonValue, strings: boolean): void {
  const typed = (a: Pair[], c: JsonValue): Pair[] => (c.type === 'string' && !strings ? a : [...a, ['type', c.type]]);
  w.startElement(name, typed(attributes, v));
  if (v.type === 'object') for (const [k, c] of v.members) writeAttributes(w, JSON_XML_NAMES.pair, [['name', sanitizeChars(k)]], c, strings);
  else if (v.type === 'array') for (const c of v.items) writeAttributes(w, JSON_XML_NAMES.item, [], c, strings);
  else {
    const text = scalarText(v);
    if (text !== undefined) w.characters(text);
  }
  w.endElement();
}

// --- jsonml ------------------------------------------------------------------------------

/** JsonML element: `["name", {attributes}?, children…]`; children are strings or elements. */
function writeJsonml(w: XmlWriter, v: JsonValue): void {
  if (v.type !== 'array' || v.items.length === 0 || v.items[0].type !== 'string') {
    throw convertError('JSON_JSONML_X', 'an element must be an array starting with its name');
  }
  const name = v.items[0].value;
  if (!isNCName(name)) throw convertError('JSON_JSONML_X', `invalid element name "${name}"`);
  let rest = v.items.slice(1);
  const attributes: Pair[] = [];
  if (rest.length > 0 && rest[0].type === 'object') {
    const seen = new Set<string>();
    for (const [an, av] of rest[0].members) {
      if (!isNCName(an) || an === 'xmlns') throw convertError('JSON_JSONML_X', `invalid attribute name "${an}"`);
      const text = av.type === 'null' ? '' : scalarText(av);
      if (text === undefined) throw convertError('JSON_JSONML_X', `attribute "${an}" has a structured value`);
      if (seen.has(an)) continue;
      seen.add(an);
      attributes.push([an, text]);
    }
    rest = rest.slice(1);
  }
  w.startElement(name, attributes);
  for (const c of rest) {
    if (c.type === 'string') w.characters(sanitizeChars(c.value));
    else if (c.type === 'array') writeJsonml(w, c);
    else throw convertError('JSON_JSONML_X', `a child must be a string or an element, not ${c.type === 'object' ? 'an object' : 'a ' + c.type}`);
  }
  w.endElement();
}

// --- w3-xml (fn:json-to-xml) -------------------------------------------------------------

const ESCAPE_NEEDED = /[\\\u0000-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const SHORT_ESCAPES: Readonly<Record<string, string>> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/** JSON escapes for backslash and characters XML cannot hold (escape=true). */
function jsonEscape(s: string): string {
  return s.replace(ESCAPE_NEEDED, (c) => SHORT_ESCAPES[c] ?? '\\u' + c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0'));
}

function writeW3(w: XmlWriter, v: JsonValue, key: string | undefined, escape: boolean, root: boolean): void {
  const attributes: Pair[] = [];
  if (key !== undefined) {
    const k = escape ? jsonEscape(key) : sanitizeChars(key);
    attributes.push(['key', k]);
    if (escape && k.includes('\\')) attributes.push(['escaped-key', 'true']);
  }
  const name = v.type === 'object' ? 'map' : v.type;
  let text: string | undefined;
  if (v.type === 'string') {
    text = escape ? jsonEscape(v.value) : sanitizeChars(v.value);
    if (escape && text.includes('\\')) attributes.push(['escaped', 'true']);
  } else text = scalarText(v);
  w.startElement(name, attributes, root ? [['', FN_NS]] : []);
  if (v.type === 'object') for (const [k, c] of v.members) writeW3(w, c, k, escape, false);
  else if (v.type === 'array') for (const c of v.items) writeW3(w, c, undefined, escape, false);
  else if (text !== undefined) w.characters(text);
  w.endElement();
}
