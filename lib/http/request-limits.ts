/**
 * The router's own limits on a request's URL. A host's Node server may accept far larger request
 * lines than Node's default (`maxHeaderSize`, 16 KiB): these hold whatever the host allows.
 * Both answer 414 (RFC 9110 §15.5.15) and name the way around: a body carries any size.
 */
import { raise } from '../xmldb-error';
import type { QueryPairs } from './query-string';
import { HTTP_ERRORS } from './status';

/** `url` is the request target below the mount point (path and query string). */
export function checkUrlLength(url: string, maxUrlLength: number): void {
  // Node decodes the request target as Latin-1: one character per byte received.
  if (url.length > maxUrlLength) throw raise(HTTP_ERRORS, 'URL_TOO_LONG_XX', url.length, maxUrlLength);
}

/** Every pair counts, repeated names too: none is dropped silently. */
export function checkParameterCount(pairs: QueryPairs, maxParameters: number): void {
  if (pairs.length > maxParameters) throw raise(HTTP_ERRORS, 'TOO_MANY_PARAMETERS_XX', pairs.length, maxParameters);
}
