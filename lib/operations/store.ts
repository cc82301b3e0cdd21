/**
 * PUT of a resource into an existing database (spec §8.1, §8.3, §8.4): the body, converted, is
 * stored as the PUT command stores its input (commands/defs/put.ts), with the request's options.
 */
import { putInput } from '../commands/defs/put';
import { checkPermission } from '../commands/exec/plan';
import { convertBody, parsingOptions } from '../convert';
import type { OptionValue } from '../store/database-options';
import type { ResourceInfo } from '../store/types';
import { checkWritePreconditions, entityTag, NO_PRECONDITIONS, type Preconditions } from './preconditions';
import { notFound } from './list';
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
  checkPermission(session.user, { kind: 'put', path, input: '' }, db);
  const start = process.hrtime.bigint();
  const body = await readBody();
  // Convert before taking the lock: a body that fails to parse stores nothing and blocks no one.
  const input = await convertBody(body, contentType, parsingOptions(options));
  const stored = await session.runtime.store.write([db], async (view) => {
    if ((await view.database(db)) === undefined) throw notFound(db);
    const check = (existing: ResourceInfo | undefined) => checkWritePreconditions(preconditions, existing, db, path);
    return putInput(view, db, path, { input, bytes: () => body }, { options }, check);
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  // The new version's tag, for the client's next If-Match.
  const headers = stored ? { ETag: entityTag(stored) } : undefined;
  return { ...textResult(201, `Resource(s) added in ${ms.toFixed(2)} ms.`), ...(headers ? { headers } : {}) };
}
