/**
 * BaseX's Database Module, read-only part (spec §16), as saxon-js extension functions in
 * namespace `http://basex.org/modules/db`, registered by `registerDbFunctions`
 * (extension-functions.ts); the translator emits calls as EQNames, e.g.
 * `Q{http://basex.org/modules/db}get('db', 'a.xml')`, with BaseX's arities:
 *
 *   db:get($db[, $path]) as document-node()*       documents at or below $path, in path order
 *   db:open($db[, $path]) as document-node()*      older name of db:get
 *   db:list() as xs:string*                         names of all databases
 *   db:list($db[, $path]) as xs:string*             paths of the resources (all types) at or below $path
 *   db:exists($db[, $path]) as xs:boolean           database exists / a resource or directory at $path
 *   db:type($db, $path) as xs:string                'xml' | 'binary' | 'value'
 *   db:content-type($db, $path) as xs:string        media type of the resource
 *   db:get-binary($db, $path) as xs:base64Binary    bytes of a binary resource
 *   db:get-value($db, $path) as item()*             a value resource (format: functions/support/stored-values.ts)
 *   db:name($node) as xs:string                     database of a stored node
 *   db:path($node) as xs:string                     resource path of a stored node's document
 *
 * Plus, in the engine's namespace, `Q{urn:xmldb-rest:engine}uri-collection($uri?)` for
 * fn:uri-collection (saxon-js's own always answers the empty sequence): the document URIs
 * (`/db/path`, xs:anyURI) of the XML documents of a collection, from the catalog, without parsing.
 *
 * Errors (codes are QNames in the db namespace, as in BaseX 10+; they print as
 * `Q{http://basex.org/modules/db}open` until the error layer maps the namespace to `db:`):
 *   db:open  `Database 'x' was not found.`      unknown database (BaseX wraps its OPEN message)
 *   db:path  `Invalid path: x.`                 path that climbs above the root or is malformed
 *   db:node  `No database node: x.`             db:name/db:path of a node that is not stored
 *   FODC0002 `Resource 'db/path' not found.`    db:type, db:content-type, db:get-binary,
 *                                               db:get-value of a path without such a resource
 *
 * The functions read through the DocumentSource of the running query when it offers
 * DatabaseAccess (the store source does); otherwise no database exists.
 *
 * The other parts of the module: db-index.ts (db:text and the value indexes), db-info.ts
 * (db:info, db:property, db:system, db:list-details), db-nodes.ts (pre values and ids),
 * db-write.ts (updating functions).
 */
import type { ResourceInfo } from '../../store/types';
import { activeDocumentSource } from '../worker/documents/source';
import { ENGINE_NS } from '../constants';
import { activeDatabases, dbError, type DatabaseAccess, type StoredLocation } from '../worker/documents/database-access';
import {
  castString,
  stringValue,
  xpathError,
  registerFunctions,
  type XdmNode,
  type XdmValue,
} from '../../saxon';
import { splitDatabasePath } from '../language/resource-uri';
import { decodeValue } from './support/stored-values';
import { MODULE_NAMESPACES } from '../module-namespaces';

export const DB_NS = MODULE_NAMESPACES.db;

// ---------------------------------------------------------------------------------------------

const str = (v: XdmValue): string => String(v[0]);

/** The resource at `path`, or FODC0002 (also for an unknown database: db:open first). */
function requireResource(access: DatabaseAccess, db: string, path: string): ResourceInfo {
  const info = access.resource(db, path);
  if (!info) throw xpathError(`Resource '${db}/${path}' not found.`, 'FODC0002');
  return info;
}

function stored(node: XdmValue): StoredLocation {
  const item = node[0] as XdmNode;
  const where = activeDatabases().locate(item);
  if (!where) throw dbError('node', `No database node: ${describeNode(item)}.`);
  return where;
}

/** A node as db:node errors name it. */
export function describeNode(node: XdmNode): string {
  const name = node.nodeName ?? '';
  switch (node.nodeType) {
    case 9:
      return 'document-node()';
    case 1:
      return `<${name}>`;
    case 2:
      return `@${(node as { name?: string }).name ?? name}`;
    default:
      return name || 'node()';
  }
}

function getDocuments([db, path]: XdmValue[]): XdmValue {
  return activeDatabases().documents(str(db), path && path.length > 0 ? str(path) : '');
}

