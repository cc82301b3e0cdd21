/**
 * Writing results and errors (spec §12): errors are text bodies (or problem details, when the
 * client prefers them), never stacks. Only Node's own request and response API is used, so the
 * router also serves plain `http.createServer` requests.
 */
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';
import { XmldbError } from '../xmldb-error';
import type { Logger } from '../logger';
import type { Result } from '../operations/types';
import { errorBody } from '../xquery/static-errors';
import { QueryError } from '../xquery/query-error';
import { PROBLEM_JSON, prefersProblem, problemOf } from './problem';
import { securityHeaders, setSecurityHeaders } from './security-headers';

/**
 * Writes a result. A HEAD request gets the status and headers of the GET, Content-Length
 * included, and no body (RFC 9110 §9.3.2); a 304 has no body either.
 *
 * The status and all headers go in one `writeHead` with a flat name/value list: Node then checks
 * and formats each header once, where `setHeader` per header would also keep a header object
 * for the response (a host's headers set before still stand, unless ours name them too).
 */
export function send(req: IncomingMessage, res: Response, result: Result): void {
  const bodyless = req.method === 'HEAD' || result.status === 304;
  const headers: string[] = [];
  // Content-Type by name, not res.set: Express would look up a media type without a slash (`media-type=xxx`).
  if (result.status !== 304) headers.push('Content-Type', result.contentType);
  const security = securityHeaders();
  for (let i = 0; i < security.length; i++) headers.push(security[i]);
  const streamed = result.body instanceof Readable;
  // a text body's length is ours: it is the length of what is written
  if (result.headers) for (const [name, value] of Object.entries(result.headers)) if (streamed || name.toLowerCase() !== 'content-length') headers.push(name, value);
  if (streamed) {
    res.writeHead(result.status, headers);
    if (bodyless) {
      result.body.destroy();
      res.end();
      return;
    }
    result.body.on('error', () => res.destroy());
    result.body.pipe(res);
    return;
  }
  if (result.status !== 304) headers.push('Content-Length', String(Buffer.byteLength(result.body)));
  res.writeHead(result.status, headers);
  res.end(bodyless ? undefined : result.body);
}

/** The one error middleware, added last to the router. */
export function errorHandler(logger: Logger) {
  return (err: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) {
      next(err);
      return;
    }
    if (err instanceof XmldbError) {
      if (err.status === 401) res.setHeader('WWW-Authenticate', 'Basic realm="BaseX"');
      if (err.headers) for (const [name, value] of Object.entries(err.headers)) res.setHeader(name, value);
      sendError(req, res, err.status, err instanceof QueryError ? errorBody(err) : err.message, err);
      return;
    }
    const error = err instanceof Error ? err : new Error(String(err));
    logger.error({ err: error, stack: error.stack }, `xmldb-rest: internal error: ${error.message}`);
    sendError(req, res, 500, 'Internal error.');
  };
}

function sendError(req: IncomingMessage, res: Response, status: number, text: string, error?: unknown): void {
  res.statusCode = status;
  const problem = prefersProblem(req);
  const body = problem ? JSON.stringify(problemOf(status, text, error)) : text;
  const contentType = problem ? PROBLEM_JSON : 'text/plain; charset=UTF-8';
  res.setHeader('Content-Type', contentType);
  setSecurityHeaders(res);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(req.method === 'HEAD' ? undefined : body);
}
