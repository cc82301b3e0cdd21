/**
 * BaseX's Strings Module (docs.basex.org, "String Functions", BaseX 11 and later), as saxon-js
 * extension functions in namespace `http://basex.org/modules/string` (prefix `string`):
 *
 *   string:format($pattern as xs:string, $values as item()...) as xs:string
 *   string:levenshtein($value1 as xs:string, $value2 as xs:string) as xs:double
 *   string:jaro-winkler($value1 as xs:string, $value2 as xs:string) as xs:double
 *   string:soundex($value as xs:string) as xs:string
 *   string:cologne-phonetic($value as xs:string) as xs:string
 *
 * string:format formats as Java's `String.format(Locale.ENGLISH, …)` does (functions/support/java-format.ts),
 * taking each value as the Java object BaseX turns it into; a value may not be empty (XPTY0004)
 * and, unlike in BaseX, may not be a map, an array or a function (XPTY0004: they have no Java
 * form here). A pattern Java refuses is `[string:format]`, with Java's exception and message. Up
 * to {@link MAX_VALUES} values are accepted. The similarity measures compare code points:
 * levenshtein is 1 − (optimal string alignment distance, F. J. Damerau 1964 and V. I. Levenshtein
 * 1965) / (the longer length), with at most 10,000 code points per string (else `[string:bounds]`);
 * jaro-winkler is M. A. Jaro's and W. E. Winkler's measure (prefix of up to 4, scale 0.1, boost
 * threshold 0.7), rounded to two decimals as BaseX does. soundex is R. C. Russell's code (letters
 * A-Z only, H and W transparent); cologne-phonetic is H. J. Postel's "Kölner Phonetik" (1969).
 */
import { atomicDerivesFrom, atomicTypeName, castString, isAtomic, isNode, registerFunctions, stringValue, xpathError, type XdmAtomic, type XdmItem, type XdmValue } from '../../saxon';
import { moduleError } from './support/option-maps';
import { MODULE_NAMESPACES } from '../module-namespaces';
import { javaFormat, JavaFormatError, JavaFormatLimit, type JavaValue } from './support/java-format';

/** The most values string:format takes (saxon-js functions have a fixed list of arities). */
export const MAX_VALUES = 32;

/** The longest string string:levenshtein compares (BaseX's limit, docs.basex.org "string:levenshtein"). */
const MAX_LENGTH = 10_000;

const codePoints = (v: XdmValue): number[] => [...String(v[0])].map((c) => c.codePointAt(0)!);
const doubleItem = (n: number): XdmItem => castString(String(n), 'double');

// --- string:format --------------------------------------------------------------------------

/**
 * The Java class BaseX's `toJava` gives integers of each built-in type (BaseX 12, `Itr.toJava`):
 * its integers are 64-bit, so every other integer type is a `java.lang.Long`.
 */
const INTEGER_CLASSES: Readonly<Record<string, readonly [string, 8 | 16 | 32 | 64]>> = {
  byte: ['java.lang.Byte', 8],
  short: ['java.lang.Short', 16],
  unsignedByte: ['java.lang.Short', 16],
  int: ['java.lang.Integer', 32],
};

