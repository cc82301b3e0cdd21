/**
 * Headers that keep browsers from running, or handing to another site, what the router serves
 * (our decision; the HTTP wall of the query sandbox). Every response carries all three, whatever
 * its status and content type: a client chooses the type of a query result (`media-type`), so a
 * rule by type would trust the attacker's choice, and a type a browser renders today (PDF,
 * `multipart/*`, CSS with a viewer) may gain scripts tomorrow.
 * - `X-Content-Type-Options: nosniff`: a browser never guesses an active type, and refuses a
 *   script or style whose type is not one (Fetch, "should response to request be blocked due to
 *   nosniff?").
 * - `Content-Security-Policy: sandbox; default-src 'none'`: a response opened as a document is
 *   shown, but runs no script, loads nothing and has an opaque origin, so it cannot act with the
 *   visitor's credentials (CSP Level 3, `sandbox`).
 * - `Cross-Origin-Resource-Policy: same-origin`: a page of another origin cannot embed a
 *   response (`<script>`, `<img>`, `<link>`, `no-cors` fetches) and read it through side channels.
 *   It applies to `no-cors` requests only (Fetch, "cross-origin resource policy internal check":
 *   a request whose mode is not `no-cors` is allowed; web-platform-tests
 *   fetch/cross-origin-resource-policy check both), so a front end of a `trustedOrigins` origin
 *   that reads with CORS (`fetch`, `<img crossorigin>`) is not affected; `same-site` would only
 *   add embedding by sibling hosts, which the router does not need.
 */
import type { ServerResponse } from 'node:http';

const SANDBOX_POLICY = "sandbox; default-src 'none'";

/** The security headers of every response, as name, value, name, value... */
const SECURITY_HEADERS = [
  'X-Content-Type-Options', 'nosniff',
  'Content-Security-Policy', SANDBOX_POLICY,
  'Cross-Origin-Resource-Policy', 'same-origin',
] as const;

/** The security headers, as a flat name/value list for `writeHead`. */
export function securityHeaders(): readonly string[] {
  return SECURITY_HEADERS;
}

/** Sets the security headers on a response, those without a body included. */
export function setSecurityHeaders(res: ServerResponse): void {
  for (let i = 0; i < SECURITY_HEADERS.length; i += 2) res.setHeader(SECURITY_HEADERS[i], SECURITY_HEADERS[i + 1]);
}
