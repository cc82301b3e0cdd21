/**
 * BaseX's Random Module (docs.basex.org, "Random Functions"), as saxon-js extension functions in
 * namespace `http://basex.org/modules/random` (prefix `random`):
 *
 *   random:double() as xs:double                          in [0, 1)
 *   random:integer($max as xs:integer? := ()) as xs:integer   in [0, $max), or any 32-bit integer
 *   random:seeded-double($seed, $num) as xs:double*
 *   random:seeded-integer($seed, $num, $max := ()) as xs:integer*
 *   random:gaussian($num) as xs:double*                   normally distributed (mean 0, deviation 1)
 *   random:seeded-permutation($seed, $input as item()*) as item()*
 *   random:uuid() as xs:string                            a random (version 4) UUID
 *
 * BaseX draws its seeded numbers from `java.util.Random`, so that a seed gives the same numbers on
 * every run; {@link SeededRandom} is that generator as the Java SE API specification defines it
 * (a 48-bit linear congruential generator, D. Knuth, TAOCP vol. 2 §3.2.1), so a seed gives the same
 * numbers here as in BaseX. The permutation is BaseX's: each item in turn is put at a random
 * position among those before it, and the item there moves to the end. A `$max` that is not
 * positive, or larger than a 32-bit integer, is `[random:bounds]`.
 */
import { randomUUID } from 'node:crypto';
import { castString, registerFunctions, stringValue, xpathError, type XdmItem, type XdmValue } from '../../saxon';
import { moduleError } from './support/option-maps';
import { MODULE_NAMESPACES } from '../module-namespaces';

const MULTIPLIER = 0x5deece66dn;
const MASK = (1n << 48n) - 1n;
const INT_MAX = 2 ** 31 - 1;

/** `java.util.Random`: the generator, and the methods BaseX uses, as the Java SE API specifies them. */
export class SeededRandom {
  private seed: bigint;
  private nextGaussianValue: number | undefined;

  constructor(seed: bigint) {
    this.seed = (BigInt.asIntN(64, seed) ^ MULTIPLIER) & MASK;
  }

  /** The next `bits` random bits, as a signed 32-bit integer. */
  private next(bits: number): number {
    this.seed = (this.seed * MULTIPLIER + 0xbn) & MASK;
    return Number(BigInt.asIntN(32, this.seed >> BigInt(48 - bits)));
  }

  nextInt(bound?: number): number {
    if (bound === undefined) return this.next(32);
    if ((bound & -bound) === bound) return Number((BigInt(bound) * BigInt(this.next(31))) >> 31n);
    for (;;) {
      const bits = this.next(31);
      const value = bits % bound;
      if (bits - value + (bound - 1) <= INT_MAX) return value;
    }
  }

  nextDouble(): number {
    return (this.next(26) * 2 ** 27 + this.next(27)) * 2 ** -53;
  }

  /** The polar method (G. E. P. Box, M. E. Muller, G. Marsaglia), two values per round. */
  nextGaussian(): number {
    if (this.nextGaussianValue !== undefined) {
      const value = this.nextGaussianValue;
      this.nextGaussianValue = undefined;
      return value;
    }
    for (;;) {
      const v1 = 2 * this.nextDouble() - 1;
      const v2 = 2 * this.nextDouble() - 1;
      const s = v1 * v1 + v2 * v2;
      if (s >= 1 || s === 0) continue;
      const multiplier = Math.sqrt((-2 * Math.log(s)) / s);
      this.nextGaussianValue = v2 * multiplier;
      return v1 * multiplier;
    }
  }
}

/** A generator seeded from the system's randomness, for the functions without a seed. */
const unseeded = (): SeededRandom => new SeededRandom(BigInt(Math.floor(Math.random() * 2 ** 53)) ^ (BigInt(Date.now()) << 16n));

const doubleItem = (n: number): XdmItem => castString(String(n), 'double');
const integerItem = (n: number): XdmItem => castString(String(n), 'integer');
const big = (v: XdmValue): bigint => BigInt(String(v[0]));

/** The number of values asked for (negative: none); past the length of a JavaScript array, XPDY0130. */
function count(v: XdmValue): number {
  const n = big(v);
  if (n > 0xffffffffn) throw xpathError(`Too many values requested: ${n}.`, 'XPDY0130');
  return n <= 0n ? 0 : Number(n);
}

/** `$max` as a bound for nextInt: positive and within 32 bits, else random:bounds. */
function bound(v: XdmValue | undefined): number | undefined {
  if (v === undefined || v.length === 0) return undefined;
  const n = big(v);
  if (n <= 0n || n > BigInt(INT_MAX)) throw moduleError('random', 'bounds', `Maximum value is out of bounds: ${n}.`);
  return Number(n);
}

function series(num: XdmValue, next: () => XdmItem): XdmValue {
  return Array.from({ length: count(num) }, next);
}

function permutation([seed, input]: XdmValue[]): XdmValue {
  const random = new SeededRandom(big(seed));
  const items: XdmItem[] = [];
  for (let item of input) {
    const size = items.length;
    const at = random.nextInt(size + 1);
    if (at < size) [items[at], item] = [item, items[at]];
    items.push(item);
  }
  return items;
}

/** Registers the random: functions with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerRandomFunctions(): void {
  registerFunctions(MODULE_NAMESPACES.random, {
    double: { sig: '1F r[1AO] a[]', arity: [0], impl: () => [doubleItem(Math.random())] },
    integer: {
      sig: '1F r[1ADI] a[?ADI]',
      arity: [0, 1],
      impl: ([max]) => [integerItem(unseeded().nextInt(bound(max)))],
    },
    'seeded-double': {
      sig: '1F r[*AO] a[1ADI,1ADI]',
      impl: ([seed, num]) => {
        const random = new SeededRandom(big(seed));
        return series(num, () => doubleItem(random.nextDouble()));
      },
    },
    'seeded-integer': {
      sig: '1F r[*ADI] a[1ADI,1ADI,?ADI]',
      arity: [2, 3],
      impl: ([seed, num, max]) => {
        const limit = bound(max);
        const random = new SeededRandom(big(seed));
        return series(num, () => integerItem(random.nextInt(limit)));
      },
    },
    gaussian: {
      sig: '1F r[*AO] a[1ADI]',
      impl: ([num]) => {
        const random = unseeded();
        return series(num, () => doubleItem(random.nextGaussian()));
      },
    },
    'seeded-permutation': { sig: '1F r[*] a[1ADI,*]', impl: permutation },
    uuid: { sig: '1F r[1AS] a[]', arity: [0], impl: () => [stringValue(randomUUID())] },
  });
}
