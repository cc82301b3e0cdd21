/**
 * PUT of a whole database (spec §8.2): permitted, and the database created, as by CREATE DB
 * (commands/defs/create-db.ts), replacing one of the same name, with the request's options (spec §2.4).
 */
import { createDatabase, newDatabaseOptions } from '../commands/defs/create-db';
import { checkPermission } from '../commands/exec/plan';
import { convertBody, parsingOptions } from '../convert';
import type { OptionValue } from '../store/database-options';
import { checkDatabaseName } from '../store/resource-names';
import { textResult, type Result, type Session } from './types';

export async function putDatabase(
  session: Session,
  db: string,
  /** Reads the body: called once the permission is checked, so a refused upload is not read. */
  readBody: () => Promise<Buffer>,
  contentType: string | undefined,
  options: ReadonlyMap<string, OptionValue>,
): Promise<Result> {
  checkDatabaseName(db);
  checkPermission(session.user, { kind: 'createDb', name: db }, undefined);
  const kept = newDatabaseOptions({ options });
  const start = process.hrtime.bigint();
  const body = await readBody();
  const input = body.length === 0 ? undefined : await convertBody(body, contentType, parsingOptions(options));
  // XML and converted input become DB.xml / DB.json / DB.csv / DB.html; raw bytes a resource named DB.
  const resources = input === undefined ? [] : [{ path: input.type === 'binary' ? db : `${db}.${input.suffix ?? 'xml'}`, input }];
  await session.runtime.store.write([db], (view) => createDatabase(view, db, kept, resources));
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  return textResult(201, `Database '${db}' created in ${ms.toFixed(2)} ms.`);
}
