/** OPTIONS (RFC 9110 §9.3.7): the methods of the interface, without authentication. */
import type { ServerResponse } from 'node:http';
import { setSecurityHeaders } from './security-headers';

/** Every method the router answers, in the order of the `Allow` header. */
export const ALLOWED_METHODS = ['GET', 'HEAD', 'PUT', 'DELETE', 'POST', 'QUERY', 'OPTIONS'] as const;

export const ALLOW = ALLOWED_METHODS.join(', ');

/**
 * 204 with `Allow`. A host's CORS middleware (e.g. `cors()`) in front answers preflights itself;
 * without one, a preflight gets this answer and no CORS headers, so the browser refuses, as it should.
 */
export function answerOptions(res: ServerResponse): void {
  res.statusCode = 204;
  setSecurityHeaders(res);
  res.setHeader('Allow', ALLOW);
  res.end();
}
