/**
 * Source patch (saxon-js 2.7.0), applied with the package walk patch (source.ts): the tunnel
 * parameters a template call passes on are shared, not copied.
 *
 * Every `xsl:call-template`, `xsl:apply-templates` and `xsl:next-match` sets up its callee's
 * parameters in the function `v` of SaxonJS2N.js: it copied every tunnel parameter of the caller
 * into a new map, entry by entry, and then added the call's own tunnel parameters. saxon-js's maps
 * are tries keyed by each character of a key's hash, so a copy allocates a node per character of
 * every name. The built-in XSLT compiler tunnels its options through every template of its
 * passes: the copies were the largest single cost of compiling a query (about a fifth of the
 * compiler's time in a profile of 150 compilations of the test suite's stylesheets, and much of the
 * garbage collection).
 *
 * A map of tunnel parameters is never changed once its call has been set up (only this function
 * writes to one, and only to the map it has just made), so the callee can share the caller's map
 * when the call adds no tunnel parameter; a call that adds one gets the caller's map with the
 * addition (`put`, saxon-js's own non-destructive insertion, which copies one path of the trie).
 * Which parameters a template sees, and their values, are unchanged (XSLT 3.0 §10.1.3). The
 * original text is found character for character, or the patch throws.
 */
import { replaceOnce } from './replace-once';

/** saxon-js 2.7.0's set-up of a callee's local and tunnel parameters. */
const ORIGINAL =
  'function v(k,F,T){k=z(k,"withParam");const t=[new lc,new lc];F.tunnelParams.forAllPairs(U=>t[1].inSituPut(U.k,U.v));const R=F.tempOutputState;\n' +
  'F.tempOutputState="template parameter";k.forEach(function(U){const ia=U.name,ua=Q(U,"t")?1:0;t[ua].inSituPut(Sa.XS.QName.fromEQName(ia),d(U)(F).expand())});F.tempOutputState=R;T.localParams=t[0];T.tunnelParams=t[1]}';

/** The same set-up, starting from the caller's tunnel map (name before value, as before). */
const PATCHED =
  'function v(k,F,T){k=z(k,"withParam");const t=[new lc,F.tunnelParams];const R=F.tempOutputState;\n' +
  'F.tempOutputState="template parameter";k.forEach(function(U){const ia=U.name,ua=Q(U,"t")?1:0;const K=Sa.XS.QName.fromEQName(ia),V=d(U)(F).expand();ua?t[1]=t[1].put(K,V):t[0].inSituPut(K,V)});F.tempOutputState=R;T.localParams=t[0];T.tunnelParams=t[1]}';

/** `source` (SaxonJS2N.js of 2.7.0) with tunnel parameters shared; throws for another text. */
export function patchTunnelParams(source: string): string {
  return replaceOnce(source, ORIGINAL, PATCHED, 'saxon-js tunnel parameter patch: the parameter set-up of saxon-js 2.7.0 was not found; review lib/saxon/patches/tunnel-params.ts for this saxon-js version');
}
