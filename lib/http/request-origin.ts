/**
 * Who sent a request and where it was sent to, as the host application sees it: Express's
 * `trust proxy` setting decides whether `X-Forwarded-*` headers of the peer are believed. Outside
 * an Express application (a plain `http.createServer`) no proxy is trusted.
 */
import type { Request } from 'express';

interface AppRequest {
  app?: { get?(setting: string): unknown };
  ip?: unknown;
}

function trustsPeer(req: Request): boolean {
  const trust = (req as AppRequest).app?.get?.('trust proxy fn');
  return typeof trust === 'function' && (trust as (addr: string | undefined, i: number) => boolean)(req.socket.remoteAddress, 0);
}

function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const first = value?.split(',')[0].trim();
  return first === '' ? undefined : first;
}

/** The client's address (`req.ip` in an Express application, which follows `trust proxy`). */
export function clientAddress(req: Request): string {
  const ip = (req as AppRequest).ip;
  return typeof ip === 'string' ? ip : (req.socket.remoteAddress ?? '');
}

/** The `Host` the request was sent to (`host[:port]`), or undefined without one. */
export function requestHost(req: Request): string | undefined {
  return (trustsPeer(req) ? firstValue(req.headers['x-forwarded-host']) : undefined) ?? firstValue(req.headers.host);
}

/** The request's own origin (`http://host:port`, serialized as browsers send `Origin`). */
export function requestOrigin(req: Request): string | undefined {
  const host = requestHost(req);
  if (host === undefined) return undefined;
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
  const scheme = (trustsPeer(req) ? firstValue(req.headers['x-forwarded-proto']) : undefined) ?? (encrypted ? 'https' : 'http');
  try {
    return new URL(`${scheme}://${host}`).origin;
  } catch {
    return undefined;
  }
}

/** The host name of a `Host` value, lower case, without port or IPv6 brackets. */
export function hostName(host: string): string {
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d*$/, '');
  return name.toLowerCase().replace(/\.$/, '');
}
