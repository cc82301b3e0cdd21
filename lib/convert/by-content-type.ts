/**
 * PUT bodies by content type (spec §8.1): XML is parsed, JSON/CSV/HTML are converted to XML,
 * everything else (text/plain too) is stored as bytes. Content-type parameters configure the
 * conversion (§14); unknown or invalid ones are ignored. Text is decoded with the `charset` (or
 * `encoding`) parameter, default UTF-8 (XML also honours a BOM and its encoding declaration);
 * a BOM is removed.
 */
import { convertError } from './conversion-errors';
import { convertCsv, separatorChar, type CsvFormat, type CsvOptions } from './csv';
import type * as HtmlModule from './html';
import { convertJson, type JsonFormat, type JsonOptions } from './json';
import type { Duplicates } from './json-reader';
import { parseToStoredBytes, parseToStoredXml } from './xml';
import { offload } from '../threads/offload';

export type InputKind = 'xml' | 'json' | 'csv' | 'html' | 'binary';

export interface MediaType {
  /** `type/subtype`, lower case, without parameters; '' if the header is absent or empty. */
  readonly type: string;
  /** Parameters with lower-case names. */
  readonly params: ReadonlyMap<string, string>;
}

export interface ConvertOptions {
  /** STRIPWS: drop whitespace-only text nodes (XML, HTML). */
  readonly stripws?: boolean;
  /** STRIPNS: remove namespaces (XML). */
  readonly stripns?: boolean;
  /** Resource name, used in error messages. */
  readonly name?: string;
}

export type ConvertedInput =
  | {
      readonly type: 'xml';
      /** The normalised document to store. */
      readonly data: string;
      /** Node count (spec §4). */
      readonly nodes: number;
      /** Suffix for a database created from this input (spec §8.2): `DB.xml`, `DB.json`, … */
      readonly suffix: 'xml' | 'json' | 'csv' | 'html';
    }
  | { readonly type: 'binary'; readonly data: Buffer; readonly suffix: undefined };

/** {@link ConvertedInput} with the document as the UTF-8 bytes the store writes. */
export type ConvertedBody =
  | (Omit<Extract<ConvertedInput, { type: 'xml' }>, 'data'> & { readonly data: Buffer })
  | Extract<ConvertedInput, { type: 'binary' }>;

