/**
 * The format strings of `java.util.Formatter` (Java SE API specification, class Formatter),
 * which BaseX's string:format hands its arguments to (`String.format(Locale.ENGLISH, …)`), for the
 * values an XQuery item turns into: integers (`java.lang.Byte` … `java.math.BigInteger`),
 * `java.lang.Character`,
 * `java.math.BigDecimal`, `java.lang.Double`/`Float`, `java.lang.String`, `java.lang.Boolean`.
 *
 * Specifiers: `%[index$|<][flags][width][.precision]conversion`, flags `-#+ 0,(`, conversions
 * `b B h H s S c C d o x X e E f g G % n`. Floating-point values are rounded half up from their
 * shortest decimal form, as Java does. `a A` (hexadecimal floating point) and `t T` (dates and
 * times; Java takes them from `long`s, calendars and temporal values, none of which an XQuery
 * item becomes) raise the exception Java raises for the argument. A format error is a
 * {@link JavaFormatError} named after Java's exception, with its message.
 */

/** An argument as Java sees it: its class and value. */
export type JavaValue =
  | { readonly kind: 'integer'; readonly cls: string; readonly value: bigint; readonly bits?: 8 | 16 | 32 | 64 }
  | { readonly kind: 'character'; readonly cls: string; readonly value: number }
  | { readonly kind: 'float'; readonly cls: string; readonly value: number }
  | { readonly kind: 'decimal'; readonly cls: string; readonly text: string }
  | { readonly kind: 'string' | 'boolean' | 'other'; readonly cls: string; readonly text: string };

