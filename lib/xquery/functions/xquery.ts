/**
 * BaseX's XQuery Module (docs.basex.org, "XQuery Functions"), as saxon-js extension functions in
 * namespace `http://basex.org/modules/xquery` (prefix `xquery`, predeclared):
 *
 *   xquery:eval($query as xs:anyAtomicType, $bindings as map(*)? := {}, $options as map(*)? := {}) as item()*
 *   xquery:eval-update(...same...) as item()*     its pending updates join the calling query's
 *
 * The query text (or, for an xs:anyURI, the module it names, read as fn:unparsed-text would:
 * a stored resource, or a host file only where the run may read host files) goes through the
 * same parser, update analysis and translator as a query sent over REST (eval-translation.ts),
 * so the same function allow-list holds (a forbidden function is XPST0017), and runs in the
 * caller's worker, inside the caller's run:
 * - documents and databases come from the caller's DocumentSource, which shows only the
 *   databases the caller may read (operations/permission.ts); a database the caller cannot read
 *   does not exist for the evaluated query either. The caller's lock set cannot be narrowed by
 *   static analysis (analysis/databases.ts: a call into this module reaches every database), so the
 *   caller holds every database it may read;
 * - host files only if the caller may read them (guards/resource-guard.ts is per run);
 * - the time limit is the caller's: the evaluated query is part of the caller's run, which the
 *   pool stops when its time is up (BASX0003). The `timeout` option (seconds) lowers it for the
 *   evaluation (run-limit.ts); past it the pool stops the whole query with
 *   `[xquery:timeout] The timeout was exceeded.` (BaseX's error; unlike in BaseX it cannot be
 *   caught, since the worker running the query is stopped);
 * - an updating query is refused by xquery:eval (`xquery:update`); xquery:eval-update runs one
 *   and returns its pending updates to the calling query, which analysis/updating.ts treats as
 *   updating. Its changes are judged by the databases they change when they are applied, like
 *   the calling query's (operations/guarded-store.ts). xquery:eval-update of a query that is
 *   not updating is `xquery:update` too (BaseX). An evaluated query that needs more than the
 *   `permission` option grants (write; create for db:create, db:drop, db:copy, db:alter) is
 *   refused (`xquery:permission`).
 *
 * Bindings (BaseX): a key is an xs:QName, or a string `name`, `$name` or `Q{uri}name`, and binds
 * the external variable of that name; the key '' binds the context, which must be a sequence of
 * nodes here (the translator's database-context mode). Options: `base-uri` (the static base URI
 * of the evaluated query), `timeout` (see above) and `permission` (none, read, write, create,
 * admin): the evaluation runs with no more rights than that, on top of the caller's own: below
 * admin it reads no host files, below read no databases, and xquery:eval-update needs write;
 * `memory` and `pass` are accepted and ignored. Errors: those of the evaluated query, with their
 * codes; `xquery:update`, `xquery:permission`, `xquery:timeout`.
 */
import { compileStylesheet } from '../worker/compile';
import { DEFAULT_BASE_URI } from '../constants';
import { evaluate } from '../worker/evaluate';
import { NO_DOCUMENTS, activeDocumentSource, withDocumentSource } from '../worker/documents/source';
import { parsePermission, permissionLabel, rank, type Permission } from '../../users/permissions';
import { fileAccessAllowed, setFileAccess } from '../worker/guards/resource-guard';
import { withRunLimit } from '../worker/run-limit';
import {
  TypeCode,
  atomicDerivesFrom,
  isAtomic,
  isNode,
  registerFunctions,
  saxon,
  stringValue,
  xpathError,
  type XdmAtomic,
  type XdmMap,
  type XdmNode,
  type XdmValue,
} from '../../saxon';
import { bindingName } from './support/binding-keys';
import { asSaxonError, translateEval, type EvalTranslation } from './support/eval-translation';
import { MODULE_NAMESPACES } from '../module-namespaces';

export const XQUERY_NS = MODULE_NAMESPACES.xquery;

function xqueryError(name: string, message: string): Error {
  return xpathError(message, `Q{${XQUERY_NS}}${name}`);
}

/** The text of the query: the string, or the module an xs:anyURI names (resolved against the base URI). */
function queryText(query: XdmAtomic, baseUri: string): string {
  if (!atomicDerivesFrom(query, TypeCode.anyURI)) return String(query);
  let uri: string;
  try {
    uri = new URL(String(query), baseUri).href;
  } catch {
    throw xpathError(`Invalid URI: ${String(query)}.`, 'FORG0002');
  }
  // the platform's reader is guarded per run: stored resources, host files only when allowed
  return saxon().getPlatform().readFile(uri, 'utf-8');
}

