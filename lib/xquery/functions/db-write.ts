/**
 * BaseX's Database Module, updating part (spec §16), as saxon-js extension functions in
 * namespace `http://basex.org/modules/db` (db.ts holds the reading part), registered by
 * `registerDbWriteFunctions` (extension-functions.ts).
 *
 * Each call checks its arguments at once and evaluates to a pending update (a `db` pending
 * item holding store changes, update/store-changes.ts); the changes are applied with the query's
 * other updates when it ends (update/pending-update-list.ts), all or nothing.
 *
 *   db:create($db[, $inputs[, $paths[, $options]]])   new (or emptied) database, with documents
 *   db:drop($db)                                       db:open if missing
 *   db:add($db, $input[, $path[, $options]])            stores a resource (replaces one at $path)
 *   db:put($db, $input, $path[, $options])              stores or replaces a resource
 *   db:put-value($db, $value, $path)                    a `value` resource (functions/support/stored-values.ts)
 *   db:put-binary($db, $value, $path)                   a binary resource
 *   db:delete($db, $path)                               resources at or below $path
 *   db:rename($db, $source, $target)                    resources at or below $source
 *   db:copy($db, $name), db:alter($db, $name)           copy / rename a database
 *   db:optimize($db[, $all[, $options]])               sets the index options given (nothing to rebuild)
 *   db:flush($db)                                       nothing to do (checks $db)
 *
 * db:create and db:optimize take BaseX's index options (`textindex`, `attrindex`, `tokenindex`,
 * `ftindex`, `updindex`, `autooptimize` as booleans; `maxlen`, `maxcats`) and the full-text
 * index's (`stemming`, `casesens`, `diacritics` as booleans; `language`, `stopwords`), kept with
 * the database (store/index-kinds.ts); an index setting this server cannot honour (an include
 * list, a language without a stemmer) is XMLR0001, another key XPTY0004.
 *
 * Inputs: a document or element node (stored as a document), a string holding XML (starting
 * with `<`), or an xs:base64Binary/xs:hexBinary value (stored as binary). Strings naming files
 * or URLs are not read: FODC0002. Errors: db:open (unknown database), db:name (invalid name),
 * db:path (invalid path), FOUP0001 (other input), FODC0006 (XML that is not well-formed).
 */
import { parseToStoredXml } from '../../convert/xml';
import { isValidDatabaseName, normalizePath, unsupportedIndexSetting } from '../../store';
import { atomicTypeName, isAtomic, isDocumentNode, isNode, registerFunctions, xpathError, type XdmItem, type XdmValue } from '../../saxon';
import type { StoreChange } from '../update/store-changes';
import { updateError } from '../update/update-errors';
import { serializeModel, toModel } from '../update/model';
import { dbPending, describe } from '../update/primitives';
import { activeDatabases } from '../worker/documents/database-access';
import { DB_NS } from './db';
import { encodeValue } from './support/stored-values';
import { readOptions, type OptionSpec } from './support/option-maps';
import { unsupportedFullTextOptions } from '../fulltext/index-options';
import type { DatabaseOptions } from '../../store/types';

const str = (v: XdmValue | undefined): string => (v && v.length ? String(v[0]) : '');

function validName(db: string): string {
  if (!isValidDatabaseName(db)) throw updateError('db:name', db);
  return db;
}

function existing(db: string): string {
  validName(db);
  if (!activeDatabases().hasDatabase(db)) throw updateError('db:open', db);
  return db;
}

function resourcePath(path: string): string {
  const p = normalizePath(path);
  if (p === undefined || p === '') throw updateError('db:path', path);
  return p;
}

function anyPath(path: string): string {
  const p = normalizePath(path);
  if (p === undefined) throw updateError('db:path', path);
  return p;
}

