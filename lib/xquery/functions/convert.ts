/**
 * BaseX's Conversion Module (docs.basex.org, "Conversion Functions", BaseX 11), as saxon-js
 * extension functions in namespace `http://basex.org/modules/convert` (prefix `convert`):
 *
 *   binary-to-string($bytes, $encoding as xs:string? := (), $fallback as xs:boolean? := false()) as xs:string
 *   string-to-base64($string, $encoding := ()) as xs:base64Binary
 *   string-to-hex($string, $encoding := ()) as xs:hexBinary
 *   integers-to-base64($integers as xs:integer*) as xs:base64Binary   the last 8 bits of each
 *   integers-to-hex($integers as xs:integer*) as xs:hexBinary
 *   binary-to-integers($binary) as xs:integer*                        bytes 0 to 255
 *   binary-to-bytes($binary) as xs:byte*                              bytes -128 to 127
 *   integer-to-base($number, $base) as xs:string                      64-bit two's complement, unsigned
 *   integer-from-base($string, $base) as xs:integer                   the reverse (64 bits, signed)
 *   integer-to-dateTime($ms) / dateTime-to-integer($dateTime)         milliseconds since 1970 (UTC)
 *   integer-to-dayTime($ms) / dayTime-to-integer($duration)           milliseconds
 *   encode-key($key, $lax := false()) / decode-key($key, $lax := false())   JSON keys ↔ element names
 *
 * Binary arguments are xs:base64Binary or xs:hexBinary (anything else is XPTY0004). Encodings are
 * those WHATWG decoders know for reading (`TextDecoder`); for writing UTF-8, UTF-16 (LE/BE),
 * ISO-8859-1 and US-ASCII. Errors use BaseX's codes: `convert:encoding` (unknown encoding),
 * `convert:string` (bytes that are not valid text in the encoding, or characters XML does not
 * allow), `convert:binary` (a string that cannot be written in the encoding), `convert:base`
 * (a base outside 2 to 36), `convert:integer` (a digit that is not one of the base).
 */
import { decodeName, encodeName } from '../../convert/names';
import { atomicTypeName, castString, isAtomic, registerFunctions, stringValue, xpathError, type XdmAtomic, type XdmItem, type XdmValue } from '../../saxon';
import { moduleError } from './support/option-maps';
import { MODULE_NAMESPACES } from '../module-namespaces';

const CONVERT_NS = MODULE_NAMESPACES.convert;

const error = (name: string, message: string): Error => moduleError('convert', name, message);

/** The bytes of an xs:base64Binary or xs:hexBinary item. */
export function binaryBytes(item: XdmItem | undefined, fn: string): Buffer {
  const atomic = item && isAtomic(item) ? (item as XdmAtomic) : undefined;
  if (!atomic || (atomic.code !== 'A2' && atomic.code !== 'AX')) {
    throw xpathError(`${fn}: xs:base64Binary or xs:hexBinary expected, found ${atomic ? `xs:${atomicTypeName(atomic)}` : 'a non-atomic item'}.`, 'XPTY0004');
  }
  return Buffer.from(atomic.value as Uint8Array);
}

export const base64Item = (bytes: Buffer): XdmItem => castString(bytes.toString('base64'), 'base64Binary');
export const hexItem = (bytes: Buffer): XdmItem => castString(bytes.toString('hex'), 'hexBinary');
const integerItem = (n: bigint | number): XdmItem => castString(String(n), 'integer');
const str = (v: XdmValue | undefined): string | undefined => (v && v.length > 0 ? String(v[0]) : undefined);
const bigint = (v: XdmValue): bigint => BigInt(String(v[0]));

/** Characters XML 1.0 cannot hold (they may not appear in a string). */
const NON_XML = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/**
 * The errors of the text conversions by kind: an unknown encoding, bytes that are no text, a
 * string the encoding cannot hold. convert: raises them under these names; bin: (bin.ts) under
 * the EXPath names.
 */
export type TextError = (kind: 'encoding' | 'string' | 'binary', message: string) => Error;

