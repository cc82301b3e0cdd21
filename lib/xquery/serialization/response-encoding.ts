/**
 * What a response carrying a serialized result needs beside the text: its Content-Type from the
 * serialization parameters (spec §11.1) and its bytes in the requested encoding. Apart from
 * serialize.ts, so that the server's main thread, which serializes nothing itself, never loads
 * the serializers, nor saxon-js with them.
 */
import { encodingName, type OutputMethod } from './params';

/** Serialization parameters as the HTTP layer collects them (name → string, checked by params.ts). */
export type SerializationParameters = Readonly<Record<string, string>>;

/** Media type of each method (spec §11.1, rule 2). */
const METHOD_MEDIA_TYPES: Readonly<Record<OutputMethod, string>> = {
  xml: 'application/xml',
  adaptive: 'application/xml',
  basex: 'application/xml',
  xhtml: 'text/html',
  html: 'text/html',
  text: 'text/plain',
  json: 'application/json',
  csv: 'text/csv',
};

/**
 * Content-Type of a response (spec §11.1): `media-type` verbatim, else by `method`, else the
 * operation's default; `; charset=ENC` appended unless present.
 */
export function contentTypeFor(params: SerializationParameters, operationDefault: string): string {
  const method = params.method as OutputMethod | undefined;
  const type = params['media-type'] ?? (method && METHOD_MEDIA_TYPES[method]) ?? operationDefault;
  return /;\s*charset=/i.test(type) ? type : `${type}; charset=${params.encoding ?? 'UTF-8'}`;
}

/** The body bytes in the requested encoding; characters it cannot hold become character references. */
export function encodeBody(text: string, encoding = 'UTF-8'): Buffer {
  const enc = encodingName(encoding);
  if (enc === 'utf8') return Buffer.from(text, 'utf8');
  if (enc === 'utf16le') return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  const limit = enc === 'ascii' ? 0x7f : enc === 'latin1' ? 0xff : Infinity;
  const safe = limit === Infinity ? text : text.replace(/[^\0-\x7f]/gu, (c) => {
    const cp = c.codePointAt(0)!;
    return cp <= limit ? c : `&#x${cp.toString(16).toUpperCase()};`;
  });
  return Buffer.from(safe, enc);
}
