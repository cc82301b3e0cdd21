/**
 * Headers that keep browsers from running what the router serves on its own origin (our
 * decision). Every response says `X-Content-Type-Options: nosniff`, so a browser never guesses an
 * active type; a response of a type a browser renders as a document with scripts (HTML, XHTML,
 * SVG, any XML) also gets a sandboxing `Content-Security-Policy`: it is shown, but runs no
 * script, loads nothing and has an opaque origin, so it cannot act with the visitor's
 * credentials. The rule goes by media type alone, the same for stored resources, query results,
 * listings, command output and errors.
 */
import type { ServerResponse } from 'node:http';

export const SANDBOX_POLICY = "sandbox; default-src 'none'";

/** text/html, text/xml, application/xml, application/xhtml+xml, image/svg+xml, any +xml, text/xsl. */
const ACTIVE = /^(text\/html|text\/xsl|[^/]+\/xml|[^/]+\/[^;]+\+xml)$/;

/** True for a media type a browser may render as an active document (also for unreadable types). */
export function isActiveContent(contentType: string): boolean {
  const essence = contentType.split(';')[0].trim().toLowerCase();
  return !/^[^/\s]+\/[^/\s]+$/.test(essence) || ACTIVE.test(essence);
}

/** `X-Content-Type-Options: nosniff`, for every response, those without a body included. */
export function setNoSniff(res: ServerResponse): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
}

const NOSNIFF = ['X-Content-Type-Options', 'nosniff'] as const;
const SANDBOXED = [...NOSNIFF, 'Content-Security-Policy', SANDBOX_POLICY] as const;

/**
 * The decision per Content-Type value, kept: a server answers a handful of types, and the rule
 * (a split, a case fold and two regular expressions) would otherwise run for every response. A
 * client chooses the type (serialization parameters), so the memo is bounded and starts over
 * when full.
 */
const decided = new Map<string, readonly string[]>();
const DECIDED_MAX = 64;

/** The security headers of a response of `contentType`, as name, value, name, value... */
export function securityHeaders(contentType: string): readonly string[] {
  let headers = decided.get(contentType);
  if (headers === undefined) {
    headers = isActiveContent(contentType) ? SANDBOXED : NOSNIFF;
    if (decided.size >= DECIDED_MAX) decided.clear();
    decided.set(contentType, headers);
  }
  return headers;
}

export function setSecurityHeaders(res: ServerResponse, contentType: string): void {
  const headers = securityHeaders(contentType);
  for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i], headers[i + 1]);
}
