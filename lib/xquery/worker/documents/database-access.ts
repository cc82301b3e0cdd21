/**
 * What the db: functions and the end of an updating query need from the store, beyond fn:doc and
 * fn:collection: a DocumentSource that also offers DatabaseAccess (the store source does,
 * store-source.ts). Without one, no database exists.
 */
import type { DatabaseInfo, FullTextFound, FullTextLookup, ResourceInfo } from '../../../store/types';
import { xpathError, type XdmNode } from '../../../saxon';
import { MODULE_NAMESPACES } from '../../module-namespaces';
import { activeDocumentSource } from './source';

const DB_NS = MODULE_NAMESPACES.db;

/** Where a stored document lives. */
export interface StoredLocation {
  readonly db: string;
  readonly path: string;
}

/** What the db: functions need from the store (the store source implements it). */
export interface DatabaseAccess {
  /** Names of all databases, sorted. */
  databaseNames(): string[];
  hasDatabase(db: string): boolean;
  /** The database's record (times, totals, options) as the run sees it; db:open error for an unknown one. */
  databaseInfo(db: string): DatabaseInfo;
  /** Resources at or below `path`, sorted by path; db:open error for an unknown database. */
  resources(db: string, path?: string): ResourceInfo[];
  /** The resource stored exactly at `path`. */
  resource(db: string, path: string): ResourceInfo | undefined;
  /** Parsed XML documents at or below `path`, in path order (the same node objects as fn:doc). */
  documents(db: string, path?: string): XdmNode[];
  /** Stored bytes of a resource. */
  bytes(db: string, path: string): Buffer;
  /** Database and path of the document a node belongs to, if it is a stored one. */
  locate(node: XdmNode): StoredLocation | undefined;
  /** Text of the resource a URI names (for saxon's own loaders); undefined if there is none. */
  storedText?(uri: string): string | undefined;
  /** The full-text index the store keeps for `db` (store/types.ts `ReadView.fullText`); undefined: derive it. */
  storedFullText?(db: string, lookup: FullTextLookup): FullTextFound | undefined;
}

/** An error of BaseX's db module (the store source raises db:open and db:path too): code `Q{http://basex.org/modules/db}<name>`. */
export function dbError(name: string, message: string): Error {
  return xpathError(message, `Q{${DB_NS}}${name}`);
}

const NO_DATABASES: DatabaseAccess = {
  databaseNames: () => [],
  hasDatabase: () => false,
  databaseInfo: (db) => {
    throw dbError('open', `Database '${db}' was not found.`);
  },
  resources: (db) => {
    throw dbError('open', `Database '${db}' was not found.`);
  },
  resource: (db) => {
    throw dbError('open', `Database '${db}' was not found.`);
  },
  documents: (db) => {
    throw dbError('open', `Database '${db}' was not found.`);
  },
  bytes: (db) => {
    throw dbError('open', `Database '${db}' was not found.`);
  },
  locate: () => undefined,
};

export function isDatabaseAccess(value: unknown): value is DatabaseAccess {
  const v = value as Partial<DatabaseAccess> | null;
  return !!v && typeof v.databaseNames === 'function' && typeof v.documents === 'function' && typeof v.locate === 'function';
}

/** The DatabaseAccess of the running query. */
export function activeDatabases(): DatabaseAccess {
  const source = activeDocumentSource();
  return isDatabaseAccess(source) ? source : NO_DATABASES;
}
