/**
 * Conditional requests on stored resources (RFC 9110 §13): the validators a resource answers
 * with (a strong `ETag` from the store's per-write etag, and `Last-Modified`), and the
 * preconditions a request carries. Checked where the resource is read or written, under its
 * lock, so the answer and the check see the same version.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { raise } from '../xmldb-error';
import type { ResourceInfo } from '../store/types';
import { CONDITION_ERRORS } from './operation-errors';

/** `*` or entity tags as sent (quoted, `W/` kept). */
type TagList = '*' | readonly string[];

export interface Preconditions {
  readonly ifMatch?: TagList;
  readonly ifNoneMatch?: TagList;
  /** Milliseconds since the epoch. */
  readonly ifModifiedSince?: number;
  /** An entity tag or an HTTP date: the range applies only to that version. */
  readonly ifRange?: string;
}

export const NO_PRECONDITIONS: Preconditions = {};

function tagList(value: string | undefined): TagList | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '*') return '*';
  return value.match(/(?:W\/)?"[^"]*"/g) ?? [];
}

function httpDate(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

export function readPreconditions(headers: IncomingHttpHeaders): Preconditions {
  // most requests carry none of them
  if (headers['if-match'] === undefined && headers['if-none-match'] === undefined && headers['if-modified-since'] === undefined && headers['if-range'] === undefined) {
    return NO_PRECONDITIONS;
  }
  const ifModifiedSince = httpDate(headers['if-modified-since']);
  return {
    ...(headers['if-match'] !== undefined ? { ifMatch: tagList(headers['if-match']) } : {}),
    ...(headers['if-none-match'] !== undefined ? { ifNoneMatch: tagList(headers['if-none-match']) } : {}),
    ...(ifModifiedSince !== undefined ? { ifModifiedSince } : {}),
    ...(typeof headers['if-range'] === 'string' ? { ifRange: headers['if-range'].trim() } : {}),
  };
}

export function entityTag(resource: ResourceInfo): string {
  return `"${resource.etag}"`;
}

/** The headers that let a client make the next request conditional. */
export function validators(resource: ResourceInfo): Record<string, string> {
  return { ETag: entityTag(resource), 'Last-Modified': new Date(resource.modified).toUTCString() };
}

/** HTTP dates have whole seconds. */
function seconds(ms: number): number {
  return Math.floor(ms / 1000);
}

/** Weak comparison (RFC 9110 §8.8.3.2) for If-None-Match; strong for If-Match and If-Range. */
function matches(list: TagList, resource: ResourceInfo | undefined, weak: boolean): boolean {
  if (resource === undefined) return false;
  if (list === '*') return true;
  const tag = entityTag(resource);
  return list.some((t) => (weak ? t.replace(/^W\//, '') : t) === tag);
}

/** GET and HEAD: whether the client's copy is current (304, RFC 9110 §13.1.2, §13.1.3). */
export function notModified(pre: Preconditions, resource: ResourceInfo): boolean {
  if (pre.ifNoneMatch !== undefined) return matches(pre.ifNoneMatch, resource, true);
  return pre.ifModifiedSince !== undefined && seconds(resource.modified) <= seconds(pre.ifModifiedSince);
}

/**
 * PUT and DELETE: throws 412 unless the preconditions hold for the resource as it is now
 * (RFC 9110 §13.1.1, §13.1.2): `If-Match` needs the current version, `If-None-Match: *` needs
 * no resource at the path (the HTTP form of `replace=false`).
 */
export function checkWritePreconditions(pre: Preconditions, resource: ResourceInfo | undefined, db: string, path: string): void {
  const name = `${db}/${path}`;
  if (pre.ifMatch !== undefined && !matches(pre.ifMatch, resource, false)) {
    throw raise(CONDITION_ERRORS, resource === undefined ? 'RESOURCE_MISSING_X' : 'RESOURCE_CHANGED_X', name);
  }
  if (pre.ifNoneMatch !== undefined && matches(pre.ifNoneMatch, resource, true)) throw raise(CONDITION_ERRORS, 'RESOURCE_EXISTS_X', name);
}

/** Whether a Range request applies to the resource as it is now (If-Range, RFC 9110 §13.1.5). */
export function rangeApplies(pre: Preconditions, resource: ResourceInfo): boolean {
  if (pre.ifRange === undefined) return true;
  if (pre.ifRange.startsWith('"')) return pre.ifRange === entityTag(resource);
  const date = httpDate(pre.ifRange);
  return date !== undefined && seconds(date) === seconds(resource.modified);
}

/** Whether a request carries a write precondition. */
export function hasWritePreconditions(pre: Preconditions): boolean {
  return pre.ifMatch !== undefined || pre.ifNoneMatch !== undefined;
}
