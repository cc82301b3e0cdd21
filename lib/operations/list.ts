/** Listings (spec §3, §4): all databases, or the children of a database directory. */
import { create } from 'xmlbuilder2';
import { raise } from '../errors';
import { STORE_ERRORS } from '../store/errors';
import type { ResourceInfo } from '../store/types';
import { yes } from '../xquery/serialization-params';
import { mayRead } from './permission';
import { XML, type Result, type Session } from './types';

export const REST_NS = 'http://basex.org/rest';

function byName(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

function xmlResult(root: ReturnType<typeof create>, indent: boolean): Result {
  return { status: 200, contentType: XML, body: root.end({ headless: true, prettyPrint: indent, indent: '  ' }) };
}

export async function listDatabases(session: Session, serialization: Readonly<Record<string, string>>): Promise<Result> {
  const dbs = await session.runtime.store.read('*', (view) => view.listDatabases());
  const doc = create();
  const root = doc.ele(REST_NS, 'databases');
  for (const db of dbs.filter((d) => mayRead(session, d.name)).sort((a, b) => byName(a.name, b.name))) {
    root.ele(REST_NS, 'database', { resources: String(db.resources), size: String(db.size) }).txt(db.name);
  }
  return xmlResult(doc, yes(serialization.indent));
}

/** Immediate children of `dir` among `resources` (which all lie at or below it). */
function children(resources: readonly ResourceInfo[], dir: string) {
  const prefix = dir === '' ? '' : `${dir}/`;
  const dirs = new Set<string>();
  const files: Array<{ name: string; info: ResourceInfo }> = [];
  for (const r of resources) {
    if (!r.path.startsWith(prefix)) continue;
    const rest = r.path.slice(prefix.length);
    const slash = rest.indexOf('/');
    if (slash >= 0) dirs.add(rest.slice(0, slash));
    else files.push({ name: rest, info: r });
  }
  return { dirs: [...dirs], files };
}

/** Lists a database directory; `resources` are those at or below `dir`, read under the lock. */
export function databaseListing(
  db: string,
  dir: string,
  resources: readonly ResourceInfo[],
  serialization: Readonly<Record<string, string>>,
): Result {
  const { dirs, files } = children(resources, dir);
  const entries = [
    ...dirs.map((name) => ({ name, info: undefined as ResourceInfo | undefined })),
    ...files,
  ].sort((a, b) => byName(a.name, b.name));
  const doc = create();
  const root = doc.ele(REST_NS, 'database', { name: db });
  for (const e of entries) {
    if (e.info === undefined) root.ele(REST_NS, 'dir').txt(e.name);
    else {
      root
        .ele(REST_NS, 'resource', { type: e.info.type, 'content-type': e.info.contentType, size: String(e.info.size) })
        .txt(e.name);
    }
  }
  return xmlResult(doc, yes(serialization.indent));
}

/** Throws 404 unless the database exists and the user may read it (spec §12). */
export function notFound(db: string) {
  return raise(STORE_ERRORS, 'DB_NOT_FOUND_X', db);
}
