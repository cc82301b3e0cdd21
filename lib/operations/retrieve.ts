/**
 * GET of a database path without an operation (spec §4, §5): one resource when the path names
 * exactly one, otherwise the directory listing.
 */
import { databaseListing, notFound } from './list';
import { mayRead } from './permission';
import type { Result, Session } from './types';

function withCharset(type: string): string {
  return /^text\/|[/+]xml$|\/json$|\/xquery$|\/ecmascript$/.test(type) ? `${type}; charset=UTF-8` : type;
}

export async function retrieve(
  session: Session,
  db: string,
  path: string,
  serialization: Readonly<Record<string, string>>,
): Promise<Result> {
  if (!mayRead(session, db)) throw notFound(db);
  return session.runtime.store.read([db], async (view) => {
    if ((await view.database(db)) === undefined) throw notFound(db);
    const resource = path === '' ? undefined : await view.resource(db, path);
    if (resource === undefined) return databaseListing(db, path, await view.listResources(db, path), serialization);
    const contentType = resource.type === 'xml' ? 'application/xml; charset=UTF-8' : withCharset(resource.contentType);
    // Read fully under the lock: a write right after the lock is released cannot tear the body.
    return { status: 200, contentType, body: await view.readBytes(db, path) };
  });
}
