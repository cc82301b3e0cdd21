/** PUT of a resource into an existing database (spec §8.1, §8.3, §8.4). */
import { convertBody, parsingOptions } from '../convert';
import type { OptionValue } from '../store/database-options';
import { checkWritePreconditions, entityTag, NO_PRECONDITIONS, type Preconditions } from './preconditions';
import { notFound } from './list';
import { requirePermission } from './permission';
import { textResult, type Result, type Session } from './types';

export async function storeResource(
  session: Session,
  db: string,
  path: string,
  /** Reads the body: called once the permission is checked, so a refused upload is not read. */
  readBody: () => Promise<Buffer>,
  contentType: string | undefined,
  options: ReadonlyMap<string, OptionValue>,
  preconditions: Preconditions = NO_PRECONDITIONS,
): Promise<Result> {
  requirePermission(session, 'write', db);
  const start = process.hrtime.bigint();
  const body = await readBody();
  // Convert before taking the lock: a body that fails to parse stores nothing and blocks no one.
  const input = await convertBody(body, contentType, parsingOptions(options));
  const replace = options.get('REPLACE') !== false;
  const stored = await session.runtime.store.write([db], async (view) => {
    if ((await view.database(db)) === undefined) throw notFound(db);
    const existing = await view.resource(db, path);
    checkWritePreconditions(preconditions, existing, db, path);
    if (existing !== undefined && !replace) return undefined;
    // An XML upload onto a binary resource replaces its bytes; the resource stays binary (spec §8.3).
    const content = existing?.type === 'binary' && input.type === 'xml' ? { type: 'binary' as const, data: body } : input;
    return view.putResource(db, path, content);
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  // The new version's tag, for the client's next If-Match.
  const headers = stored ? { ETag: entityTag(stored) } : undefined;
  return { ...textResult(201, `Resource(s) added in ${ms.toFixed(2)} ms.`), ...(headers ? { headers } : {}) };
}
