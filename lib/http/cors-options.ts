/**
 * Options for the `cors` package in front of the router, for a front end served from another
 * origin (a dev server on another port, a separate UI host). `cors()`'s defaults leave out what
 * this interface uses: the QUERY method, the conditional and range request headers, and the
 * response headers a script must read (`ETag`, `Content-Range`, ...), which a browser hides
 * unless they are exposed (Fetch, CORS-safelisted response header names).
 *
 * The same origins must be given to the router as `trustedOrigins`: CORS decides what a page may
 * read, the router decides what a page of another origin may run or change (cross-site.ts).
 */
import { ALLOWED_METHODS } from './options-method';

/** The shape `cors(options)` takes (a subset of its `CorsOptions`), declared here so that hosts need no `@types/cors`. */
export interface RestCorsOptions {
  origin: string[];
  methods: string[];
  allowedHeaders: string[];
  exposedHeaders: string[];
  credentials: boolean;
  maxAge: number;
}

/** Request headers a client of this interface sends besides the CORS-safelisted ones. */
const REQUEST_HEADERS = ['Authorization', 'Content-Type', 'Accept', 'Range', 'If-Match', 'If-None-Match', 'If-Modified-Since', 'If-Range'];

/** Response headers of this interface that are not CORS-safelisted (RFC 9110 validators, ranges, 503's retry). */
const RESPONSE_HEADERS = ['ETag', 'Last-Modified', 'Content-Range', 'Accept-Ranges', 'Retry-After', 'WWW-Authenticate'];

/**
 * `app.use('/rest', cors(corsOptions(origins)), rest)`: these origins may call every method with
 * credentials (HTTP Basic, or the host's session cookie) and read every header the router sends;
 * preflights are cached for 10 minutes.
 */
export function corsOptions(origins: readonly string[]): RestCorsOptions {
  return {
    origin: [...origins],
    methods: [...ALLOWED_METHODS],
    allowedHeaders: [...REQUEST_HEADERS],
    exposedHeaders: [...RESPONSE_HEADERS],
    credentials: true,
    maxAge: 600,
  };
}
