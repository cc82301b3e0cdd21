/**
 * The compile key of a stylesheet (compile.ts): a digest of every static input, the XSLT text and
 * the static base URI. A module of its own, so that code that only names compilations (the query
 * pool's shared compilations, the query host's proxy) does not load saxon-js.
 */
import { createHash } from 'node:crypto';
import { DEFAULT_BASE_URI } from './constants';

export interface CompileOptions {
  /** Static base URI of the stylesheet (and of the query): the `run` file, or the default. */
  readonly baseUri?: string;
}

export function compileKey(xslt: string, options: CompileOptions = {}): string {
  return createHash('sha256')
    .update(options.baseUri ?? DEFAULT_BASE_URI)
    .update('\u0000')
    .update(xslt)
    .digest('base64url');
}
