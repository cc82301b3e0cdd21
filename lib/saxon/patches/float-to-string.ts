/**
 * Runtime patch (saxon-js 2.7.0): its xs:double/xs:float class (`Va` in SaxonJS2N.js) writes an
 * xs:float by rounding the double expansion to 7 significant digits, so `xs:float(1e11)` comes
 * out as `9.9999998E10` and `xs:float('1.2345e-2')` as `0.01234`. That `toString` is what string(),
 * casts and element/attribute content use, so we replace it, for xs:float values only, with
 * `floatCanonical`. Applied by `applyQueryPatches` (apply.ts) in query workers. If the
 * class no longer looks as expected (another saxon-js version), we throw instead of silently
 * keeping or breaking float output.
 */
import { TypeCode, saxon, type XdmAtomic } from '..';
import { floatCanonical } from '../float-canonical';

/** Applies the patch in this thread (idempotent; throws for another saxon-js version). */
export function patchFloatToString(): void {
  const sample = saxon().Atomic.codes[TypeCode.float]?.fromNumber?.(1) as XdmAtomic | undefined;
  const proto = sample ? (Object.getPrototypeOf(sample) as { toString: (this: XdmAtomic) => string; __floatPatched?: boolean }) : null;
  if (proto?.__floatPatched) return;
  const original = proto && Object.prototype.hasOwnProperty.call(proto, 'toString') ? proto.toString : null;
  if (!proto || !original || sample!.code !== TypeCode.float || !/"AF"===this\.code/.test(String(original)) || !/5E-8/.test(String(original))) {
    throw new Error('saxon-js float patch: the xs:float toString of saxon-js 2.7.0 was not found; review lib/saxon/patches/float-to-string.ts for this saxon-js version');
  }
  proto.toString = function floatAwareToString(this: XdmAtomic): string {
    return this.code === TypeCode.float ? floatCanonical(this.value as number) : original.call(this);
  };
  proto.__floatPatched = true;
}
