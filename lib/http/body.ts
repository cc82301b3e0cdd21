/**
 * Reading request bodies as bytes, bounded by a limit (`maxBodySize` for PUT, `maxQueryBodySize`
 * for POST and QUERY). A body announced larger than the limit is refused before a byte of it is
 * read, and the connection is closed rather than drained.
 *
 * A host application may have read the body before us (body parsers mounted in front of the
 * router). What it kept is used only where it is exactly what the client sent:
 * - `req.rawBody` (a Buffer, or a string), as hosts keep it with a parser's `verify` hook;
 * - a Buffer in `req.body` (`express.raw()`);
 * - a string in `req.body` (`express.text()`), encoded back with the charset the parser decoded
 *   it with (UTF-8 unless the Content-Type names ISO-8859-1 or UTF-16LE; others are refused).
 * A parsed value (`express.json()`, `express.urlencoded()`) cannot be turned back into the bytes
 * that were sent (number literals, key order, form encoding are gone), so such a request is
 * refused with 415 and a message telling the host to mount the router before its body parsers.
 *
 * Whether a host parser read the body: body-parser 1 (Express 4) sets `req._body`; body-parser 2
 * (Express 5) does not, but the request stream has then ended (`readableEnded`).
 */
import type { IncomingMessage } from 'node:http';
import type { Request, Response } from 'express';
import bodyParser from 'body-parser';
import { raise } from '../xmldb-error';
import { HTTP_ERRORS } from './status';

interface HostParsedRequest extends IncomingMessage {
  _body?: boolean;
  rawBody?: unknown;
  body?: unknown;
}

/** Node's name for the charsets body-parser's text parser may have decoded with. */
const NODE_ENCODINGS: Readonly<Record<string, BufferEncoding>> = {
  'utf-8': 'utf8',
  utf8: 'utf8',
  'iso-8859-1': 'latin1',
  latin1: 'latin1',
  'us-ascii': 'latin1',
  'utf-16le': 'utf16le',
};

function charsetOf(contentType: string | undefined): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
}

/** The bytes a host already read, exactly as sent; throws where they cannot be had. */
function hostBody(req: HostParsedRequest): Buffer {
  if (Buffer.isBuffer(req.rawBody)) return req.rawBody;
  if (typeof req.rawBody === 'string') return Buffer.from(req.rawBody, 'utf8');
  const body = req.body;
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') {
    const encoding = NODE_ENCODINGS[charsetOf(req.headers['content-type']) ?? 'utf-8'];
    if (encoding === undefined) throw raise(HTTP_ERRORS, 'BODY_PARSED_BY_HOST_X', 'a text parser decoded it from a charset that cannot be restored');
    return Buffer.from(body, encoding);
  }
  throw raise(HTTP_ERRORS, 'BODY_PARSED_BY_HOST_X', 'a body parser turned it into an object');
}

function readByHost(req: HostParsedRequest): boolean {
  return req._body === true || req.readableEnded || req.rawBody !== undefined;
}

/** The router options that bound request bodies. */
export type BodyLimitOption = 'maxBodySize' | 'maxQueryBodySize';

/**
 * What a 413 tells the client about raising the limit: a large document is a normal thing to
 * store, so the answer names the option instead of leaving the operator to search for it.
 */
const BODY_LIMIT_HINTS: Readonly<Record<BodyLimitOption, string>> = {
  maxBodySize: 'the router option maxBodySize raises the limit (standalone server: --max-body-size or XMLDB_MAX_BODY_SIZE, in MiB)',
  maxQueryBodySize: 'the router option maxQueryBodySize raises the limit',
};

