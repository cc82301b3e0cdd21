/**
 * Refusing requests that a browser sends for a page of another site (CSRF and cross-site reads;
 * our decision, BaseX has no such rule). A request is cross-site when it carries
 * `Sec-Fetch-Site: cross-site` or `same-site` (compared without regard to case or surrounding
 * space), or an `Origin` other than the request's own; origins listed in `trustedOrigins` are
 * treated as the router's own. Requests without these headers (curl, scripts, servers) are not
 * affected: only browsers send them, and a page cannot forge them (Fetch, forbidden request
 * headers). Browsers send `Origin` with every CORS request and with every POST, PUT, DELETE and
 * QUERY, and current ones (Chrome 76+, Firefox 90+, Safari 16.4+) send `Sec-Fetch-Site` with
 * every request, `<script>`, `<img>` and link loads included.
 *
 * Refused cross-site, whatever `Sec-Fetch-Mode` says: PUT, DELETE, POST and QUERY, and GET (or
 * HEAD) with `query`, `command` or `run`. Those routes run code on the user's behalf, so a
 * read-only query is refused as well as an update: in `no-cors` mode (`<script src>`) a page
 * would be handed the answer; in `cors` mode from an origin that is not trusted the browser
 * hides the answer, but the code has run with the user's credentials; a navigation (a link, a
 * form, a frame) shows the other site's query, with the user's data, under the router's origin.
 * A front end on a trusted origin reads with CORS (`fetch`), which sends its `Origin`. Cross-site
 * GETs of stored resources and listings are served: they run nothing, and
 * `Cross-Origin-Resource-Policy` (security-headers.ts) keeps another site from embedding them.
 */
import type { Request } from 'express';
import { raise } from '../xmldb-error';
import type { QueryPairs } from './query-string';
import { requestOrigin } from './request-origin';
import { HTTP_ERRORS } from './status';

/** `Sec-Fetch-Site` values of a request from another site (Fetch Metadata, §2.4). */
const OTHER_SITE = /^\s*(?:cross-site|same-site)\s*$/i;

/** Whether a `Sec-Fetch-Site` header names another site (any of its values, when repeated). */
function fromOtherSite(header: string | string[] | undefined): boolean {
  if (header === undefined) return false;
  const values = Array.isArray(header) ? header : header.split(',');
  return values.some((value) => OTHER_SITE.test(value));
}

export function isCrossSite(req: Request, trustedOrigins: ReadonlySet<string>): boolean {
  const origin = req.headers.origin;
  if (origin !== undefined && trustedOrigins.has(origin)) return false;
  if (fromOtherSite(req.headers['sec-fetch-site'])) return true;
  return origin !== undefined && origin !== requestOrigin(req);
}

/** What a cross-site request may not do, known from its method and query string alone. */
function refusedOperation(method: string, pairs: QueryPairs): string | undefined {
  if (method === 'PUT' || method === 'DELETE' || method === 'POST' || method === 'QUERY') return method;
  // HEAD runs what GET runs, and browsers send it cross-site without a preflight like GET.
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  const op = pairs.find(([name]) => name === 'query' || name === 'command' || name === 'run');
  return op === undefined ? undefined : `${method} with ${op[0]}`;
}

/** Throws 403 for a cross-site request that changes state or runs code. */
export function refuseCrossSite(crossSite: boolean, method: string, pairs: QueryPairs): void {
  if (!crossSite) return;
  const refused = refusedOperation(method, pairs);
  if (refused !== undefined) throw raise(HTTP_ERRORS, 'CROSS_SITE_X', refused);
}
