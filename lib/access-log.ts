/**
 * The standalone server's access log: one record per request when the response is finished or
 * the connection closes, with method, path (no query string: it may hold credentials or data),
 * status, body bytes sent, milliseconds and the authenticated user.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestUser } from './http/request-user';
import type { Logger } from './logger';

export interface AccessRecord {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly bytes: number;
  readonly ms: number;
  readonly user?: string;
}

function length(chunk: unknown, encoding?: unknown): number {
  if (typeof chunk === 'string') return Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  return chunk instanceof Uint8Array ? chunk.byteLength : 0;
}

/** Starts timing and counting `res`; logs the record with `logger.info` once. */
export function logAccess(req: IncomingMessage, res: ServerResponse, logger: Logger): void {
  const started = process.hrtime.bigint();
  // Taken now: a router on the way rewrites req.url relative to its mount point.
  const path = (req.url ?? '/').split('?')[0];
  let bytes = 0;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    bytes += length(chunk, rest[0]);
    return write(chunk, ...rest);
  }) as ServerResponse['write'];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (typeof chunk !== 'function') bytes += length(chunk, rest[0]);
    return end(chunk, ...rest);
  }) as ServerResponse['end'];
  let logged = false;
  const done = (): void => {
    if (logged) return;
    logged = true;
    const user = requestUser(req);
    const record: AccessRecord = {
      method: req.method ?? '',
      path,
      status: res.statusCode,
      bytes: req.method === 'HEAD' ? 0 : bytes,
      ms: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
      ...(user !== undefined ? { user } : {}),
    };
    logger.info(record, 'request');
  };
  res.once('finish', done);
  res.once('close', done);
}
