/**
 * Which databases a query can reach, read from its text: the lock set of a query, and the
 * databases whose permissions an updating query needs (spec §16.1).
 *
 * A query names a database through the first argument of fn:doc, fn:doc-available,
 * fn:collection, fn:uri-collection, the fn:unparsed-text family, fn:json-doc, json:doc and csv:doc
 * (a stored resource `db/path`, see documents/store-source.ts), the second of fn:put (the
 * resource it writes, update/put.ts), and through the database arguments of the db: functions.
 * When every such argument is a string literal, the answer is the list of those databases; the
 * database of the query's context (the URL) is the caller's to add.
 *
 * The answer is `'*'` (every database) as soon as the text does not tell: a computed argument, a
 * function reference or partial application of one of those functions, fn:function-lookup,
 * fn:transform, fn:load-xquery-module, db:list() without a name, a `declare base-uri` (relative
 * URIs would resolve elsewhere), a percent-encoded URI (the store tries it decoded too), or a
 * call of any function outside the standard namespaces that is not declared in the query; among
 * them xquery:eval and xslt:transform, whose query or stylesheet is known only when it runs (it
 * reads through the caller's source, so it sees the databases the caller may read, all locked).
 * A list may name more databases than the query will touch (a host file with a database-like
 * name), never fewer.
 */
import { isValidDatabaseName } from '../../../store';
import { MODULE_NAMESPACES, UPDATE_MODULE_NS } from '../../module-namespaces';
import { hasScheme, splitDatabasePath } from '../resource-uri';
import { BASE_FOLDER } from '../../constants';
import { eachChild, type MainModule, type Node } from '../syntax';
import { NS } from '../../constants';
import { functionNames } from './function-names';

/** Database names in sorted order, or every database. */
export type DatabaseSet = readonly string[] | '*';

/** fn functions whose first argument names a stored resource or collection. */
export const RESOURCE_FUNCTIONS = new Set([
  'doc', 'doc-available', 'collection', 'uri-collection', 'unparsed-text', 'unparsed-text-lines', 'unparsed-text-available', 'json-doc',
]);

/** fn functions that reach functions or resources chosen at run time. */
export const OPEN_ENDED_FUNCTIONS = new Set(['function-lookup', 'transform', 'load-xquery-module']);

/** db: functions whose first two arguments are database names. */
const TWO_DATABASES = new Set(['copy', 'alter']);

/** db: functions that take no database name: nodes, or nothing (db:system). */
const NODE_FUNCTIONS = new Set(['name', 'path', 'node-pre', 'node-id', 'system']);

/** Namespaces whose functions never read a database (besides the fn ones above). */
const SAFE_NAMESPACES = new Set<string>([
  NS.math, NS.map, NS.array, NS.xs, UPDATE_MODULE_NS, MODULE_NAMESPACES.convert, MODULE_NAMESPACES.random, MODULE_NAMESPACES.hash,
  MODULE_NAMESPACES.util, MODULE_NAMESPACES.string, MODULE_NAMESPACES.out, MODULE_NAMESPACES.bin,
  // prof:sleep, prof:time(expr), …: the expressions they take are analysed like any other
  MODULE_NAMESPACES.prof,
  // archives are binary values; users are no database
  MODULE_NAMESPACES.archive, MODULE_NAMESPACES.user,
]);

/** Module functions whose first argument names a stored resource like fn:doc's; the modules' other functions read none. */
const MODULE_RESOURCE_FUNCTIONS = new Map<string, ReadonlySet<string>>([
  [MODULE_NAMESPACES.json, new Set(['doc'])],
  [MODULE_NAMESPACES.csv, new Set(['doc'])],
  [MODULE_NAMESPACES.inspect, new Set(['functions', 'module', 'xqdoc'])],
]);


class OpenEnded extends Error {}

