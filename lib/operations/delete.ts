/**
 * DELETE of a database, or of the resources at or below a path (spec §12, §17): permitted as
 * DROP DB and DELETE are (commands/exec/plan.ts).
 */
import { checkWritePreconditions, hasWritePreconditions, NO_PRECONDITIONS, type Preconditions } from './preconditions';
import { notFound } from './list';
import { checkPermission } from '../commands/exec/plan';
import { mayRead } from './permission';
import { textResult, type Result, type Session } from './types';

/** Preconditions (If-Match) apply to the resource at the path; a database has no version. */
export async function deleteTarget(session: Session, db: string, path: string, preconditions: Preconditions = NO_PRECONDITIONS): Promise<Result> {
  if (!mayRead(session, db)) throw notFound(db);
  checkPermission(session.user, path === '' ? { kind: 'dropDb', pattern: db } : { kind: 'delete', path }, db);
  const start = process.hrtime.bigint();
  const message = await session.runtime.store.write([db], async (view) => {
    if ((await view.database(db)) === undefined) throw notFound(db);
    if (path === '') {
      await view.dropDatabase(db);
      return `Database '${db}' was dropped.`;
    }
    if (hasWritePreconditions(preconditions)) checkWritePreconditions(preconditions, await view.resource(db, path), db, path);
    const count = await view.deleteResources(db, path);
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    return `${count} resource(s) deleted in ${ms.toFixed(2)} ms.`;
  });
  return textResult(200, message);
}
