/**
 * Refusing state-changing requests that a browser sends for a page of another site (CSRF; our
 * decision, BaseX has no such rule). A request is cross-site when it carries
 * `Sec-Fetch-Site: cross-site` or `same-site`, or an `Origin` other than the request's own;
 * origins listed in `trustedOrigins` are treated as the router's own. Requests without these
 * headers (curl, scripts, servers) are not affected: only browsers send them. Browsers send
 * `Origin` with every POST, PUT, DELETE and QUERY, and current ones (Chrome 76+, Firefox 90+,
 * Safari 16.4+) send `Sec-Fetch-Site` with every request, GETs of images and links included.
 *
 * State-changing: PUT, DELETE, POST, QUERY (its body may be an updating query), and GET (or
 * HEAD) with `command` or `run`; with `query` only when the query is updating (the router asks the
 * engine's update analysis before running it). Cross-site GETs of resources, listings and
 * read-only queries are served: a browser does not hand their answer to the other site without
 * CORS.
 */
import type { Request } from 'express';
import { raise } from '../errors';
import type { QueryPairs } from './query-string';
import { requestOrigin } from './request-origin';
import { HTTP_ERRORS } from './status';

export function isCrossSite(req: Request, trustedOrigins: ReadonlySet<string>): boolean {
  const origin = req.headers.origin;
  if (origin !== undefined && trustedOrigins.has(origin)) return false;
  const site = req.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return true;
  return origin !== undefined && origin !== requestOrigin(req);
}

/** What a cross-site request may not do, known from its method and query string alone. */
function refusedOperation(method: string, pairs: QueryPairs): string | undefined {
  if (method === 'PUT' || method === 'DELETE' || method === 'POST' || method === 'QUERY') return method;
  // HEAD runs what GET runs, and browsers send it cross-site without a preflight like GET.
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  const op = pairs.find(([name]) => name === 'command' || name === 'run');
  return op === undefined ? undefined : `${method} with ${op[0]}`;
}

/** Throws 403 for a cross-site request whose method or operation changes state. */
export function refuseCrossSiteChange(crossSite: boolean, method: string, pairs: QueryPairs): void {
  if (!crossSite) return;
  const refused = refusedOperation(method, pairs);
  if (refused !== undefined) throw raise(HTTP_ERRORS, 'CROSS_SITE_X', refused);
}

/** Throws 403 for a cross-site GET whose query is updating. */
export function refuseCrossSiteUpdate(updating: boolean): void {
  if (updating) throw raise(HTTP_ERRORS, 'CROSS_SITE_X', 'GET with an updating query');
}
