/** Writing results and errors (spec §12): errors are text bodies, never stacks. */
import { Readable } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';
import { XmldbError } from '../errors';
import type { Result } from '../operations/types';
import { errorBody } from '../xquery/errors';
import { QueryError } from '../xquery/runtime/errors';

export function send(res: Response, result: Result): void {
  res.status(result.status);
  // setHeader, not res.set: Express would look up a media type without a slash (`media-type=xxx`).
  res.setHeader('Content-Type', result.contentType);
  if (result.headers) res.set(result.headers);
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
      if (err.status === 401) res.set('WWW-Authenticate', 'Basic realm="BaseX"');
      const body = err instanceof QueryError ? errorBody(err) : err.message;
      res.status(err.status).set('Content-Type', 'text/plain; charset=UTF-8').end(body);
      return;
    }
    log(`xmldb-rest: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    res.status(500).set('Content-Type', 'text/plain; charset=UTF-8').end('Internal error.');
  };
}