/** Reads a request body of at most `limit` bytes (after decompression), the value of router option `option`. */
export function readBody(req: Request, res: Response, limit: number, option: BodyLimitOption): Promise<Buffer> {
  const tooLarge = () => raise(HTTP_ERRORS, 'BODY_TOO_LARGE_XX', limit, BODY_LIMIT_HINTS[option]);
  const incoming = req as HostParsedRequest;
  if (readByHost(incoming)) {
    const body = hostBody(incoming);
    if (body.length > limit) return Promise.reject(tooLarge());
    return Promise.resolve(body);
  }
  const announced = Number(req.headers['content-length']);
  if (Number.isFinite(announced) && announced > limit) {
    // Refused unread: the connection closes after the answer instead of receiving the rest.
    res.setHeader('Connection', 'close');
    return Promise.reject(tooLarge());
  }
  if (announced >= ANNOUNCED_READ_BYTES && identityEncoded(req)) return readAnnounced(incoming, announced);
  const raw = bodyParser.raw({ type: () => true, limit, inflate: true });
  return new Promise((resolve, reject) => {
    raw(req, res, (err?: unknown) => {
      if (err) {
        const e = err as { type?: string; message?: string };
        if (e.type === 'entity.too.large') reject(tooLarge());
        else reject(raise(HTTP_ERRORS, 'BODY_UNREADABLE_X', e.message ?? String(err)));
        return;
      }
      const body: unknown = req.body;
      resolve(Buffer.isBuffer(body) ? body : Buffer.alloc(0));
    });
  });
}

/**
 * Bodies of at least this many bytes, sent as they are with their length announced, are read
 * into one buffer of that length (`readAnnounced`) instead of by body-parser, which keeps every
 * chunk the socket delivered until the end and then joins them. Those chunks (64 KiB each) come
 * from the C heap, and freeing 100 MB of them at once does not give the memory back: after a
 * 108 MB document, the server's resident memory stayed 80 to 100 MB higher for good. Copied one
 * by one into a buffer allocated whole (which is mapped and unmapped by itself), each chunk's
 * memory serves the next one. The buffer's pages are taken as bytes arrive: a client that
 * announces a large body and sends little of it holds no more memory than it sent.
 */
export const ANNOUNCED_READ_BYTES = 1024 * 1024;

/** Whether the body is sent as it is (no Content-Encoding other than identity). */
function identityEncoded(req: IncomingMessage): boolean {
  const encoding = req.headers['content-encoding'];
  return encoding === undefined || encoding.trim().toLowerCase() === 'identity';
}

/**
 * Reads a body whose length `length` the request announced. Node's HTTP parser delivers no more
 * than that; a connection that ends before all of it arrived fails as body-parser's would.
 */
function readAnnounced(req: HostParsedRequest, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const body = Buffer.allocUnsafeSlow(length);
    let received = 0;
    const fail = (message: string) => {
      cleanup();
      reject(raise(HTTP_ERRORS, 'BODY_UNREADABLE_X', message));
    };
    const onData = (chunk: Buffer) => {
      if (received + chunk.length > length) return fail('request size did not match content length');
      chunk.copy(body, received);
      received += chunk.length;
    };
    const onEnd = () => {
      cleanup();
      if (received !== length) {
        reject(raise(HTTP_ERRORS, 'BODY_UNREADABLE_X', 'request size did not match content length'));
        return;
      }
      // kept where body-parser keeps what it read, so that a second read finds it (readByHost)
      req._body = true;
      req.body = body;
      resolve(body);
    };
    const onError = (error: Error) => fail(error.message);
    const onClose = () => {
      if (!req.readableEnded) fail('request aborted');
    };
    const cleanup = () => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    };
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/** Charset of a Content-Type header (default UTF-8), as a Node encoding. */
export function bodyText(body: Buffer, contentType: string | undefined): string {
  const charset = charsetOf(contentType) ?? 'utf-8';
  const encoding = charset === 'utf-8' || charset === 'utf8' ? 'utf8' : charset === 'iso-8859-1' || charset === 'latin1' ? 'latin1' : charset === 'utf-16le' || charset === 'utf-16' ? 'utf16le' : 'utf8';
  let text = body.toString(encoding);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return text;
}
