/**
 * The EXPath Binary Module 1.0 (expath.org/spec/binary, "Binary Module 1.0", 2013), as BaseX
 * ships it (docs.basex.org, "Binary Functions"), as saxon-js extension functions in namespace
 * `http://expath.org/ns/binary` (prefix `bin`):
 *
 *   hex / bin / octal($string as xs:string?) as xs:base64Binary?     digits → octets
 *   to-octets($binary) as xs:integer*   from-octets($integers as xs:integer*) as xs:base64Binary
 *   length($binary) as xs:integer
 *   part($binary, $offset, $size := ())   join($binaries)   insert-before($binary, $offset, $extra)
 *   pad-left / pad-right($binary, $size, $octet := 0)   find($binary, $offset, $search) as xs:integer?
 *   decode-string($binary, $encoding := 'UTF-8', $offset := (), $size := ()) as xs:string?
 *   encode-string($string, $encoding := 'UTF-8') as xs:base64Binary?
 *   pack-double / pack-float($value, $order := 'BE')   pack-integer($integer, $size, $order := 'BE')
 *   unpack-double / unpack-float($binary, $offset, $order := 'BE')
 *   unpack-integer / unpack-unsigned-integer($binary, $offset, $size, $order := 'BE')
 *   and / or / xor($binary1, $binary2)   not($binary)   shift($binary, $by)
 *
 * Binary arguments are xs:base64Binary or xs:hexBinary (BaseX accepts both); results are
 * xs:base64Binary. An empty binary argument gives the empty sequence where the signature allows it.
 * Errors are the specification's, with BaseX's messages: `bin:index-out-of-range`,
 * `bin:negative-size`, `bin:octet-out-of-range`, `bin:non-numeric-character`,
 * `bin:unknown-encoding`, `bin:conversion-error`, `bin:differing-length-arguments`,
 * `bin:unknown-significance-order`. Octet orders: `most-significant-first`, `big-endian`, `BE`
 * and `least-significant-first`, `little-endian`, `LE`. Integers of any size are packed and
 * unpacked in two's complement (specification §6.1); xs:integer values are arbitrary-precision here.
 */
import { castString, registerFunctions, stringValue, xpathError, type XdmAtomic, type XdmItem, type XdmValue } from '../../saxon';
import { moduleError } from './support/option-maps';
import { MODULE_NAMESPACES } from '../module-namespaces';
import { base64Item, binaryBytes, decode, encode, type TextError } from './convert';

const error = (name: string, message: string): Error => moduleError('bin', name, message);

const integerItem = (n: bigint | number): XdmItem => castString(String(n), 'integer');
const big = (v: XdmValue): bigint => BigInt(String(v[0]));
const given = (v: XdmValue | undefined): v is XdmValue => v !== undefined && v.length > 0;

/** The bytes of an optional binary argument (undefined for the empty sequence). */
function bytesOf(v: XdmValue, fn: string): Buffer | undefined {
  return v.length === 0 ? undefined : binaryBytes(v[0], `bin:${fn}`);
}

const result = (bytes: Buffer | undefined): XdmValue => (bytes === undefined ? [] : [base64Item(bytes)]);

/** `[offset, offset + size)` within `length` bytes, checked as the specification §3 asks. */
function range(offset: bigint, size: bigint | undefined, length: number): [number, number] {
  if (offset < 0n || offset > BigInt(length)) throw error('index-out-of-range', `Index '${offset}' is out of range (0-${length}).`);
  if (size === undefined) return [Number(offset), length];
  if (size < 0n) throw error('negative-size', `Size '${size}' is negative.`);
  if (offset + size > BigInt(length)) throw error('index-out-of-range', `Index '${offset + size}' is out of range (0-${length}).`);
  return [Number(offset), Number(offset + size)];
}

/**
 * The largest binary built from a size argument (pad-left, pad-right, pack-integer): its base64
 * form must fit a JavaScript string (V8's limit is 2^29 characters). Past it, XPDY0130, the code
 * XPath 3.1 §2.3.1 gives to an implementation limit.
 */
const MAX_BYTES = 2 ** 28;

function checkSize(size: bigint, extra = 0): number {
  if (size < 0n) throw error('negative-size', `Size '${size}' is negative.`);
  if (size + BigInt(extra) > BigInt(MAX_BYTES)) throw xpathError(`Binary too large: ${size + BigInt(extra)} octets (at most ${MAX_BYTES}).`, 'XPDY0130');
  return Number(size);
}

