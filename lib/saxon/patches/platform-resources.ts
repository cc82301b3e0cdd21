/**
 * Runtime patch (saxon-js 2.7.0): saxon-js reaches the outside world only through its platform
 * object (`SaxonJS.getPlatform()`, the Node.js platform; the internal wrapper every call site uses
 * delegates to it at call time):
 * - `readFile(uri)`: every synchronous load: fn:doc, fn:doc-available, fn:unparsed-text(-lines,
 *   -available), fn:json-doc, XSLT document(), the stylesheet and source locations of
 *   fn:transform, xsl:include/xsl:import while fn:transform compiles a stylesheet text;
 * - `resourcePromise(request)`: asynchronous loads (files, and HTTP through axios);
 * - `writeFileSync` / `writeFileAsync`: xsl:result-document with a file href;
 * - `makeHttpRequest`: already refuses on Node.js.
 * Those four are replaced by guards that ask a policy (the resource guard of query workers,
 * lib/xquery/worker/guards/resource-guard.ts) first. Applied once per thread; the policy of the first
 * call stays.
 */
import { saxon } from '..';

/** What the guarded platform asks before it reaches a resource. */
export interface ResourcePolicy {
  /** The text to answer a synchronous read of `uri` with, instead of the platform's, if any. */
  storedText(uri: string): string | undefined;
  /** The error refusing access to `uri`, or undefined when the platform may reach it. */
  refusal(uri: string): Error | undefined;
}

interface GuardedPlatform {
  readFile(uri: unknown, ...rest: unknown[]): unknown;
  resourcePromise(request: unknown): Promise<unknown>;
  writeFileSync(uri: unknown, ...rest: unknown[]): unknown;
  writeFileAsync(uri: unknown, ...rest: unknown[]): Promise<unknown>;
}

let guarded = false;

function uriOf(request: unknown): string {
  if (request && typeof request === 'object') {
    const r = request as { file?: unknown; location?: unknown };
    if (r.file !== undefined) return String(r.file);
    if (r.location !== undefined) return String(r.location);
  }
  return String(request);
}

/** Replaces saxon's resource-loading entry points by guards asking `policy` (idempotent). */
export function guardPlatformResources(policy: ResourcePolicy): void {
  if (guarded) return;
  const platform = saxon().getPlatform() as unknown as GuardedPlatform;
  // saxon-js 2.7.0's Node.js platform: these four are every way out (see above)
  const entries = [platform.readFile, platform.resourcePromise, platform.writeFileSync, platform.writeFileAsync];
  if (entries.some((f) => typeof f !== 'function') || !String(platform.readFile).includes('Synchronous access to non-fi')) {
    throw new Error("saxon-js resource guard: the platform's resource functions of saxon-js 2.7.0 were not found; review lib/saxon/patches/platform-resources.ts for this saxon-js version");
  }
  const readFile = platform.readFile;
  const resourcePromise = platform.resourcePromise;
  const writeFileSync = platform.writeFileSync;
  const writeFileAsync = platform.writeFileAsync;
  platform.readFile = function guardedReadFile(this: unknown, uri: unknown, ...rest: unknown[]) {
    const text = policy.storedText(String(uri));
    if (text !== undefined) return text;
    const refused = policy.refusal(String(uri));
    if (refused) throw refused;
    return readFile.call(this, uri, ...rest);
  };
  platform.resourcePromise = function guardedResourcePromise(this: unknown, request: unknown) {
    const refused = policy.refusal(uriOf(request));
    if (refused) return Promise.reject(refused);
    return resourcePromise.call(this, request);
  };
  platform.writeFileSync = function guardedWriteFileSync(this: unknown, uri: unknown, ...rest: unknown[]) {
    const refused = policy.refusal(String(uri));
    if (refused) throw refused;
    return writeFileSync.call(this, uri, ...rest);
  };
  platform.writeFileAsync = function guardedWriteFileAsync(this: unknown, uri: unknown, ...rest: unknown[]) {
    const refused = policy.refusal(String(uri));
    if (refused) return Promise.reject(refused);
    return writeFileAsync.call(this, uri, ...rest);
  };
  guarded = true;
}

/** Reads `uri` as the platform's synchronous loads do (through the guards, once applied). */
export function readThroughPlatform(uri: string): string {
  return String((saxon().getPlatform() as unknown as GuardedPlatform).readFile(uri));
}
