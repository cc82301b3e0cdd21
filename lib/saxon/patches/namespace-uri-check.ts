/**
 * Runtime patch (saxon-js 2.7.0): `xsl:element` and `xsl:attribute` check their `namespace`
 * value with an internal validator (`Expr.Ek` in SaxonJS2N.js, used by nothing else) that
 * rejects any whitespace, raising XTDE0835/XTDE0865 for `Q{z z}x`. In XQuery 3.1 a namespace URI
 * is any string (§3.9.3.1: no lexical check; only the reserved xml/xmlns bindings are errors,
 * and the translation raises those itself), so the validator accepts every string.
 * Guarded like the other patches: a different validator fails when the patch is applied.
 */
import { saxon } from '..';

/** Applies the patch in this thread (idempotent; throws for another saxon-js version). */
export function patchNamespaceUriCheck(): void {
  const expr = (saxon().internals as unknown as { Expr?: { Ek?: ((uri: string) => boolean) & { __nsUriPatched?: boolean } } }).Expr;
  const original = expr?.Ek;
  if (original?.__nsUriPatched) return;
  if (!expr || typeof original !== 'function' || !String(original).includes('/[ \\t\\r\\n]/.test(')) {
    throw new Error('saxon-js namespace-URI patch: the xsl:element namespace check of saxon-js 2.7.0 was not found; review lib/saxon/patches/namespace-uri-check.ts for this saxon-js version');
  }
  const anyString = (uri: string): boolean => typeof uri === 'string';
  expr.Ek = Object.assign(anyString, { __nsUriPatched: true });
}
