/**
 * The standalone server's answer to what Node's HTTP parser refuses before a request exists (the
 * server's `clientError` event): a request line or headers past `maxHeaderSize`, malformed
 * syntax, headers that did not arrive in time.
 *
 * Node's own answer is a bare status line, after which it destroys the socket while the client
 * may still be sending its long request. The client's system then answers the unread bytes with
 * a reset, which can erase the response before the client reads it: the client sees a reset and
 * retries or hangs. RFC 9112 §9.6 describes the remedy: close the sending half first, keep
 * reading until the client closes, then close. So the answer here is a status with a text body
 * and `Connection: close` (the parser cannot go on after an error, so the connection ends); then
 * whatever the client still sends is read and dropped, for at most LINGER_MS.
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { raise, type XmldbError } from '../xmldb-error';
import { securityHeaders } from './security-headers';
import { HTTP_ERRORS } from './status';

/** How long a refused client may go on sending before its connection is closed (Apache's lingering close waits 2 s too). */
const LINGER_MS = 2000;

const TEXT = 'text/plain; charset=UTF-8';

/** What Node's `clientError` event passes: an Error with the parser's code, reason and position. */
export interface ClientError extends Error {
  readonly code?: string;
  /** The parser's explanation (`Header overflow`, `Invalid method encountered`). */
  readonly reason?: string;
  /** The packet being parsed when the error occurred, and how far into it the parser got. */
  readonly rawPacket?: Buffer;
  readonly bytesParsed?: number;
}

/** Sockets answered already: the parser reports each later packet of a refused request again. */
const answered = new WeakSet<Duplex>();

/** A `clientError` listener for a server whose request line and headers may hold `maxHeaderSize` bytes. Never throws. */
export function answerClientErrors(maxHeaderSize: number): (error: ClientError, socket: Duplex) => void {
  return (error, socket) => {
    try {
      answer(error, socket, maxHeaderSize);
    } catch {
      socket.destroy();
    }
  };
}

function answer(error: ClientError, socket: Duplex, maxHeaderSize: number): void {
  if (answered.has(socket)) return;
  answered.add(socket);
  const refusal = refusalOf(error, maxHeaderSize);
  if (refusal === undefined || !socket.writable) {
    socket.destroy();
    return;
  }
  // A response to an earlier request on this connection is written first; Node names it `_httpMessage`.
  const inFlight = (socket as { _httpMessage?: ServerResponse | null })._httpMessage;
  if (inFlight && !inFlight.writableFinished) {
    inFlight.once('finish', () => send(socket, refusal));
    inFlight.once('close', () => {
      if (!inFlight.writableFinished) socket.destroy();
    });
    return;
  }
  send(socket, refusal);
}

/** The error to answer with; undefined for a connection that failed (reset, broken pipe): nobody waits for an answer. */
function refusalOf(error: ClientError, maxHeaderSize: number): XmldbError | undefined {
  const code = error.code ?? '';
  if (code === 'HPE_HEADER_OVERFLOW') {
    const lineTooLong = error.rawPacket !== undefined && isInRequestLine(error.rawPacket, error.bytesParsed ?? error.rawPacket.length);
    return raise(HTTP_ERRORS, lineTooLong ? 'REQUEST_LINE_TOO_LONG_X' : 'HEADERS_TOO_LARGE_X', maxHeaderSize);
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return raise(HTTP_ERRORS, 'REQUEST_TIMEOUT');
  // The reason is the parser's own text, never the client's bytes.
  if (code.startsWith('HPE_')) return raise(HTTP_ERRORS, 'MALFORMED_REQUEST_X', (error.reason ?? code).replace(/\.$/, ''));
  return undefined;
}

/**
 * Whether the parser stopped inside a request line. It says only that the request line and
 * headers together passed the limit; the packet it was reading shows where: it stopped
 * `parsed` bytes in, and when no line of the current request ended before that point, it was
 * still reading the request line. A request's head ends with an empty line, so the current
 * request starts after the last one. A packet inside one long line shows neither: that line is
 * taken for the request line, the usual cause (a query in the URL) where a header of that size is not.
 */
export function isInRequestLine(packet: Buffer, parsed: number): boolean {
  const seen = packet.subarray(0, Math.min(parsed, packet.length));
  const crlf = seen.lastIndexOf('\n\r\n');
  const lf = seen.lastIndexOf('\n\n');
  const start = Math.max(crlf < 0 ? 0 : crlf + 3, lf < 0 ? 0 : lf + 2);
  return seen.indexOf('\n', start) < 0;
}

/** Writes the status, headers and text body, closes the sending half, and reads until the client closes. */
function send(socket: Duplex, refusal: XmldbError): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = Buffer.from(refusal.message, 'utf8');
  const headers = ['Content-Type', TEXT, ...securityHeaders(), 'Content-Length', String(body.length), 'Connection', 'close'];
  let head = `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ''}\r\n`;
  for (let i = 0; i < headers.length; i += 2) head += `${headers[i]}: ${headers[i + 1]}\r\n`;
  const linger = setTimeout(() => socket.destroy(), LINGER_MS);
  linger.unref();
  socket.once('close', () => clearTimeout(linger));
  socket.on('error', () => socket.destroy());
  socket.end(Buffer.concat([Buffer.from(`${head}\r\n`, 'latin1'), body]));
  socket.resume();
}
