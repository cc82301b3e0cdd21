/**
 * Runtime patch (saxon-js 2.7.0): its string values (xs:string, xs:untypedAtomic, xs:anyURI:
 * one class, `Ya` in SaxonJS2N.js) compare, and so test equality, through a function that first
 * expands both strings into arrays of characters to look for characters outside the Basic
 * Multilingual Plane (`Ha`), since those sort differently by code point (the codepoint
 * collation, XPath F&O 3.1 §5.3.2) than by UTF-16 code unit. Every `=` between strings paid for
 * two arrays as long as the strings.
 *
 * The patched `compareTo` answers without them where the answer cannot depend on that:
 * identical strings are equal; a string that is a prefix of the other, unit for unit, comes
 * first; otherwise, at the first code unit where the two differ, when neither unit is a
 * surrogate, both strings agree up to that character and differ in it, so its code point
 * decides. Where a surrogate is at that position (a character outside the BMP, or a lone
 * surrogate), and for a value of another class, the original method answers. Results are
 * saxon-js's: -1, 0 or 1. Guarded like the other patches: a different method fails when the
 * patch is applied.
 */
import { saxon, type XdmAtomic } from '..';

interface StringValue {
  readonly value: string;
  compareTo(other: unknown): number;
}

type StringProto = StringValue & { __stringOrderPatched?: boolean; constructor: abstract new (...args: never[]) => StringValue };

function isSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdfff;
}

/** Applies the patch in this thread (idempotent; throws for another saxon-js version). */
export function patchStringOrder(): void {
  const sample = saxon().XS as unknown as { string?: { fromString(s: string): XdmAtomic } };
  const proto = sample.string ? (Object.getPrototypeOf(sample.string.fromString('a')) as StringProto) : undefined;
  if (proto?.__stringOrderPatched) return;
  const original = proto && Object.prototype.hasOwnProperty.call(proto, 'compareTo') ? proto.compareTo : undefined;
  if (!proto || !original || !/^compareTo\(a\)\{return a instanceof Ya\?Ga\(this\.value,a\.value\):Za\(this\.code,a\.code\)\}$/.test(String(original))) {
    throw new Error('saxon-js string-order patch: the string comparison of saxon-js 2.7.0 was not found; review lib/saxon/patches/string-order.ts for this saxon-js version');
  }
  const StringClass = proto.constructor;
  proto.compareTo = function compareStrings(this: StringValue, other: unknown): number {
    if (other instanceof StringClass && typeof this.value === 'string' && typeof other.value === 'string') {
      const a = this.value;
      const b = other.value;
      if (a === b) return 0;
      const n = Math.min(a.length, b.length);
      let i = 0;
      while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
      if (i === n) return a.length < b.length ? -1 : 1;
      const x = a.charCodeAt(i);
      const y = b.charCodeAt(i);
      if (!isSurrogate(x) && !isSurrogate(y)) return x < y ? -1 : 1;
    }
    return original.call(this, other);
  };
  proto.__stringOrderPatched = true;
}
