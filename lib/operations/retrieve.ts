/**
 * GET of a database path without an operation (spec §4, §5): one resource when the path names
 * exactly one, otherwise the directory listing. A resource answers with its validators (ETag,
 * Last-Modified) and honours If-None-Match / If-Modified-Since (304); a raw resource also
 * serves one byte range (RFC 9110 §14: 206, or 416 when unsatisfiable).
 */
import { raise, withHeaders } from '../xmldb-error';
import { contentRange, resolveRange, type RequestedRange } from '../range-requests';
import type { ReadView } from '../store/types';
import { NO_PRECONDITIONS, notModified, rangeApplies, validators, type Preconditions } from './preconditions';
import { CONDITION_ERRORS } from './operation-errors';
import { databaseListing, notFound } from './list';
import { mayRead } from './permission';
import type { Result, Session } from './types';

function withCharset(type: string): string {
  return /^text\/|[/+]xml$|\/json$|\/xquery$|\/ecmascript$/.test(type) ? `${type}; charset=UTF-8` : type;
}

/** What a GET asks beyond the path: preconditions and a byte range. */
export interface RetrieveRequest {
  readonly preconditions?: Preconditions;
  readonly range?: RequestedRange;
}

/** Resources of this many bytes or more are streamed to the client (one store read per chunk). */
export const STREAM_FROM_BYTES = 1024 * 1024;

/** Reads a value resource (db:put-value) as db:get-value does. */
const GET_VALUE = 'declare variable $db external; declare variable $path external; db:get-value($db, $path)';

/**
 * A value resource is answered with its value, serialized as a query result with the request's
 * serialization parameters (its stored form is internal, xquery/functions/support/stored-values.ts). It is read
 * by a query worker, under the read lock the caller holds.
 */
async function storedValue(session: Session, view: ReadView, db: string, path: string, serialization: Readonly<Record<string, string>>): Promise<Result> {
  const response = await session.runtime.engine.evaluate({
    query: GET_VALUE,
    context: { kind: 'none' },
    variables: new Map([
      ['db', { values: [db] }],
      ['path', { values: [path] }],
    ]),
    serialization,
    readable: [db],
    view,
    signal: session.signal,
  });
  return { status: 200, contentType: response.contentType, body: response.body };
}

export async function retrieve(
  session: Session,
  db: string,
  path: string,
  serialization: Readonly<Record<string, string>>,
  request: RetrieveRequest = {},
): Promise<Result> {
  if (!mayRead(session, db)) throw notFound(db);
  const pre = request.preconditions ?? NO_PRECONDITIONS;
  return session.runtime.store.read([db], async (view) => {
    if ((await view.database(db)) === undefined) throw notFound(db);
    const resource = path === '' ? undefined : await view.resource(db, path);
    if (resource === undefined) return databaseListing(db, path, await view.listResources(db, path), serialization);
    if (resource.type === 'value') return storedValue(session, view, db, resource.path, serialization);
    const contentType = resource.type === 'xml' ? 'application/xml; charset=UTF-8' : withCharset(resource.contentType);
    const raw = resource.type === 'binary';
    const headers = { ...validators(resource), ...(raw ? { 'Accept-Ranges': 'bytes' } : {}) };
    if (notModified(pre, resource)) return { status: 304, contentType, body: '', headers };
    if (raw && request.range !== undefined && rangeApplies(pre, resource)) {
      const range = resolveRange(request.range, resource.bytes);
      if (range === undefined) {
        const error = raise(CONDITION_ERRORS, 'BYTES_NOT_SATISFIABLE_X', resource.bytes);
        throw withHeaders(error, { ...headers, 'Content-Range': contentRange('bytes', undefined, resource.bytes) });
      }
      // The stream reads the bytes this view found, whatever is written later (ReadView.openStream).
      return {
        status: 206,
        contentType,
        body: view.openStream(db, path, range),
        headers: { ...headers, 'Content-Range': contentRange('bytes', range, resource.bytes), 'Content-Length': String(range.end - range.start + 1) },
      };
    }
    // A large resource is streamed as the client reads it, never held whole; a small one is read
    // at once, in one store call, or answered from the bytes kept of its version.
    if (resource.bytes >= STREAM_FROM_BYTES) {
      return { status: 200, contentType, body: view.openStream(db, path), headers: { ...headers, 'Content-Length': String(resource.bytes) } };
    }
    const body = await session.runtime.resourceBytes.read(view, db, resource.path, resource.etag, resource.bytes);
    return { status: 200, contentType, body, headers };
  });
}