function javaValue(value: XdmValue, position: number): JavaValue {
  if (value.length !== 1) {
    throw xpathError(`string:format: value ${position} must be one item, found ${value.length === 0 ? 'an empty sequence' : `${value.length} items`}.`, 'XPTY0004');
  }
  const item = value[0];
  if (isNode(item)) return { kind: 'string', cls: 'java.lang.String', text: String(stringOfNode(item)) };
  if (!isAtomic(item)) throw xpathError(`string:format: value ${position} is a function item, which has no Java form.`, 'XPTY0004');
  const atomic = item as XdmAtomic;
  const type = atomicTypeName(atomic);
  const text = String(atomic);
  if (atomicDerivesFrom(atomic, 'ADI')) {
    const value = BigInt(text);
    if (type === 'unsignedShort') return { kind: 'character', cls: 'java.lang.Character', value: Number(value) };
    const [cls, bits] = Object.hasOwn(INTEGER_CLASSES, type) ? INTEGER_CLASSES[type] : ['java.lang.Long', 64 as const];
    // past 64 bits (BaseX has no such integers) a value is formatted as a java.math.BigInteger
    if (type === 'unsignedLong' || BigInt.asIntN(64, value) !== value) return { kind: 'integer', cls: 'java.math.BigInteger', value };
    return { kind: 'integer', cls, value, bits };
  }
  if (atomicDerivesFrom(atomic, 'AD')) return { kind: 'decimal', cls: 'java.math.BigDecimal', text };
  if (atomicDerivesFrom(atomic, 'AO')) return { kind: 'float', cls: 'java.lang.Double', value: Number(atomic.value) };
  if (atomicDerivesFrom(atomic, 'AF')) return { kind: 'float', cls: 'java.lang.Float', value: Number(atomic.value) };
  if (atomicDerivesFrom(atomic, 'AB')) return { kind: 'boolean', cls: 'java.lang.Boolean', text };
  if (atomicDerivesFrom(atomic, 'AS') || atomicDerivesFrom(atomic, 'AZ') || atomicDerivesFrom(atomic, 'AU')) return { kind: 'string', cls: 'java.lang.String', text };
  return { kind: 'other', cls: `xs:${type}`, text };
}

const stringOfNode = (node: XdmItem): string => (node as { textContent?: string | null }).textContent ?? String((node as { value?: string }).value ?? '');

export function format([pattern, ...values]: XdmValue[]): XdmValue {
  const args = values.map((v, i) => javaValue(v, i + 1));
  try {
    return [stringValue(javaFormat(String(pattern[0]), args))];
  } catch (e) {
    if (e instanceof JavaFormatError) throw moduleError('string', 'format', `${e.exception}: ${e.message}.`);
    // an implementation limit (XPath 3.1 §2.3.1)
    if (e instanceof JavaFormatLimit) throw xpathError(e.message, 'XPDY0130');
    throw e;
  }
}

// --- similarity -----------------------------------------------------------------------------

/** The optimal string alignment distance: insertions, deletions, substitutions, adjacent transpositions. */
function alignmentDistance(a: readonly number[], b: readonly number[]): number {
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      let cost = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cost = Math.min(cost, before[j - 2] + 1);
      current[j] = cost;
    }
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length];
}

function levenshtein([v1, v2]: XdmValue[]): XdmValue {
  const a = codePoints(v1);
  const b = codePoints(v2);
  if (a.length > MAX_LENGTH || b.length > MAX_LENGTH) throw moduleError('string', 'bounds', `String exceeds the maximum length of ${MAX_LENGTH} characters.`);
  const max = Math.max(a.length, b.length);
  return [doubleItem(max === 0 ? 1 : (max - alignmentDistance(a, b)) / max)];
}

function jaroWinkler([v1, v2]: XdmValue[]): XdmValue {
  const [x, y] = [codePoints(v1), codePoints(v2)];
  const [short, long] = x.length < y.length ? [x, y] : [y, x];
  if (long.length === 0) return [doubleItem(1)];
  const window = Math.max(Math.floor(long.length / 2) - 1, 0);
  const shortMatched = new Array<boolean>(short.length).fill(false);
  const longMatched = new Array<boolean>(long.length).fill(false);
  let matches = 0;
  for (let i = 0; i < short.length; i++) {
    for (let j = Math.max(i - window, 0); j < Math.min(i + window + 1, long.length); j++) {
      if (!longMatched[j] && short[i] === long[j]) {
        shortMatched[i] = longMatched[j] = true;
        matches++;
        break;
      }
    }
  }
  if (matches === 0) return [doubleItem(0)];
  const s1 = short.filter((_, i) => shortMatched[i]);
  const s2 = long.filter((_, i) => longMatched[i]);
  const transpositions = s1.filter((c, i) => c !== s2[i]).length;
  let prefix = 0;
  while (prefix < short.length && prefix < 4 && short[prefix] === long[prefix]) prefix++;
  // (m − t/2) with t/2 an integer division, as BaseX computes it
  const jaro = (matches / short.length + matches / long.length + (matches - Math.floor(transpositions / 2)) / matches) / 3;
  const score = jaro < 0.7 ? jaro : jaro + 0.1 * prefix * (1 - jaro);
  return [doubleItem(Math.round(score * 100) / 100)];
}

