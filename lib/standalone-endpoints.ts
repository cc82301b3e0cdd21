/**
 * What the standalone server answers besides `/rest`, without authentication: `GET /healthz`
 * (200 `{"status":"ok"}` when the store is open and a query worker answers, 503 otherwise) and
 * `GET /openapi.json` (the OpenAPI description of `/rest`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RestRouter } from './http/router';
import { setSecurityHeaders } from './http/security-headers';
import { openApiDocument } from './openapi/document';

function sendJson(req: IncomingMessage, res: ServerResponse, status: number, body: string, type = 'application/json'): void {
  res.statusCode = status;
  res.setHeader('Content-Type', `${type}; charset=UTF-8`);
  setSecurityHeaders(res);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.setHeader('Cache-Control', 'no-store');
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** Answers `/healthz` and `/openapi.json` (GET, HEAD); false for anything else. */
export function serveEndpoint(req: IncomingMessage, res: ServerResponse, router: RestRouter, mount: string): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const url = req.url ?? '/';
  const end = url.indexOf('?');
  const path = end < 0 ? url : url.slice(0, end);
  if (path === '/healthz') {
    router.health().then(
      (ok) => sendJson(req, res, ok ? 200 : 503, JSON.stringify({ status: ok ? 'ok' : 'unavailable' })),
      () => sendJson(req, res, 503, JSON.stringify({ status: 'unavailable' })),
    );
    return true;
  }
  if (path === '/openapi.json') {
    sendJson(req, res, 200, JSON.stringify(openApiDocument({ serverUrl: mount })));
    return true;
  }
  return false;
}