function octet(value: bigint): number {
  if (value < 0n || value > 255n) throw error('octet-out-of-range', `Octet '${value}' is out of range.`);
  return Number(value);
}

// --- constructing binaries ------------------------------------------------------------------

const NON_NUMERIC = (): Error => error('non-numeric-character', 'Invalid character in constructor string.');

/** Binary digits, left-padded with zeros to whole octets (bin:bin). */
function fromBits(bits: string): Buffer {
  if (!/^[01]*$/.test(bits)) throw NON_NUMERIC();
  const padded = bits.padStart(Math.ceil(bits.length / 8) * 8, '0');
  const out = Buffer.alloc(padded.length / 8);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(padded.slice(i * 8, i * 8 + 8), 2);
  return out;
}

function fromHex(hex: string): Buffer {
  if (!/^[0-9A-Fa-f]*$/.test(hex)) throw NON_NUMERIC();
  return Buffer.from(hex.length % 2 === 1 ? `0${hex}` : hex, 'hex');
}

/** Octal digits, three bits each, as bits left-padded to whole octets (BaseX's reading of bin:octal). */
function fromOctal(octal: string): Buffer {
  if (!/^[0-7]*$/.test(octal)) throw NON_NUMERIC();
  return fromBits([...octal].map((d) => Number(d).toString(2).padStart(3, '0')).join(''));
}

function constructor(parse: (digits: string) => Buffer): (args: XdmValue[]) => XdmValue {
  return ([s]) => (given(s) ? [base64Item(parse(String(s[0])))] : []);
}

// --- octet orders and numbers ---------------------------------------------------------------

const BIG_ENDIAN = new Set(['most-significant-first', 'big-endian', 'BE']);
const LITTLE_ENDIAN = new Set(['least-significant-first', 'little-endian', 'LE']);

/** Whether octets are least significant first; the default is most significant first. */
function littleEndian(order: XdmValue | undefined): boolean {
  if (!given(order)) return false;
  const text = String(order[0]);
  if (BIG_ENDIAN.has(text)) return false;
  if (LITTLE_ENDIAN.has(text)) return true;
  throw error('unknown-significance-order', `Unknown octet-order value: '${text}'.`);
}

/**
 * `value` in two's complement, in `size` octets: the low ones when it does not fit, else
 * sign-extended. Only the octets of the value itself are computed (a size may be millions).
 */
function packInteger(value: bigint, size: number, little: boolean): Buffer {
  const out = Buffer.alloc(size, value < 0n ? 0xff : 0);
  const magnitude = value < 0n ? -value : value;
  const own = Math.min(size, Math.ceil(magnitude.toString(16).length / 2) + 1);
  const low = Buffer.from(BigInt.asUintN(own * 8, value).toString(16).padStart(own * 2, '0'), 'hex');
  low.copy(out, size - own);
  return little ? out.reverse() : out;
}

/** Octets as an integer, unsigned or in two's complement (linear in their number). */
function unpackInteger(bytes: Buffer, little: boolean, signed: boolean): bigint {
  if (bytes.length === 0) return 0n;
  const ordered = little ? Buffer.from(bytes).reverse() : bytes;
  const value = BigInt(`0x${ordered.toString('hex')}`);
  return signed ? BigInt.asIntN(bytes.length * 8, value) : value;
}

function pack(width: 4 | 8): (args: XdmValue[]) => XdmValue {
  return ([value, order]) => {
    const out = Buffer.alloc(width);
    // saxon-js holds xs:double and xs:float values as numbers
    const n = Number((value[0] as XdmAtomic).value);
    const little = littleEndian(order);
    if (width === 8) little ? out.writeDoubleLE(n) : out.writeDoubleBE(n);
    else little ? out.writeFloatLE(n) : out.writeFloatBE(n);
    return [base64Item(out)];
  };
}

function unpack(width: 4 | 8, fn: string): (args: XdmValue[]) => XdmValue {
  return ([binary, offset, order]) => {
    const bytes = binaryBytes(binary[0], `bin:${fn}`);
    const [from] = range(big(offset), BigInt(width), bytes.length);
    const little = littleEndian(order);
    const n = width === 8 ? (little ? bytes.readDoubleLE(from) : bytes.readDoubleBE(from)) : little ? bytes.readFloatLE(from) : bytes.readFloatBE(from);
    return [castString(numberText(n), width === 8 ? 'double' : 'float')];
  };
}