/** `bytes` as text in `encoding`; with `fallback`, undecodable bytes and non-XML characters become U+FFFD. */
export function decode(bytes: Buffer, encoding: string, fallback: boolean, fail: TextError = error): string {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(encoding, { fatal: !fallback });
  } catch {
    throw fail('encoding', `Unknown encoding '${encoding}'.`);
  }
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw fail('string', `The input is not valid ${encoding} text.`);
  }
  const bad = NON_XML.exec(text);
  if (!bad) return text;
  if (fallback) return text.replace(new RegExp(NON_XML.source, 'gu'), '\uFFFD');
  throw fail('string', `Invalid XML character (Unicode: 0x${bad[0].codePointAt(0)!.toString(16).toUpperCase()}).`);
}

const WRITE_ENCODINGS: Readonly<Record<string, BufferEncoding | 'utf16be'>> = {
  'utf-8': 'utf8', utf8: 'utf8', 'utf-16': 'utf16be', 'utf-16be': 'utf16be', 'utf-16le': 'utf16le',
  'iso-8859-1': 'latin1', latin1: 'latin1', 'us-ascii': 'ascii', ascii: 'ascii',
};

/** `text` as bytes in `encoding` (UTF-8, UTF-16, UTF-16LE/BE, ISO-8859-1, US-ASCII). */
export function encode(text: string, encoding = 'UTF-8', fail: TextError = error): Buffer {
  const enc = WRITE_ENCODINGS[encoding.toLowerCase()];
  if (enc === undefined) throw fail('encoding', `Unknown encoding '${encoding}'.`);
  const limit = enc === 'ascii' ? 0x7f : enc === 'latin1' ? 0xff : Infinity;
  for (const ch of text) {
    if (ch.codePointAt(0)! > limit) throw fail('binary', `The string cannot be encoded as ${encoding}.`);
  }
  if (enc !== 'utf16be') return Buffer.from(text, enc);
  return Buffer.from(text, 'utf16le').swap16();
}

function integersToBytes(values: XdmValue): Buffer {
  return Buffer.from(values.map((v) => Number(BigInt.asUintN(8, BigInt(String(v))))));
}

const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz';

function checkBase(base: bigint): number {
  if (base < 2n || base > 36n) throw error('base', `Unsupported base: ${base}.`);
  return Number(base);
}

function integerToBase([number, baseArg]: XdmValue[]): XdmValue {
  const base = checkBase(bigint(baseArg));
  return [stringValue(BigInt.asUintN(64, bigint(number)).toString(base))];
}

function integerFromBase([text, baseArg]: XdmValue[]): XdmValue {
  const base = checkBase(bigint(baseArg));
  let value = 0n;
  for (const ch of String(text[0])) {
    const digit = DIGITS.indexOf(ch.toLowerCase());
    if (digit < 0 || digit >= base) throw error('integer', `Invalid digit for base ${base}: ${ch}.`);
    value = BigInt.asUintN(64, value * BigInt(base) + BigInt(digit));
  }
  return [integerItem(BigInt.asIntN(64, value))];
}

// --- dates and durations -------------------------------------------------------------------

const DATE_TIME = /^(-?\d{4,})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)?$/;
const DAY_TIME = /^(-)?P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:\.(\d+))?S)?)?$/;

/** Milliseconds of a fraction of a second (`5` → 500n; digits past milliseconds are dropped). */
const fractionMs = (fraction: string | undefined): bigint => BigInt((fraction ?? '').padEnd(3, '0').slice(0, 3));

/** Milliseconds since 1970-01-01T00:00:00Z; a dateTime without time zone counts as UTC. */
function dateTimeToInteger([value]: XdmValue[]): XdmValue {
  const m = DATE_TIME.exec(String(value[0]));
  if (!m) throw xpathError(`Invalid xs:dateTime: '${String(value[0])}'.`, 'FORG0001');
  const [, y, mo, d, h, mi, s, fraction, zone] = m;
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  date.setUTCHours(Number(h), Number(mi), Number(s), 0);
  let ms = BigInt(date.getTime()) + fractionMs(fraction);
  if (zone && zone !== 'Z') {
    const minutes = Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6));
    ms -= BigInt((zone[0] === '-' ? -minutes : minutes) * 60000);
  }
  return [integerItem(ms)];
}

/** The largest time JavaScript dates hold (ECMAScript §21.4.1.1): ±8.64e15 ms. */
const MAX_DATE_MS = 8_640_000_000_000_000n;

