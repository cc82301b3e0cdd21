/**
 * Source patch (saxon-js 2.7.0), applied with the other source patches (source.ts): saxon-js gets
 * no HTTP client.
 *
 * Its Node.js platform requires axios when the script loads, for one use: `resourcePromise`, the
 * asynchronous read of a resource whose location is not a file. Queries may not reach the network:
 * the resource guard of the query workers refuses such a read before the platform sees it
 * (platform-resources.ts). With the client replaced by one that refuses every request, a read the
 * guard let through still reaches nothing; and a thread that loads saxon-js no longer loads axios
 * and the twenty-odd modules it needs, about a third of loading saxon-js (0.17 s of CPU measured
 * on Node 20). The original text is found character for character, or the patch throws.
 */
import { replaceOnce } from './replace-once';

/** saxon-js 2.7.0: the platform's HTTP client. */
const ORIGINAL = 'G=require("axios")';

/** A client whose only method, `get`, refuses: `resourcePromise` turns the refusal into FODC0002. */
const PATCHED = 'G={get:function(){return Promise.reject(new Error("saxon-js has no HTTP client here"))}}';

/** `source` (SaxonJS2N.js of 2.7.0) without its HTTP client; throws for another text. */
export function patchNoHttpClient(source: string): string {
  return replaceOnce(source, ORIGINAL, PATCHED, 'saxon-js HTTP client patch: the platform\'s require("axios") of saxon-js 2.7.0 was not found; review lib/saxon/patches/no-http-client.ts for this saxon-js version');
}
