/**
 * Reading request bodies as bytes, bounded by `maxBodySize`. If a host application parsed the
 * body before us (express.json(), express.text(), express.raw()), its result is turned back into
 * bytes: a Buffer or string as it is, a parsed JSON value re-serialized (number literals may then
 * change form, e.g. `1.0` → `1`; a host that keeps `req.rawBody` as a Buffer avoids that).
 */
import type { Request, Response } from 'express';
import bodyParser from 'body-parser';
import { raise } from '../errors';
import { HTTP_ERRORS } from './status';

interface ParsedRequest extends Request {
  _body?: boolean;
  rawBody?: unknown;
}

function upstreamBody(req: ParsedRequest): Buffer {
  if (Buffer.isBuffer(req.rawBody)) return req.rawBody;
  const body: unknown = req.body;
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body === undefined || body === null) return Buffer.alloc(0);
  return Buffer.from(JSON.stringify(body), 'utf8');
}

export function createBodyReader(limit: number) {
  const raw = bodyParser.raw({ type: () => true, limit, inflate: true });
  return function readBody(req: Request, res: Response): Promise<Buffer> {
    const parsed = req as ParsedRequest;
    if (parsed._body) return Promise.resolve(upstreamBody(parsed));
    return new Promise((resolve, reject) => {
      raw(req, res, (err?: unknown) => {
        if (err) {
          const e = err as { type?: string; message?: string };
          if (e.type === 'entity.too.large') reject(raise(HTTP_ERRORS, 'BODY_TOO_LARGE_X', limit));
          else reject(raise(HTTP_ERRORS, 'BODY_UNREADABLE_X', e.message ?? String(err)));
          return;
        }
        const body: unknown = req.body;
        resolve(Buffer.isBuffer(body) ? body : Buffer.alloc(0));
      });
    });
  };
}

/** Charset of a Content-Type header (default UTF-8), as a Node encoding. */
export function bodyText(body: Buffer, contentType: string | undefined): string {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase() ?? 'utf-8';
  const encoding = charset === 'utf-8' || charset === 'utf8' ? 'utf8' : charset === 'iso-8859-1' || charset === 'latin1' ? 'latin1' : charset === 'utf-16le' || charset === 'utf-16' ? 'utf16le' : 'utf8';
  let text = body.toString(encoding);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return text;
}
