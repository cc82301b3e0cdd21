/**
 * Writing results and errors (spec §12): errors are text bodies, never stacks. Only Node's own
 * response API is used, so the router also serves plain `http.createServer` requests.
 */
import { Readable } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';
import { XmldbError } from '../errors';
import type { Result } from '../operations/types';
import { errorBody } from '../xquery/errors';
import { QueryError } from '../xquery/runtime/errors';

export function send(res: Response, result: Result): void {
  res.statusCode = result.status;
  // setHeader, not res.set: Express would look up a media type without a slash (`media-type=xxx`).
  res.setHeader('Content-Type', result.contentType);
  if (result.headers) for (const [name, value] of Object.entries(result.headers)) res.setHeader(name, value);
  if (result.body instanceof Readable) {
    result.body.on('error', () => res.destroy());
    result.body.pipe(res);
  } else {
    res.end(result.body);
  }
}

/** The one error middleware, added last to the router. */
export function errorHandler(log: (message: string) => void) {
  return (err: unknown, _req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) {
      next(err);
      return;
    }
    if (err instanceof XmldbError) {
      if (err.status === 401) res.setHeader('WWW-Authenticate', 'Basic realm="BaseX"');
      sendText(res, err.status, err instanceof QueryError ? errorBody(err) : err.message);
      return;
    }
    log(`xmldb-rest: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    sendText(res, 500, 'Internal error.');
  };
}

function sendText(res: Response, status: number, text: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain; charset=UTF-8');
  res.end(text);
}
