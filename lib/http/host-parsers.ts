/**
 * Helpers for host applications whose body parsers run before the router (body.ts reads what
 * they kept): `rawBodySaver` keeps the exact bytes for the router, and `hostParserError` turns a
 * parser's refusal of a request to the router into the router's own kind of answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { format, XmldbError } from '../xmldb-error';
import { HTTP_ERRORS } from './status';

/**
 * The `verify` hook of `express.json()`, `express.text()`, `express.urlencoded()` (body-parser):
 * keeps the bytes as sent in `req.rawBody`, which the router then reads instead of the parsed
 * value. Typed with Node's own types, so `express.json({ verify: rawBodySaver })` compiles in
 * strict TypeScript without declaring `rawBody` on the request.
 */
export function rawBodySaver(req: IncomingMessage, _res: ServerResponse, buf: Buffer): void {
  (req as IncomingMessage & { rawBody?: Buffer }).rawBody = buf;
}

/** What body-parser (through http-errors) raises: a client error status and a `type` such as `entity.parse.failed`. */
interface ParserError {
  readonly status: number;
  readonly type: string;
  readonly message: string;
}

function isParserError(err: unknown): err is ParserError {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as Partial<ParserError>;
  return typeof e.type === 'string' && typeof e.status === 'number' && e.status >= 400 && e.status < 500 && typeof e.message === 'string';
}

/** The router's error for a body parser's refusal (same status), or undefined for any other error. */
export function hostParserError(err: unknown): XmldbError | undefined {
  if (!isParserError(err)) return undefined;
  // entity.parse.failed is raised by the JSON parser alone (body-parser's read.js)
  const reason = err.type === 'entity.parse.failed' ? `the body is not valid JSON (${err.message.replace(/\.$/, '')})` : err.message.replace(/\.$/, '');
  return new XmldbError(err.status, format(HTTP_ERRORS.BODY_REFUSED_BY_HOST_X.template, [reason]), 'BODY_REFUSED_BY_HOST_X');
}