interface EvalOptions {
  readonly baseUri: string;
  /** The permission the evaluation runs with (BaseX's `permission`): it can only take rights away. */
  readonly permission: Permission;
  /** Seconds the evaluation may take (BaseX's `timeout`; 0 or absent: the caller's limit). */
  readonly timeout: number;
}

function evalOptions(options: XdmMap | undefined): EvalOptions {
  const option = (name: string): string | undefined => {
    const value = options?.get(stringValue(name));
    return value && value.length > 0 ? String(value[0]) : undefined;
  };
  const timeout = Number(option('timeout') ?? 0);
  if (!Number.isFinite(timeout) || timeout < 0) throw xpathError(`Option 'timeout' must be a non-negative number of seconds: ${option('timeout')}.`, 'XPTY0004');
  const permissionText = option('permission') ?? 'admin';
  const permission = parsePermission(permissionText);
  if (!permission) throw xqueryError('permission', `Invalid permission: '${permissionText}'.`);
  return { baseUri: option('base-uri') ?? DEFAULT_BASE_URI, timeout, permission };
}

function bindingsOf(map: XdmMap | undefined): Map<string, XdmValue> {
  const bindings = new Map<string, XdmValue>();
  for (const key of map?.keys() ?? []) bindings.set(bindingName(key), map!.get(key));
  return bindings;
}

/** The stylesheet parameters of a translation from the bindings; XPDY0002 for a missing required one. */
function params(t: EvalTranslation, bindings: Map<string, XdmValue>): Record<string, XdmValue> {
  const result: Record<string, XdmValue> = {};
  for (const ext of t.externals) {
    const value = bindings.get(`Q{${ext.uri}}${ext.local}`);
    if (value !== undefined) result[ext.param] = value;
    else if (ext.required) throw xpathError(`No value assigned to $${ext.local}.`, 'XPDY0002');
  }
  return result;
}

function contextNodes(bindings: Map<string, XdmValue>): XdmNode[] | undefined {
  const context = bindings.get('');
  if (context === undefined) return undefined;
  if (!context.every(isNode)) throw xpathError('The context of xquery:eval must be a sequence of nodes.', 'XPTY0004');
  return context as XdmNode[];
}

/**
 * Runs `fn` with no more than `permission`: below admin without host files, below read without
 * databases (the caller's own permissions hold in any case, through its source).
 */
function withPermission<T>(permission: Permission, fn: () => T): T {
  if (permission === 'admin') return fn();
  const fileAccess = fileAccessAllowed();
  setFileAccess(false);
  try {
    if (rank(permission) >= rank('read')) return fn();
    const source = activeDocumentSource();
    return withDocumentSource(source.forRun?.(undefined, []) ?? NO_DOCUMENTS, fn);
  } finally {
    setFileAccess(fileAccess);
  }
}

function run([query, bindingsArg, optionsArg]: XdmValue[], updating: boolean): XdmValue {
  const options = evalOptions(optionsArg?.[0] as XdmMap | undefined);
  if (updating && rank(options.permission) < rank('write')) throw xqueryError('permission', 'Write permission required.');
  return withPermission(options.permission, () => evaluateQuery(query, bindingsArg, options, updating));
}

function evaluateQuery(query: XdmValue, bindingsArg: XdmValue | undefined, options: EvalOptions, updating: boolean): XdmValue {
  const bindings = bindingsOf(bindingsArg?.[0] as XdmMap | undefined);
  if (!isAtomic(query[0])) throw xpathError('The query of xquery:eval must be a string or an xs:anyURI.', 'XPTY0004');
  const text = queryText(query[0], options.baseUri);
  const context = contextNodes(bindings);
  const t = translateEval(text, context !== undefined);
  if (t.updating !== updating) throw xqueryError('update', updating ? 'Updating expression expected.' : 'No updating expression allowed.');
  if (updating && (t.permission === 'create' || t.permission === 'admin') && rank(options.permission) < rank(t.permission)) {
    throw xqueryError('permission', `${permissionLabel(t.permission)} permission required.`);
  }
  const compiled = compileStylesheet(t.xslt, { baseUri: options.baseUri });
  const evaluated = () => evaluate(compiled, { params: params(t, bindings), context, source: activeDocumentSource() });
  return options.timeout > 0 ? withRunLimit(options.timeout * 1000, evaluated) : evaluated();
}

function guarded(args: XdmValue[], updating: boolean): XdmValue {
  try {
    return run(args, updating);
  } catch (e) {
    throw asSaxonError(e);
  }
}

/** Registers xquery:eval and xquery:eval-update with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerXQueryFunctions(): void {
  registerFunctions(XQUERY_NS, {
    eval: { sig: '1F r[*] a[1A,?FM,?FM]', arity: [1, 2, 3], impl: (args) => guarded(args, false) },
    'eval-update': { sig: '1F r[*] a[1A,?FM,?FM]', arity: [1, 2, 3], impl: (args) => guarded(args, true) },
  });
}