export function databasesOf(module: MainModule): DatabaseSet {
  const { useOf } = functionNames(module);
  const baseUriDeclared = module.prolog.decls.some((d) => d.kind === 'BaseURIDecl');

  const found = new Set<string>();
  const visit = (n: Node): void => {
    const use = useOf(n);
    if (use && !use.declared) {
      if (use.args) call(use.uri, use.local, use.args);
      else if (reaches(use.uri, use.local)) throw new OpenEnded();
    }
    if (n.kind === 'FTWithOptions' || n.kind === 'FTOptionDecl') {
      // Stop-word lists and thesauri `at` a stored resource (XQuery Full Text 1.0 §3.4.5, §3.4.7).
      for (const o of n.options) {
        if (o.option === 'stop words') for (const step of o.value) if (step.at !== undefined) resource(step.at);
        if (o.option === 'thesaurus') for (const ref of o.value) if (ref.at !== undefined) resource(ref.at);
      }
    }
    eachChild(n, visit);
  };
  const resource = (uri: string): void => {
    if (baseUriDeclared) throw new OpenEnded();
    const db = databaseOfUri(uri);
    if (db !== undefined) found.add(db);
  };
  const call = (uri: string, local: string, args: readonly Node[]): void => {
    if (uri === NS.fn) {
      if (OPEN_ENDED_FUNCTIONS.has(local)) throw new OpenEnded();
      if (RESOURCE_FUNCTIONS.has(local) && args.length > 0) resource(literal(args[0]));
      if (local === 'put' && args.length > 1) resource(literal(args[1]));
      return;
    }
    const moduleResources = MODULE_RESOURCE_FUNCTIONS.get(uri);
    if (moduleResources) {
      if (moduleResources.has(local) && args.length > 0) resource(literal(args[0]));
      return;
    }
    if (uri === MODULE_NAMESPACES.ft) {
      // ft:search and ft:tokens name a database; the other ft: functions read none.
      if ((local === 'search' || local === 'tokens') && args.length > 0 && isValidDatabaseName(literal(args[0]))) found.add(literal(args[0]));
      return;
    }
    // index: functions name their database first, as db: functions do
    if (uri === NS.db || uri === MODULE_NAMESPACES.index) {
      if (NODE_FUNCTIONS.has(local)) return;
      const count = TWO_DATABASES.has(local) ? 2 : 1;
      if (args.length < count) throw new OpenEnded(); // db:list(): every database
      for (let i = 0; i < count; i++) {
        const name = literal(args[i]);
        if (isValidDatabaseName(name)) found.add(name); // an invalid name fails when the query runs
      }
      return;
    }
    if (!SAFE_NAMESPACES.has(uri)) throw new OpenEnded();
  };

  try {
    visit(module);
  } catch (e) {
    if (e instanceof OpenEnded) return '*';
    throw e;
  }
  return [...found].sort();
}

/** Whether a function item of this name could read a database. */
function reaches(uri: string, local: string): boolean {
  if (uri === NS.fn) return RESOURCE_FUNCTIONS.has(local) || OPEN_ENDED_FUNCTIONS.has(local);
  const moduleResources = MODULE_RESOURCE_FUNCTIONS.get(uri);
  if (moduleResources) return moduleResources.has(local);
  return !SAFE_NAMESPACES.has(uri);
}

/** The value of a string literal argument; anything else leaves the set open. */
function literal(arg: Node): string {
  if (arg.kind === 'StringLiteral') return arg.value;
  throw new OpenEnded();
}

/**
 * The database a literal URI names, as the store source resolves it (language/resource-uri.ts);
 * undefined for other schemes (host files, refused) and for names no database can have.
 */
function databaseOfUri(uri: string): string | undefined {
  let text = uri.trim();
  if (/%[0-9A-Fa-f]{2}/.test(text)) throw new OpenEnded();
  if (hasScheme(text)) {
    if (!text.startsWith(BASE_FOLDER)) return undefined;
    text = text.slice(BASE_FOLDER.length);
  }
  const { db } = splitDatabasePath(text);
  return isValidDatabaseName(db) ? db : undefined;
}