/** The stored form of an input (see the file comment). */
function inputChange(db: string, path: string, input: XdmValue): StoreChange {
  if (input.length !== 1) throw updateError('FOUP0001', describe(input));
  const item: XdmItem = input[0];
  if (isNode(item)) {
    if (!isDocumentNode(item) && item.nodeType !== 1) throw updateError('FOUP0001', describe(input));
    return xmlChange(db, path, serializeModel(toModel(item)));
  }
  if (isAtomic(item)) {
    const type = atomicTypeName(item);
    if (type === 'base64Binary' || type === 'hexBinary') return { op: 'put', db, path, type: 'binary', data: binaryBase64(item), base64: true };
    const text = item.toString();
    if (/^\s*</.test(text)) return xmlChange(db, path, text);
    throw xpathError(`Resource '${text}' not found (only XML strings are accepted as input).`, 'FODC0002');
  }
  throw updateError('FOUP0001', describe(input));
}

function xmlChange(db: string, path: string, text: string): StoreChange {
  let parsed: { xml: string; nodes: number };
  try {
    parsed = parseToStoredXml(text.replace(/^\uFEFF/, ''), { name: path });
  } catch (e) {
    throw xpathError(`Input for ${db}/${path} is not well-formed XML: ${e instanceof Error ? e.message : String(e)}`, 'FODC0006');
  }
  return { op: 'put', db, path, type: 'xml', data: parsed.xml, nodes: parsed.nodes };
}

/** The bytes of a binary value as base64 (hexBinary converted). */
function binaryBase64(item: XdmItem): string {
  const text = item.toString();
  return atomicTypeName(item as never) === 'hexBinary' ? Buffer.from(text, 'hex').toString('base64') : text;
}

function add([db, input, path]: XdmValue[]): XdmValue {
  const name = existing(str(db));
  let p = path && path.length ? str(path) : '';
  if (p === '' && input.length === 1 && isNode(input[0]) && isDocumentNode(input[0])) {
    const uri = (input[0] as { _saxonDocUri?: string })._saxonDocUri ?? '';
    p = uri.slice(uri.lastIndexOf('/') + 1);
  }
  return [dbPending([inputChange(name, resourcePath(p), input)])];
}

function put([db, input, path]: XdmValue[]): XdmValue {
  const name = existing(str(db));
  return [dbPending([inputChange(name, resourcePath(str(path)), input)])];
}

function putValue([db, value, path]: XdmValue[]): XdmValue {
  const name = existing(str(db));
  return [dbPending([{ op: 'put', db: name, path: resourcePath(str(path)), type: 'value', data: encodeValue(value) }])];
}

function putBinary([db, value, path]: XdmValue[]): XdmValue {
  const name = existing(str(db));
  const p = resourcePath(str(path));
  if (value.length !== 1 || !isAtomic(value[0])) throw updateError('FOUP0001', describe(value));
  const item = value[0];
  const type = atomicTypeName(item);
  const data = type === 'base64Binary' || type === 'hexBinary' ? binaryBase64(item) : Buffer.from(item.toString(), 'utf8').toString('base64');
  return [dbPending([{ op: 'put', db: name, path: p, type: 'binary', data, base64: true }])];
}

function del([db, path]: XdmValue[]): XdmValue {
  return [dbPending([{ op: 'delete', db: existing(str(db)), path: anyPath(str(path)) }])];
}

function rename([db, source, target]: XdmValue[]): XdmValue {
  return [dbPending([{ op: 'rename', db: existing(str(db)), path: anyPath(str(source)), to: resourcePath(str(target)) }])];
}

/** Index options of db:create and db:optimize (see the file comment). */
const INDEX_OPTIONS: OptionSpec = {
  textindex: 'boolean', attrindex: 'boolean', tokenindex: 'boolean', ftindex: 'boolean',
  updindex: 'boolean', autooptimize: 'boolean', maxlen: 'string', maxcats: 'string',
  stemming: 'boolean', casesens: 'boolean', diacritics: 'boolean', language: 'string', stopwords: 'string',
};

/** The keys of INDEX_OPTIONS that take a string as it is. */
const STRING_OPTIONS = new Set(['language', 'stopwords']);

