/** PUT of a whole database (spec §8.2): creates it, replacing one of the same name. */
import { convertBody, parsingOptions } from '../convert';
import { raise } from '../errors';
import type { OptionValue } from '../store/database-options';
import { STORE_ERRORS } from '../store/errors';
import { isValidDatabaseName } from '../store/paths';
import { requirePermission } from './permission';
import { textResult, type Result, type Session } from './types';

export async function createDatabase(
  session: Session,
  db: string,
  /** Reads the body: called once the permission is checked, so a refused upload is not read. */
  readBody: () => Promise<Buffer>,
  contentType: string | undefined,
  options: ReadonlyMap<string, OptionValue>,
): Promise<Result> {
  if (!isValidDatabaseName(db)) throw raise(STORE_ERRORS, 'INVALID_DB_NAME_X', db);
  requirePermission(session, 'create', db);
  const start = process.hrtime.bigint();
  const body = await readBody();
  const input = body.length === 0 ? undefined : await convertBody(body, contentType, parsingOptions(options));
  await session.runtime.store.write([db], async (view) => {
    await view.createDatabase(db);
    if (input === undefined) return;
    // XML and converted input become DB.xml / DB.json / DB.csv / DB.html; raw bytes a resource named DB.
    const name = input.type === 'binary' ? db : `${db}.${input.suffix ?? 'xml'}`;
    await view.putResource(db, name, input);
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  return textResult(201, `Database '${db}' created in ${ms.toFixed(2)} ms.`);
}