/** A number as the lexical form xs:double and xs:float accept. */
const numberText = (n: number): string => (Number.isNaN(n) ? 'NaN' : n === Infinity ? 'INF' : n === -Infinity ? '-INF' : Object.is(n, -0) ? '-0' : String(n));

function unpackInt(signed: boolean, fn: string): (args: XdmValue[]) => XdmValue {
  return ([binary, offset, size, order]) => {
    const bytes = binaryBytes(binary[0], `bin:${fn}`);
    const [from, to] = range(big(offset), big(size), bytes.length);
    return [integerItem(unpackInteger(bytes.subarray(from, to), littleEndian(order), signed))];
  };
}

// --- bitwise operations ---------------------------------------------------------------------

function bitwise(fn: string, op: (a: number, b: number) => number): (args: XdmValue[]) => XdmValue {
  return ([a, b]) => {
    const x = bytesOf(a, fn);
    const y = bytesOf(b, fn);
    if (x === undefined || y === undefined) return [];
    if (x.length !== y.length) throw error('differing-length-arguments', `Inputs are of different length (${x.length}/${y.length}).`);
    return [base64Item(Buffer.from(x.map((v, i) => op(v, y[i]))))];
  };
}

/** Shifts the bits of `bytes` left (`by` > 0) or right, filling with zeros; the length stays. */
function shift(bytes: Buffer, by: bigint): Buffer {
  const bits = BigInt(bytes.length * 8);
  if (by >= bits || -by >= bits) return Buffer.alloc(bytes.length);
  const value = unpackInteger(bytes, false, false);
  const shifted = BigInt.asUintN(bytes.length * 8, by >= 0n ? value << by : value >> -by);
  return Buffer.from(shifted.toString(16).padStart(bytes.length * 2, '0'), 'hex');
}

// --- text -----------------------------------------------------------------------------------

/** convert.ts's text errors under the EXPath names. */
const textError: TextError = (kind, message) => (kind === 'encoding' ? error('unknown-encoding', message) : error('conversion-error', message));

function decodeString([binary, encoding, offset, size]: XdmValue[]): XdmValue {
  const bytes = bytesOf(binary, 'decode-string');
  const enc = given(encoding) ? String(encoding[0]) : 'UTF-8';
  if (bytes === undefined) return [];
  const [from, to] = range(given(offset) ? big(offset) : 0n, given(size) ? big(size) : undefined, bytes.length);
  return [stringValue(decode(bytes.subarray(from, to), enc, false, textError))];
}

function encodeString([s, encoding]: XdmValue[]): XdmValue {
  if (!given(s)) return [];
  return [base64Item(encode(String(s[0]), given(encoding) ? String(encoding[0]) : 'UTF-8', textError))];
}

// --- registration ---------------------------------------------------------------------------

const BIN = '?A';