// --- phonetic codes -------------------------------------------------------------------------

/** Soundex digits of A to Z; 0: not coded (vowels, H, W, Y). */
const SOUNDEX = '01230120022455012623010202';

function soundex(value: XdmValue): string {
  const letters = [...String(value[0])].map((c) => c.toUpperCase()).filter((c) => c.length === 1 && c >= 'A' && c <= 'Z');
  if (letters.length === 0) return '0000';
  const code = (i: number): string => {
    const digit = SOUNDEX[letters[i].charCodeAt(0) - 65];
    // a consonant after H or W codes as one with the consonant before them (the 1880 census rule)
    if (i > 1 && digit !== '0' && (letters[i - 1] === 'H' || letters[i - 1] === 'W')) {
      const before = letters[i - 2];
      if (before === 'H' || before === 'W' || SOUNDEX[before.charCodeAt(0) - 65] === digit) return '';
    }
    return digit;
  };
  let out = letters[0];
  let last = code(0);
  for (let i = 1; i < letters.length && out.length < 4; i++) {
    const digit = code(i);
    if (digit === '') continue;
    if (digit !== '0' && digit !== last) out += digit;
    last = digit;
  }
  return out.padEnd(4, '0');
}

/** The lower case of one character, kept as it is where that would be several (Java's `Character.toLowerCase`). */
const lowerCase = (c: string): string => {
  const lower = c.toLowerCase();
  return [...lower].length === 1 ? lower : c;
};

const within = (set: string, c: string | undefined): boolean => c !== undefined && c.length === 1 && set.includes(c);

function colognePhonetic(value: XdmValue): string {
  const input = [...String(value[0])].map(lowerCase).map((c) => ({ ä: 'a', ö: 'o', ü: 'u', ß: 's' })[c] ?? c);
  let out = '';
  let lastChar = '-';
  let lastCode = '/';
  for (let i = 0; i < input.length; i++) {
    const c = input[i];
    const next = input[i + 1] ?? '-';
    let code: string;
    if (within('aeijouy', c)) code = '0';
    else if (c === 'h' || c < 'a' || c > 'z' || c.length !== 1) {
      if (lastCode === '/') continue;
      code = '-';
    } else if (c === 'b' || (c === 'p' && next !== 'h')) code = '1';
    else if ((c === 'd' || c === 't') && !within('scz', next)) code = '2';
    else if (within('wfpv', c)) code = '3';
    else if (within('gkq', c)) code = '4';
    else if (c === 'x' && !within('ckq', lastChar)) {
      // x is "ks": 4 now, and 8 for the s that follows
      code = '4';
      input[i--] = 's';
    } else if (c === 's' || c === 'z') code = '8';
    else if (c === 'c') {
      code = lastCode === '/' ? (within('ahkloqrux', next) ? '4' : '8') : lastChar === 's' || lastChar === 'z' || !within('ahoukqx', next) ? '8' : '4';
    } else if (within('tdx', c)) code = '8';
    else if (c === 'r') code = '7';
    else if (c === 'l') code = '5';
    else code = '6'; // m, n
    if (code !== '-' && lastCode !== code && (code !== '0' || lastCode === '/')) out += code;
    lastChar = c;
    lastCode = code;
  }
  return out;
}

// --- registration ---------------------------------------------------------------------------

/** Registers the string: functions with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerStringFunctions(): void {
  registerFunctions(MODULE_NAMESPACES.string, {
    format: {
      sig: `1F r[1AS] a[1AS${',*'.repeat(MAX_VALUES)}]`,
      arity: Array.from({ length: MAX_VALUES + 1 }, (_, i) => i + 1),
      impl: format,
    },
    levenshtein: { sig: '1F r[1AO] a[1AS,1AS]', impl: levenshtein },
    'jaro-winkler': { sig: '1F r[1AO] a[1AS,1AS]', impl: jaroWinkler },
    soundex: { sig: '1F r[1AS] a[1AS]', impl: ([v]) => [stringValue(soundex(v))] },
    'cologne-phonetic': { sig: '1F r[1AS] a[1AS]', impl: ([v]) => [stringValue(colognePhonetic(v))] },
  });
}
