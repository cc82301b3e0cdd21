/**
 * Keeps queries away from the host's files and the network unless the run may read them: the
 * router option `allowFileAccess` is on and the requesting user is an admin
 * (operations/permission.ts `mayReadHostFiles`; RunTask.fileAccess).
 *
 * saxon-js 2.7 reaches host files and the network only through four functions of its platform
 * object, which lib/saxon/patches/platform-resources.ts guards with the policy here. While access
 * is off, a read fails with FODC0002 ("Access to 'URI' is denied."), which saxon itself turns
 * into the error its caller defines:
 * FODC0002 for fn:doc and document(), FOUT1170 for the unparsed-text family and fn:json-doc,
 * false for fn:doc-available and fn:unparsed-text-available. Writes fail with the same FODC0002
 * error (there is nothing a query may write outside the store).
 *
 * Stored resources may come through here: a URI below the default static base URI's folder
 * (`file:///xmldb-rest/db/path`, what saxon makes of a relative `doc('db/path')` the translator
 * did not rewrite, or of `unparsed-text('db/notes.txt')`) is answered with the stored text of
 * that resource by the running query's source (store-source.ts), whether or not file access is
 * allowed. Saxon parses such a document itself: within the query it is one node, but not the
 * node fn:doc returns through the source.
 *
 * The guard is installed once per thread, on first use; `withFileAccess` switches the policy for
 * one run (worker/thread.ts). The default is OFF, and a run leaves it OFF.
 */
import { activeDocumentSource } from '../documents/source';
import { xpathError } from '../../../saxon';
import { guardPlatformResources, readThroughPlatform } from '../../../saxon/patches';
import { isDatabaseAccess } from '../documents/database-access';
import { hasScheme } from '../../language/resource-uri';
import { BASE_FOLDER } from '../../constants';

let allowed = false;
/** The guard is in place (it is switched per run, so the check comes before building its policy). */
let installed = false;

/** The error a refused read raises (callers inside saxon map it to FOUT1170 where the spec says so). */
export function accessDenied(uri: string): Error {
  return xpathError(`Access to '${uri}' is denied.`, 'FODC0002');
}

/** Guards saxon's resource-loading entry points with this policy (idempotent). */
export function installResourceGuard(): void {
  if (installed) return;
  guardPlatformResources({ storedText, refusal: (uri) => (allowed ? undefined : accessDenied(uri)) });
  installed = true;
}

/** The stored text a URI below the base folder names, if the running query's source has it. */
function storedText(uri: string): string | undefined {
  if (!uri.startsWith(BASE_FOLDER)) return undefined;
  const source = activeDocumentSource();
  if (!isDatabaseAccess(source) || !source.storedText) return undefined;
  try {
    return source.storedText(uri);
  } catch {
    return undefined;
  }
}

/** Switches access to host files on or off for this thread (installs the guard). */
export function setFileAccess(allow: boolean): void {
  installResourceGuard();
  allowed = allow;
}

/** Runs `fn` with access to host files as `allow` says, and switches it off again after. */
export function withFileAccess<T>(allow: boolean, fn: () => T): T {
  setFileAccess(allow);
  try {
    return fn();
  } finally {
    allowed = false;
  }
}

/** Whether queries in this thread may read host files (false until setFileAccess(true)). */
export function fileAccessAllowed(): boolean {
  return allowed;
}

/**
 * The text at `uri`, read as fn:unparsed-text reads it, for the module functions that load
 * documents (json:doc, csv:doc): a URI without a scheme names a stored resource (`db/path`,
 * resource-uri.ts) and is looked up by the running query's source; any other URI is a host file or the
 * network and goes through the guard above (FODC0002 "Access to 'URI' is denied." without
 * permission).
 */
export function readResourceText(uri: string): string {
  installResourceGuard();
  if (!hasScheme(uri)) {
    const text = storedText(BASE_FOLDER + uri.replace(/\\/g, '/').replace(/^\/+/, ''));
    if (text === undefined) throw xpathError(`Resource '${uri}' does not exist.`, 'FODC0002');
    return text;
  }
  return readThroughPlatform(uri);
}