/** Splits a Content-Type header leniently: a malformed parameter is skipped, never an error. */
export function parseMediaType(header: string | undefined): MediaType {
  const params = new Map<string, string>();
  if (header === undefined) return { type: '', params };
  const semi = header.indexOf(';');
  const type = (semi === -1 ? header : header.slice(0, semi)).trim().toLowerCase();
  const PARAM = /;\s*([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g;
  for (const m of header.slice(semi === -1 ? header.length : semi).matchAll(PARAM)) {
    const name = m[1].toLowerCase();
    let value = m[2].trim();
    if (value.startsWith('"')) value = value.slice(1, -1).replace(/\\(.)/g, '$1');
    if (!params.has(name)) params.set(name, value);
  }
  return { type, params };
}

/** Which conversion a media type selects (spec §8.1). */
export function inputKind(type: string): InputKind {
  if (type === '' || type === '*/*') return 'xml';
  const slash = type.indexOf('/');
  if (slash <= 0) return 'binary';
  const main = type.slice(0, slash);
  const sub = type.slice(slash + 1);
  if (type === 'application/xml' || type === 'text/xml' || sub.endsWith('+xml') || sub === 'xml-external-parsed-entity') return 'xml';
  if (type === 'application/json' || sub.endsWith('+json')) return 'json';
  if (sub === 'csv' || sub === 'comma-separated-values') return 'csv';
  if (main === 'text' && sub === 'html') return 'html';
  return 'binary';
}

/** Converts a PUT body; throws a 400 `XmldbError` if it is not well-formed for its type. */
export function convertInput(body: Buffer, contentTypeHeader: string | undefined, options: ConvertOptions = {}): ConvertedInput {
  const media = parseMediaType(contentTypeHeader);
  const kind = inputKind(media.type);
  const p = media.params;
  const charset = charsetOf(media);
  switch (kind) {
    case 'binary':
      return { type: 'binary', data: body, suffix: undefined };
    case 'xml': {
      const r = parseToStoredXml(decodeText(body, charset, true), options);
      return { type: 'xml', data: r.xml, nodes: r.nodes, suffix: 'xml' };
    }
    case 'json': {
      const r = convertJson(decodeText(body, charset, false), jsonOptions(p, options.name));
      return { type: 'xml', data: r.xml, nodes: r.nodes, suffix: 'json' };
    }
    case 'csv': {
      const r = convertCsv(decodeText(body, charset, false), csvOptions(p, options.name));
      return { type: 'xml', data: r.xml, nodes: r.nodes, suffix: 'csv' };
    }
    case 'html': {
      const r = htmlModule().convertHtml(decodeText(body, charset, false), { stripws: options.stripws });
      return { type: 'xml', data: r.xml, nodes: r.nodes, suffix: 'html' };
    }
  }
}

let html: typeof HtmlModule | undefined;

/**
 * html.ts, loaded with the first HTML input: htmlparser2 and the DOM modules it brings are about
 * thirty modules and an eighth of the time the package takes to load (measured on Node 20: 43 of
 * 345 ms), which most processes never need.
 */
function htmlModule(): typeof HtmlModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (html ??= require('./html') as typeof HtmlModule);
}

/** The `charset` (or `encoding`) parameter of a media type. */
function charsetOf(media: MediaType): string | undefined {
  return media.params.get('charset') ?? media.params.get('encoding');
}

/**
 * XML bodies from this size on are encoded while they are written (xml.ts `parseToStoredBytes`).
 * Its block of memory is mapped and unmapped by the system, about 0.3 ms: for a 10 KB document
 * that tripled the conversion (0.43 ms against 0.14), from 100 KB on it costs nothing measurable,
 * and at 10 MB the conversion took 146-148 ms against 156-160 (Node 20).
 */
const ENCODED_WHILE_WRITTEN_BYTES = 64 * 1024;

/**
 * `convertInput` with the document encoded as the store writes it (see {@link convertBody}). A
 * large XML body is encoded while it is written: the document is never held as text too (a 108 MB
 * document was held as its pieces, the joined text and its bytes at once).
 */
export function convertToBytes(body: Buffer, contentTypeHeader: string | undefined, options: ConvertOptions = {}): ConvertedBody {
  const media = parseMediaType(contentTypeHeader);
  if (body.length >= ENCODED_WHILE_WRITTEN_BYTES && inputKind(media.type) === 'xml') {
    const r = parseToStoredBytes(decodeText(body, charsetOf(media), true), body.length, options);
    return { type: 'xml', data: r.bytes, nodes: r.nodes, suffix: 'xml' };
  }
  const r = convertInput(body, contentTypeHeader, options);
  return r.type === 'binary' ? r : { ...r, data: Buffer.from(r.data, 'utf8') };
}

/**
 * `convertInput` for request bodies: a large text body is parsed and converted off the request
 * thread (threads/offload.ts), so that other requests are answered meanwhile. Raw bytes need no
 * work and stay here. The document comes back as its UTF-8 bytes, moved from the thread: the
 * request thread then never holds it as a string, nor a string and its encoding at once.
 */
export async function convertBody(body: Buffer, contentTypeHeader: string | undefined, options: ConvertOptions = {}): Promise<ConvertedBody> {
  const inline = () => convertToBytes(body, contentTypeHeader, options);
  if (inputKind(parseMediaType(contentTypeHeader).type) === 'binary') return inline();
  return offload(body.length, __filename, 'convertToBytes', [body, contentTypeHeader, options], inline);
}

/** `true`/`yes`/`on` and `false`/`no`/`off`; anything else is ignored. */
function flag(params: ReadonlyMap<string, string>, name: string): boolean | undefined {
  const v = params.get(name)?.toLowerCase();
  if (v === 'true' || v === 'yes' || v === 'on') return true;
  if (v === 'false' || v === 'no' || v === 'off') return false;
  return undefined;
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[]): T | undefined {
  const v = value?.toLowerCase();
  return allowed.find((a) => a === v);
}

export function jsonOptions(p: ReadonlyMap<string, string>, name?: string): JsonOptions {
  return {
    format: oneOf<JsonFormat>(p.get('format'), ['direct', 'attributes', 'jsonml', 'w3-xml']),
    lax: flag(p, 'lax'),
    merge: flag(p, 'merge'),
    strings: flag(p, 'strings'),
    duplicates: oneOf<Duplicates>(p.get('duplicates'), ['retain', 'use-first', 'use-last', 'reject']),
    liberal: flag(p, 'liberal'),
    escape: flag(p, 'escape'),
    name,
  };
}

export function csvOptions(p: ReadonlyMap<string, string>, name?: string): CsvOptions {
  const sep = p.get('separator');
  return {
    format: oneOf<CsvFormat>(p.get('format'), ['direct', 'attributes', 'w3-xml']),
    header: flag(p, 'header'),
    separator: sep === undefined ? undefined : separatorChar(sep),
    quotes: flag(p, 'quotes'),
    backslashes: flag(p, 'backslashes'),
    trimWhitespace: flag(p, 'trim-whitespace'),
    skipEmpty: flag(p, 'skip-empty'),
    lax: flag(p, 'lax'),
    name,
  };
}

const XML_ENCODING = /^<\?xml[^>]*?[ \t\r\n]encoding[ \t\r\n]*=[ \t\r\n]*["']([A-Za-z][A-Za-z0-9._-]*)["']/;

/**
 * Decodes text: the given charset if the platform knows it (an unknown one is ignored), else a
 * BOM, else (XML) the encoding declaration, else UTF-8. A leading BOM is removed. Bytes that are
 * invalid in the encoding are a 400.
 */
export function decodeText(body: Buffer, charset: string | undefined, xml: boolean): string {
  let label = charset !== undefined && isKnownEncoding(charset) ? charset : undefined;
  if (label === undefined) {
    if (body[0] === 0xfe && body[1] === 0xff) label = 'utf-16be';
    else if (body[0] === 0xff && body[1] === 0xfe) label = 'utf-16le';
    else if (xml) {
      const declared = XML_ENCODING.exec(body.subarray(0, 200).toString('latin1'))?.[1];
      if (declared !== undefined && isKnownEncoding(declared) && !/^utf-?16/i.test(declared)) label = declared;
    }
  }
  label ??= 'utf-8';
  let text: string;
  try {
    text = new TextDecoder(label, { fatal: true }).decode(body);
  } catch {
    throw convertError('INPUT_ENCODING_X', label.toUpperCase());
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function isKnownEncoding(label: string): boolean {
  try {
    new TextDecoder(label);
    return true;
  } catch {
    return false;
  }
}