function indexOptions(arg: XdmValue | undefined): DatabaseOptions {
  const out: DatabaseOptions = {};
  for (const [key, value] of Object.entries(readOptions(arg, INDEX_OPTIONS))) {
    if (value === undefined) continue;
    const unsupported = unsupportedIndexSetting(key.toUpperCase(), value);
    if (unsupported !== undefined) throw updateError('XMLR0001', unsupported);
    if (STRING_OPTIONS.has(key)) {
      out[key] = value;
      continue;
    }
    if (typeof value === 'string' && !/^\d+$/.test(value)) throw xpathError(`Option '${key}' must be an integer: '${value}'.`, 'XPTY0004');
    out[key] = typeof value === 'string' ? Number(value) : value;
  }
  const problem = unsupportedFullTextOptions(out);
  if (problem !== undefined) throw updateError('XMLR0001', problem);
  return out;
}

function create([db, inputs, paths, options]: XdmValue[]): XdmValue {
  const name = validName(str(db));
  const changes: StoreChange[] = [{ op: 'create', db: name, options: indexOptions(options) }];
  const items = inputs ?? [];
  const names = (paths ?? []).map(String);
  if (items.length !== names.length && items.length > 0) {
    throw xpathError(`Number of inputs (${items.length}) and paths (${names.length}) differ.`, `Q{${DB_NS}}args`);
  }
  items.forEach((item, i) => changes.push(inputChange(name, resourcePath(names[i]), [item])));
  return [dbPending(changes)];
}

function drop([db]: XdmValue[]): XdmValue {
  return [dbPending([{ op: 'drop', db: existing(str(db)) }])];
}

function copy([db, to]: XdmValue[]): XdmValue {
  const from = existing(str(db));
  const target = validName(str(to));
  if (from === target) throw xpathError(`Name of source and target database is equal: ${from}.`, `Q{${DB_NS}}conflict`);
  return [dbPending([{ op: 'copy', db: from, to: target }])];
}

function alter([db, to]: XdmValue[]): XdmValue {
  const from = existing(str(db));
  const target = validName(str(to));
  if (from === target) throw xpathError(`Name of source and target database is equal: ${from}.`, `Q{${DB_NS}}conflict`);
  return [dbPending([{ op: 'alter', db: from, to: target }])];
}

function nothing([db]: XdmValue[]): XdmValue {
  existing(str(db));
  return [dbPending([])];
}

function optimize([db, , options]: XdmValue[]): XdmValue {
  const name = existing(str(db));
  const set = indexOptions(options);
  return [dbPending(Object.keys(set).length > 0 ? [{ op: 'options', db: name, options: set }] : [])];
}

// ---------------------------------------------------------------------------------------------
// Registration (as in db.ts: one name, several arities)


/** Registers the updating db: functions with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerDbWriteFunctions(): void {
  registerFunctions(DB_NS, {
    create: { sig: '1F r[*] a[1AS,*,*AS,*]', arity: [1, 2, 3, 4], impl: create },
    drop: { sig: '1F r[*] a[1AS]', impl: drop },
    add: { sig: '1F r[*] a[1AS,*,?AS,*]', arity: [2, 3, 4], impl: add },
    put: { sig: '1F r[*] a[1AS,*,1AS,*]', arity: [3, 4], impl: put },
    'put-value': { sig: '1F r[*] a[1AS,*,1AS]', impl: putValue },
    'put-binary': { sig: '1F r[*] a[1AS,*,1AS]', impl: putBinary },
    delete: { sig: '1F r[*] a[1AS,1AS]', impl: del },
    rename: { sig: '1F r[*] a[1AS,1AS,1AS]', impl: rename },
    copy: { sig: '1F r[*] a[1AS,1AS]', impl: copy },
    alter: { sig: '1F r[*] a[1AS,1AS]', impl: alter },
    optimize: { sig: '1F r[*] a[1AS,?AB,*]', arity: [1, 2, 3], impl: optimize },
    flush: { sig: '1F r[*] a[1AS]', impl: nothing },
  });
}
