/**
 * Listings (spec §3, §4): all databases, or the children of a database directory. The document is
 * written in chunks of about 64 KiB as the response reads them, so a directory of 100,000
 * resources never exists as one string; a listing that fits in one chunk is a plain body (with a
 * Content-Length). Text and attributes are escaped by the same rules as stored documents.
 */
import { Readable } from 'node:stream';
import { escapeAttribute, escapeText, REST_NS } from '../xml';
import { raise } from '../xmldb-error';
import { STORE_ERRORS } from '../store/store-errors';
import type { ResourceInfo } from '../store/types';
import { yes } from '../xquery/serialization/params';
import { XML, type Result, type Session } from './types';

const CHUNK = 64 * 1024;

/** Sorted case-insensitively, ties in code point order (as BaseX lists). */
function sortedByName<T>(items: readonly T[], name: (item: T) => string): T[] {
  const keyed = items.map((item) => {
    const n = name(item);
    return { item, name: n, key: n.toLowerCase() };
  });
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return keyed.map((k) => k.item);
}

/** `<root xmlns=REST_NS ...attributes>`, one element per child, `</root>`; in chunks. */
function* chunks<T>(root: string, attributes: string, children: readonly T[], element: (child: T) => string, indent: boolean) {
  const open = `<${root} xmlns="${REST_NS}"${attributes}`;
  if (children.length === 0) {
    yield `${open}/>`;
    return;
  }
  const before = indent ? '\n  ' : '';
  let out = `${open}>`;
  for (const child of children) {
    out += before + element(child);
    if (out.length >= CHUNK) {
      yield out;
      out = '';
    }
  }
  yield `${out}${indent ? '\n' : ''}</${root}>`;
}

function listing<T>(root: string, attributes: string, children: readonly T[], element: (child: T) => string, indent: boolean): Result {
  const parts = chunks(root, attributes, children, element, indent);
  const first = parts.next();
  const second = first.done ? first : parts.next();
  if (second.done) return { status: 200, contentType: XML, body: first.done ? '' : first.value };
  const rest = function* () {
    yield first.value as string;
    yield second.value;
    yield* parts;
  };
  return { status: 200, contentType: XML, body: Readable.from(rest(), { objectMode: false }) };
}

export async function listDatabases(session: Session, serialization: Readonly<Record<string, string>>): Promise<Result> {
  // the session's store lists only the databases its user may read (guarded-store.ts)
  const dbs = await session.runtime.store.read('*', (view) => view.listDatabases());
  const visible = sortedByName(dbs, (d) => d.name);
  return listing(
    'databases',
    '',
    visible,
    (d) => `<database resources="${d.resources}" size="${d.size}">${escapeText(d.name)}</database>`,
    yes(serialization.indent),
  );
}

/** Immediate children of `dir` among `resources` (which all lie at or below it): directories and resources. */
function children(resources: readonly ResourceInfo[], dir: string): Array<{ name: string; info?: ResourceInfo }> {
  const prefix = dir === '' ? '' : `${dir}/`;
  const dirs = new Set<string>();
  const entries: Array<{ name: string; info?: ResourceInfo }> = [];
  for (const r of resources) {
    if (!r.path.startsWith(prefix)) continue;
    const rest = r.path.slice(prefix.length);
    const slash = rest.indexOf('/');
    if (slash < 0) entries.push({ name: rest, info: r });
    else dirs.add(rest.slice(0, slash));
  }
  for (const name of dirs) entries.push({ name });
  return entries;
}

/** Lists a database directory; `resources` are those at or below `dir`, read under the lock. */
export function databaseListing(
  db: string,
  dir: string,
  resources: readonly ResourceInfo[],
  serialization: Readonly<Record<string, string>>,
): Result {
  return listing(
    'database',
    ` name="${escapeAttribute(db)}"`,
    sortedByName(children(resources, dir), (e) => e.name),
    ({ name, info }) =>
      info === undefined
        ? `<dir>${escapeText(name)}</dir>`
        : `<resource type="${info.type}" content-type="${escapeAttribute(info.contentType)}" size="${info.size}">${escapeText(name)}</resource>`,
    yes(serialization.indent),
  );
}

/** Throws 404 unless the database exists and the user may read it (spec §12). */
export function notFound(db: string) {
  return raise(STORE_ERRORS, 'DB_NOT_FOUND_X', db);
}