/** Registers the bin: functions with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerBinFunctions(): void {
  registerFunctions(MODULE_NAMESPACES.bin, {
    hex: { sig: '1F r[?A2] a[?AS]', impl: constructor(fromHex) },
    bin: { sig: '1F r[?A2] a[?AS]', impl: constructor(fromBits) },
    octal: { sig: '1F r[?A2] a[?AS]', impl: constructor(fromOctal) },
    'to-octets': { sig: `1F r[*ADI] a[${BIN}]`, impl: ([b]) => [...(bytesOf(b, 'to-octets') ?? [])].map(integerItem) },
    'from-octets': { sig: '1F r[1A2] a[*ADI]', impl: ([values]) => [base64Item(Buffer.from(values.map((v) => octet(BigInt(String(v))))))] },
    length: { sig: '1F r[1ADI] a[1A]', impl: ([b]) => [integerItem(binaryBytes(b[0], 'bin:length').length)] },
    part: {
      sig: `1F r[?A2] a[${BIN},1ADI,?ADI]`,
      arity: [2, 3],
      impl: ([b, offset, size]) => {
        const bytes = bytesOf(b, 'part');
        if (bytes === undefined) return [];
        const [from, to] = range(big(offset), given(size) ? big(size) : undefined, bytes.length);
        return [base64Item(bytes.subarray(from, to))];
      },
    },
    join: { sig: '1F r[1A2] a[*A]', impl: ([binaries]) => [base64Item(Buffer.concat(binaries.map((b) => binaryBytes(b, 'bin:join'))))] },
    'insert-before': {
      sig: `1F r[?A2] a[${BIN},1ADI,${BIN}]`,
      impl: ([b, offset, extra]) => {
        const bytes = bytesOf(b, 'insert-before');
        if (bytes === undefined) return [];
        const [at] = range(big(offset), undefined, bytes.length);
        return [base64Item(Buffer.concat([bytes.subarray(0, at), bytesOf(extra, 'insert-before') ?? Buffer.alloc(0), bytes.subarray(at)]))];
      },
    },
    'pad-left': { sig: `1F r[?A2] a[${BIN},1ADI,?ADI]`, arity: [2, 3], impl: (args) => pad(args, 'pad-left', true) },
    'pad-right': { sig: `1F r[?A2] a[${BIN},1ADI,?ADI]`, arity: [2, 3], impl: (args) => pad(args, 'pad-right', false) },
    find: {
      sig: `1F r[?ADI] a[${BIN},1ADI,${BIN}]`,
      impl: ([b, offset, search]) => {
        const bytes = bytesOf(b, 'find');
        if (bytes === undefined) return [];
        const [from] = range(big(offset), undefined, bytes.length);
        const needle = bytesOf(search, 'find') ?? Buffer.alloc(0);
        const at = bytes.indexOf(needle, from);
        return at < 0 ? [] : [integerItem(at)];
      },
    },
    'decode-string': { sig: `1F r[?AS] a[${BIN},?AS,?ADI,?ADI]`, arity: [1, 2, 3, 4], impl: decodeString },
    'encode-string': { sig: '1F r[?A2] a[?AS,?AS]', arity: [1, 2], impl: encodeString },
    'pack-double': { sig: '1F r[1A2] a[1AO,?AS]', arity: [1, 2], impl: pack(8) },
    'pack-float': { sig: '1F r[1A2] a[1AF,?AS]', arity: [1, 2], impl: pack(4) },
    'pack-integer': {
      sig: '1F r[1A2] a[1ADI,1ADI,?AS]',
      arity: [2, 3],
      impl: ([value, size, order]) => [base64Item(packInteger(big(value), checkSize(big(size)), littleEndian(order)))],
    },
    'unpack-double': { sig: '1F r[1AO] a[1A,1ADI,?AS]', arity: [2, 3], impl: unpack(8, 'unpack-double') },
    'unpack-float': { sig: '1F r[1AF] a[1A,1ADI,?AS]', arity: [2, 3], impl: unpack(4, 'unpack-float') },
    'unpack-integer': { sig: '1F r[1ADI] a[1A,1ADI,1ADI,?AS]', arity: [3, 4], impl: unpackInt(true, 'unpack-integer') },
    'unpack-unsigned-integer': { sig: '1F r[1ADI] a[1A,1ADI,1ADI,?AS]', arity: [3, 4], impl: unpackInt(false, 'unpack-unsigned-integer') },
    and: { sig: `1F r[?A2] a[${BIN},${BIN}]`, impl: bitwise('and', (a, b) => a & b) },
    or: { sig: `1F r[?A2] a[${BIN},${BIN}]`, impl: bitwise('or', (a, b) => a | b) },
    xor: { sig: `1F r[?A2] a[${BIN},${BIN}]`, impl: bitwise('xor', (a, b) => a ^ b) },
    not: { sig: `1F r[?A2] a[${BIN}]`, impl: ([b]) => result(mapBytes(bytesOf(b, 'not'), (bytes) => Buffer.from(bytes.map((v) => ~v & 0xff)))) },
    shift: { sig: `1F r[?A2] a[${BIN},1ADI]`, impl: ([b, by]) => result(mapBytes(bytesOf(b, 'shift'), (bytes) => shift(bytes, big(by)))) },
  });
}

const mapBytes = (bytes: Buffer | undefined, f: (bytes: Buffer) => Buffer): Buffer | undefined => (bytes === undefined ? undefined : f(bytes));

function pad([b, size, fill]: XdmValue[], fn: string, left: boolean): XdmValue {
  const bytes = bytesOf(b, fn);
  if (bytes === undefined) return [];
  const n = checkSize(big(size), bytes.length);
  const padding = Buffer.alloc(n, given(fill) ? octet(big(fill)) : 0);
  return [base64Item(left ? Buffer.concat([padding, bytes]) : Buffer.concat([bytes, padding]))];
}