function integerToDateTime([ms]: XdmValue[]): XdmValue {
  const value = bigint(ms);
  if (value > MAX_DATE_MS || value < -MAX_DATE_MS) throw xpathError(`Value out of range: ${value}.`, 'FODT0001');
  const iso = new Date(Number(value)).toISOString();
  // toISOString writes years beyond 9999 and before 0 with six digits and a sign
  const text = iso.replace(/^\+0*(\d{4,})/, '$1').replace(/^-0*(\d{4,})/, '-$1').replace('.000Z', 'Z');
  return [castString(text, 'dateTime')];
}

function dayTimeToInteger([value]: XdmValue[]): XdmValue {
  const m = DAY_TIME.exec(String(value[0]));
  if (!m) throw xpathError(`Invalid xs:dayTimeDuration: '${String(value[0])}'.`, 'FORG0001');
  const [, minus, d, h, mi, s, fraction] = m;
  const n = (x: string | undefined): bigint => BigInt(x ?? '0');
  const ms = ((n(d) * 24n + n(h)) * 60n + n(mi)) * 60000n + n(s) * 1000n + fractionMs(fraction);
  return [integerItem(minus ? -ms : ms)];
}

function integerToDayTime([ms]: XdmValue[]): XdmValue {
  const value = bigint(ms);
  const abs = value < 0n ? -value : value;
  const seconds = `${abs / 1000n}.${String(abs % 1000n).padStart(3, '0')}`;
  return [castString(`${value < 0n ? '-' : ''}PT${seconds}S`, 'dayTimeDuration')];
}

// --- registration --------------------------------------------------------------------------

const flag = (v: XdmValue | undefined): boolean => v !== undefined && v.length > 0 && String(v[0]) === 'true';

/** Registers the convert: functions with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerConvertFunctions(): void {
  registerFunctions(CONVERT_NS, {
    'binary-to-string': {
      sig: '1F r[1AS] a[1A,?AS,?AB]',
      arity: [1, 2, 3],
      impl: ([bytes, encoding, fallback]) => [stringValue(decode(binaryBytes(bytes[0], 'convert:binary-to-string'), str(encoding) ?? 'UTF-8', flag(fallback)))],
    },
    'string-to-base64': { sig: '1F r[1A2] a[1AS,?AS]', arity: [1, 2], impl: ([s, encoding]) => [base64Item(encode(String(s[0]), str(encoding)))] },
    'string-to-hex': { sig: '1F r[1AX] a[1AS,?AS]', arity: [1, 2], impl: ([s, encoding]) => [hexItem(encode(String(s[0]), str(encoding)))] },
    'integers-to-base64': { sig: '1F r[1A2] a[*ADI]', impl: ([values]) => [base64Item(integersToBytes(values))] },
    'integers-to-hex': { sig: '1F r[1AX] a[*ADI]', impl: ([values]) => [hexItem(integersToBytes(values))] },
    'binary-to-integers': { sig: '1F r[*ADI] a[1A]', impl: ([b]) => [...binaryBytes(b[0], 'convert:binary-to-integers')].map(integerItem) },
    'binary-to-bytes': {
      sig: '1F r[*] a[1A]',
      impl: ([b]) => [...binaryBytes(b[0], 'convert:binary-to-bytes')].map((n) => castString(String(n > 127 ? n - 256 : n), 'byte')),
    },
    'integer-to-base': { sig: '1F r[1AS] a[1ADI,1ADI]', impl: integerToBase },
    'integer-from-base': { sig: '1F r[1ADI] a[1AS,1ADI]', impl: integerFromBase },
    'integer-to-dateTime': { sig: '1F r[1AM] a[1ADI]', impl: integerToDateTime },
    'dateTime-to-integer': { sig: '1F r[1ADI] a[1AM]', impl: dateTimeToInteger },
    'integer-to-dayTime': { sig: '1F r[1ARD] a[1ADI]', impl: integerToDayTime },
    'dayTime-to-integer': { sig: '1F r[1ADI] a[1ARD]', impl: dayTimeToInteger },
    'encode-key': { sig: '1F r[1AS] a[1AS,?AB]', arity: [1, 2], impl: ([key, lax]) => [stringValue(encodeName(String(key[0]), flag(lax)))] },
    'decode-key': { sig: '1F r[1AS] a[1AS,?AB]', arity: [1, 2], impl: ([key, lax]) => [stringValue(decodeName(String(key[0]), flag(lax)))] },
  });
}