export class JavaFormatError extends Error {
  constructor(
    readonly exception: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The widest width and precision formatted: past it, {@link JavaFormatLimit} (Java would try,
 * and run out of memory; a query asking for a billion digits gets an error instead).
 */
export const MAX_FIELD = 1_000_000;

/** A width or precision past {@link MAX_FIELD}. */
export class JavaFormatLimit extends Error {}

const SPECIFIER = /%(\d+\$)?([-#+ 0,(<]*)?(\d+)?(\.\d+)?([tT])?([a-zA-Z%])/y;

export function javaFormat(pattern: string, args: readonly JavaValue[]): string {
  let out = '';
  let ordinary = 0;
  let last = -1;
  let i = 0;
  while (i < pattern.length) {
    const percent = pattern.indexOf('%', i);
    if (percent < 0) {
      out += pattern.slice(i);
      break;
    }
    out += pattern.slice(i, percent);
    SPECIFIER.lastIndex = percent;
    const m = SPECIFIER.exec(pattern);
    if (!m) {
      const next = pattern[percent + 1];
      throw new JavaFormatError('UnknownFormatConversionException', `Conversion = '${next === undefined ? '%' : next}'`);
    }
    i = SPECIFIER.lastIndex;
    const [text, index, flagText = '', widthText, precisionText, time, conversion] = m;
    const flags = readFlags(flagText);
    const width = widthText === undefined ? undefined : Number(widthText);
    const precision = precisionText === undefined ? undefined : Number(precisionText.slice(1));
    if ((width ?? 0) > MAX_FIELD || (precision ?? 0) > MAX_FIELD) throw new JavaFormatLimit(`Format width or precision too large in '${text}' (at most ${MAX_FIELD}).`);
    if (conversion === '%' || conversion === 'n') {
      if (conversion === 'n') out += '\n';
      else out += justify('%', flags, width, text);
      continue;
    }
    let position: number;
    if (flags.has('<')) position = last;
    else if (index !== undefined) position = Number(index.slice(0, -1)) - 1;
    else position = ordinary++;
    if (position < 0 || position >= args.length) throw new JavaFormatError('MissingFormatArgumentException', `Format specifier '${text}'`);
    last = position;
    const arg = args[position];
    if (time !== undefined) throw new JavaFormatError('IllegalFormatConversionException', `${conversion} != ${arg.cls}`);
    out += formatOne(arg, conversion, flags, width, precision, text);
  }
  return out;
}

function readFlags(text: string): Set<string> {
  const flags = new Set<string>();
  for (const f of text) {
    if (flags.has(f)) throw new JavaFormatError('DuplicateFormatFlagsException', `Flags = '${f}'`);
    flags.add(f);
  }
  if (flags.has('-') && flags.has('0')) throw new JavaFormatError('IllegalFormatFlagsException', `Flags = '${text.replace('<', '')}'`);
  if (flags.has('+') && flags.has(' ')) throw new JavaFormatError('IllegalFormatFlagsException', `Flags = '${text.replace('<', '')}'`);
  return flags;
}

function justify(s: string, flags: ReadonlySet<string>, width: number | undefined, spec: string): string {
  if (width === undefined) {
    if (flags.has('-')) throw new JavaFormatError('MissingFormatWidthException', spec);
    return s;
  }
  return flags.has('-') ? s.padEnd(width) : s.padStart(width);
}

function mismatch(conversion: string, flags: ReadonlySet<string>, allowed: string): void {
  for (const f of flags) {
    if (f !== '<' && !allowed.includes(f)) throw new JavaFormatError('FormatFlagsConversionMismatchException', `Conversion = ${conversion}, Flags = ${f}`);
  }
}

function formatOne(arg: JavaValue, conversion: string, flags: ReadonlySet<string>, width: number | undefined, precision: number | undefined, spec: string): string {
  const c = conversion.toLowerCase();
  const upper = conversion !== c;
  let s: string;
  switch (c) {
    case 'b':
    case 'h':
    case 's': {
      mismatch(c, flags, '-');
      s = c === 'b' ? (arg.kind === 'boolean' ? arg.text : 'true') : c === 'h' ? (hashCode(arg) >>> 0).toString(16) : javaString(arg);
      if (precision !== undefined) s = s.slice(0, precision);
      return upperIf(justify(s, flags, width, spec), upper);
    }
    case 'c': {
      mismatch(c, flags, '-');
      if (precision !== undefined) throw new JavaFormatError('IllegalFormatPrecisionException', String(precision));
      const cp = arg.kind === 'character' ? arg.value : arg.kind === 'integer' && arg.bits !== undefined && arg.bits <= 32 ? Number(arg.value) : undefined;
      if (cp === undefined) throw conversionError(c, arg);
      if (cp < 0 || cp > 0x10ffff) throw new JavaFormatError('IllegalFormatCodePointException', `Code point = 0x${(cp >>> 0).toString(16)}`);
      return upperIf(justify(String.fromCodePoint(cp), flags, width, spec), upper);
    }
    case 'd':
    case 'o':
    case 'x': {
      if (arg.kind !== 'integer') throw conversionError(c, arg);
      if (precision !== undefined) throw new JavaFormatError('IllegalFormatPrecisionException', String(precision));
      if (c === 'd') mismatch(c, flags, '-+ 0,(');
      else mismatch(c, flags, arg.bits === undefined ? '-#+ 0(' : '-#0');
      return upperIf(integer(arg, c, flags, width, spec), upper);
    }
    case 'e':
    case 'f':
    case 'g': {
      if (arg.kind !== 'float' && arg.kind !== 'decimal') throw conversionError(c, arg);
      mismatch(c, flags, c === 'e' ? '-#+ 0(' : c === 'f' ? '-#+ 0,(' : '-+ 0,(');
      return upperIf(floating(arg, c, flags, width, precision, spec), upper);
    }
    default:
      if (c === 'a') throw conversionError(c, arg);
      throw new JavaFormatError('UnknownFormatConversionException', `Conversion = '${conversion}'`);
  }
}

const upperIf = (s: string, upper: boolean): string => (upper ? s.toUpperCase() : s);

const conversionError = (c: string, arg: JavaValue): JavaFormatError => new JavaFormatError('IllegalFormatConversionException', `${c} != ${arg.cls}`);

/** `String.valueOf` of the argument: Java's spelling of doubles (`1.0E10`, `Infinity`). */
function javaString(arg: JavaValue): string {
  switch (arg.kind) {
    case 'integer':
      return String(arg.value);
    case 'character':
      return String.fromCharCode(arg.value);
    case 'float':
      return javaDouble(arg.value);
    case 'decimal':
      return arg.text;
    default:
      return arg.text;
  }
}

function javaDouble(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
  if (n === 0) return Object.is(n, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(n);
  if (abs >= 1e-3 && abs < 1e7) {
    const s = String(n);
    return s.includes('.') ? s : `${s}.0`;
  }
  const [mantissa, exponent] = n.toExponential().split('e');
  return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
}

/** `hashCode()` of the argument (String, Boolean, Long, Integer, Double as Java defines them). */
function hashCode(arg: JavaValue): number {
  switch (arg.kind) {
    case 'integer': {
      const v = BigInt.asUintN(64, arg.value);
      return arg.bits !== undefined && arg.bits <= 32 ? Number(BigInt.asIntN(32, arg.value)) : Number(BigInt.asIntN(32, v ^ (v >> 32n)));
    }
    case 'character':
      return arg.value;
    case 'boolean':
      return arg.text === 'true' ? 1231 : 1237;
    case 'float': {
      const view = new DataView(new ArrayBuffer(8));
      view.setFloat64(0, arg.value);
      return view.getInt32(0) ^ view.getInt32(4);
    }
    default: {
      let h = 0;
      for (let i = 0; i < arg.text.length; i++) h = (Math.imul(31, h) + arg.text.charCodeAt(i)) | 0;
      return h;
    }
  }
}

// --- numbers --------------------------------------------------------------------------------

const group = (digits: string): string => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Sign, zero padding and width around the digits of a number (Formatter, "Numeric"). */
function numeric(negative: boolean, digits: string, flags: ReadonlySet<string>, width: number | undefined, spec: string, prefix = ''): string {
  if (flags.has('0') && width === undefined) throw new JavaFormatError('MissingFormatWidthException', spec);
  const sign = negative ? (flags.has('(') ? '(' : '-') : flags.has('+') ? '+' : flags.has(' ') ? ' ' : '';
  const close = negative && flags.has('(') ? ')' : '';
  let body = digits;
  if (flags.has('0') && width !== undefined) body = body.padStart(width - sign.length - prefix.length - close.length, '0');
  return justify(`${sign}${prefix}${body}${close}`, flags, width, spec);
}

function integer(arg: Extract<JavaValue, { kind: 'integer' }>, c: string, flags: ReadonlySet<string>, width: number | undefined, spec: string): string {
  if (c === 'd') {
    const digits = (arg.value < 0n ? -arg.value : arg.value).toString();
    return numeric(arg.value < 0n, flags.has(',') ? group(digits) : digits, flags, width, spec);
  }
  const radix = c === 'x' ? 16 : 8;
  const prefix = flags.has('#') ? (radix === 16 ? '0x' : '0') : '';
  if (arg.bits !== undefined) {
    // Byte … Long: the two's complement of the value's own width
    return numeric(false, BigInt.asUintN(arg.bits, arg.value).toString(radix), flags, width, spec, prefix);
  }
  return numeric(arg.value < 0n, (arg.value < 0n ? -arg.value : arg.value).toString(radix), flags, width, spec, prefix);
}

/** A finite decimal as integer digits and a power of ten: `value = digits × 10^exponent`. */
interface Decimal {
  readonly negative: boolean;
  readonly digits: bigint;
  readonly exponent: number;
}

function toDecimal(text: string): Decimal {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim())!;
  const [, sign, whole, fraction = '', exp = '0'] = m;
  return { negative: sign === '-', digits: BigInt(`${whole}${fraction}` || '0'), exponent: Number(exp) - fraction.length };
}

/** `digits / 10^shift`, rounded half up. */
function roundHalfUp(digits: bigint, shift: number): bigint {
  if (shift <= 0) return digits * 10n ** BigInt(-shift);
  const unit = 10n ** BigInt(shift);
  const q = digits / unit;
  return (digits % unit) * 2n >= unit ? q + 1n : q;
}

/** The digits of `d` with `decimals` places after the point, rounded half up. */
function fixed(d: Decimal, decimals: number): [string, string] {
  const scaled = roundHalfUp(d.digits, -d.exponent - decimals).toString().padStart(decimals + 1, '0');
  return [scaled.slice(0, scaled.length - decimals), scaled.slice(scaled.length - decimals)];
}

/** `d` rounded to `significant` digits: the digits and the decimal exponent of the first. */
function scientific(d: Decimal, significant: number): [string, number] {
  if (d.digits === 0n) return ['0'.repeat(significant), 0];
  const length = d.digits.toString().length;
  let digits = roundHalfUp(d.digits, length - significant).toString();
  let exponent = length - 1 + d.exponent;
  if (digits.length > significant) {
    digits = digits.slice(0, significant);
    exponent++;
  }
  return [digits, exponent];
}

function floating(arg: Extract<JavaValue, { kind: 'float' | 'decimal' }>, c: string, flags: ReadonlySet<string>, width: number | undefined, precision: number | undefined, spec: string): string {
  if (arg.kind === 'float' && !Number.isFinite(arg.value)) {
    const text = Number.isNaN(arg.value) ? 'NaN' : 'Infinity';
    const negative = arg.value === -Infinity;
    const sign = negative ? (flags.has('(') ? '(' : '-') : !Number.isNaN(arg.value) && flags.has('+') ? '+' : '';
    return justify(`${sign}${text}${negative && flags.has('(') ? ')' : ''}`, flags, width, spec);
  }
  const text = arg.kind === 'float' ? (Object.is(arg.value, -0) ? '-0' : String(arg.value)) : arg.text;
  const d = toDecimal(text);
  const p = precision ?? 6;
  let body: string;
  if (c === 'e') body = exponential(d, p, flags);
  else if (c === 'f') body = plain(d, p, flags);
  else {
    const significant = p === 0 ? 1 : p;
    const [, exponent] = scientific(d, significant);
    body = d.digits === 0n || (exponent >= -4 && exponent < significant) ? plain(d, significant - 1 - (d.digits === 0n ? 0 : exponent), flags) : exponential(d, significant - 1, flags);
  }
  return numeric(d.negative, body, flags, width, spec);
}

function plain(d: Decimal, decimals: number, flags: ReadonlySet<string>): string {
  const [whole, fraction] = fixed(d, decimals);
  const grouped = flags.has(',') ? group(whole) : whole;
  return decimals > 0 || flags.has('#') ? `${grouped}.${fraction}` : grouped;
}

function exponential(d: Decimal, decimals: number, flags: ReadonlySet<string>): string {
  const [digits, exponent] = scientific(d, decimals + 1);
  const mantissa = decimals > 0 || flags.has('#') ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${mantissa}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
}