function list(args: XdmValue[]): XdmValue {
  const access = activeDatabases();
  if (args.length === 0) return access.databaseNames().map(stringValue);
  const db = str(args[0]);
  const path = args.length > 1 && args[1].length > 0 ? str(args[1]) : '';
  return access.resources(db, path).map((r) => stringValue(r.path));
}

function exists([db, path]: XdmValue[]): XdmValue {
  const access = activeDatabases();
  const name = str(db);
  let answer = access.hasDatabase(name);
  if (answer && path !== undefined && path.length > 0) {
    const p = str(path);
    answer = access.resource(name, p) !== undefined || access.resources(name, p).length > 0;
  }
  return [castString(String(answer), 'boolean')];
}

function type([db, path]: XdmValue[]): XdmValue {
  return [stringValue(requireResource(activeDatabases(), str(db), str(path)).type)];
}

function contentType([db, path]: XdmValue[]): XdmValue {
  return [stringValue(requireResource(activeDatabases(), str(db), str(path)).contentType)];
}

function getBinary([db, path]: XdmValue[]): XdmValue {
  const access = activeDatabases();
  const info = requireResource(access, str(db), str(path));
  if (info.type !== 'binary') throw xpathError(`Resource '${str(db)}/${str(path)}' not found.`, 'FODC0002');
  return [castString(access.bytes(str(db), info.path).toString('base64'), 'base64Binary')];
}

function getValue([db, path]: XdmValue[]): XdmValue {
  const access = activeDatabases();
  const info = requireResource(access, str(db), str(path));
  if (info.type !== 'value') throw xpathError(`Resource '${str(db)}/${str(path)}' not found.`, 'FODC0002');
  return decodeValue(access.bytes(str(db), info.path).toString('utf8'), `${str(db)}/${info.path}`);
}

function uriCollection([uri]: XdmValue[]): XdmValue {
  const access = activeDatabases();
  const source = activeDocumentSource();
  if (!uri || uri.length === 0) {
    // the default collection: the documents' own URIs
    const docs = source.getCollection(null);
    if (!docs) throw xpathError('No default collection is available.', 'FODC0002');
    return docs.map((d) => castString((d as { _saxonDocUri?: string })._saxonDocUri ?? '', 'anyURI'));
  }
  const { db, path } = splitDatabasePath(str(uri).trim());
  if (!access.hasDatabase(db)) {
    // not a database path: as fn:collection would see it (URIs of whatever documents it yields)
    const docs = source.getCollection(str(uri));
    if (!docs) throw xpathError(`Resource '${str(uri)}' not found.`, 'FODC0002');
    return docs.map((d) => castString((d as { _saxonDocUri?: string })._saxonDocUri ?? '', 'anyURI'));
  }
  return access
    .resources(db, path)
    .filter((r) => r.type === 'xml')
    .map((r) => castString(`/${db}/${r.path}`, 'anyURI'));
}

// ---------------------------------------------------------------------------------------------
// Registration

// saxon's compact signatures: `1F r[RESULT] a[ARG,...]` (the longest arity's arguments); `arity`
// lists the arities of a name with optional trailing arguments.
const DOCS = '1F r[*ND] a[1AS,1AS]';

/** Registers BaseX's db: functions (reading part) and engine:uri-collection with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerDbFunctions(): void {
  registerFunctions(DB_NS, {
    get: { sig: DOCS, arity: [1, 2], impl: getDocuments },
    open: { sig: DOCS, arity: [1, 2], impl: getDocuments },
    list: { sig: '1F r[*AS] a[1AS,1AS]', arity: [0, 1, 2], impl: list },
    exists: { sig: '1F r[1AB] a[1AS,1AS]', arity: [1, 2], impl: exists },
    type: { sig: '1F r[1AS] a[1AS,1AS]', impl: type },
    'content-type': { sig: '1F r[1AS] a[1AS,1AS]', impl: contentType },
    'get-binary': { sig: '1F r[1A2] a[1AS,1AS]', impl: getBinary },
    'get-value': { sig: '1F r[*] a[1AS,1AS]', impl: getValue },
    name: { sig: '1F r[1AS] a[1N]', impl: (args) => [stringValue(stored(args[0]).db)] },
    path: { sig: '1F r[1AS] a[1N]', impl: (args) => [stringValue(stored(args[0]).path)] },
  });

  registerFunctions(ENGINE_NS, {
    'uri-collection': { sig: '1F r[*AU] a[?AS]', arity: [0, 1], impl: uriCollection },
  });
}
