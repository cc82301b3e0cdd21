/**
 * Errors of the XQuery Update Facility 3.0 (static XUST, type XUTY, dynamic XUDY) and of the
 * updating parts of BaseX's db module, as one catalog, with the codes of XQuery Update 3.0
 * §A.2 and BaseX's Database Module.
 *
 * Static errors are thrown by the analysis as `LocatedQueryError`s at the XQuery position;
 * type and dynamic errors are raised while the query runs (inside saxon-js extension functions
 * or while the pending update list is applied), as saxon errors in the W3C error namespace, so
 * `try`/`catch err:XUDY0027` sees them and the engine reports them like any dynamic error.
 */
import { format } from '../../xmldb-error';
import { LocatedQueryError } from '../static-errors';
import { QueryError } from '../query-error';
import { xpathError } from '../../saxon';
import { lineColumn } from '../language/syntax/syntax-errors';
import { MODULE_NAMESPACES } from '../module-namespaces';

const ERR_NS = 'http://www.w3.org/2005/xqt-errors';

export const UPDATE_ERRORS = {
  XUST0001: 'Updating expression is not allowed here: %.',
  XUST0002: 'Updating expression expected in %.',
  XUST0026: 'Revalidation mode % is not supported.',
  XUST0028: 'Updating function % must not declare a return type.',
  XUTY0004: 'Attributes must precede all other nodes in the inserted content.',
  XUTY0005: 'Target of insert into must be a single element or document node, found %.',
  XUTY0006: 'Target of insert before/after must be a single element, text, comment or processing instruction, found %.',
  XUTY0007: 'Target of delete must be a sequence of nodes, found %.',
  XUTY0008: 'Target of replace must be a single element, attribute, text, comment or processing instruction, found %.',
  XUTY0010: 'Replacing a non-attribute node: the replacement must not contain attributes.',
  XUTY0011: 'Replacing an attribute: the replacement must consist of attributes only.',
  XUTY0012: 'Target of rename must be a single element, attribute or processing instruction, found %.',
  XUTY0013: 'The source of a copy clause must be a single node, found %.',
  XUTY0022: 'Attributes cannot be inserted into a document node.',
  XPTY0004: 'New name must be a QName, string or untypedAtomic value, found %.',
  XUDY0009: 'Target of replace has no parent: %.',
  XUDY0014: 'The modify clause may only change copied nodes: %.',
  XUDY0015: 'Node is renamed more than once: %.',
  XUDY0016: 'Node is replaced more than once: %.',
  XUDY0017: 'Value of node is replaced more than once: %.',
  XUDY0021: 'The update would produce an invalid node: %.',
  XUDY0023: 'Namespace conflict: prefix % is bound to %, not %.',
  XUDY0024: 'Conflicting namespace bindings for prefix % on %.',
  XUDY0025: 'A processing instruction cannot be renamed to a name with a namespace: %.',
  XUDY0027: 'Target of % is empty.',
  XUDY0029: 'Target of insert before/after has no parent: %.',
  XUDY0030: 'Attributes cannot be inserted before or after a child of a document node.',
  XUDY0031: 'Resource % is written more than once.',
  XUDY0037: 'The modify clause must not store documents (fn:put).',
  XQDY0026: 'Processing instruction content must not contain "?>".',
  XQDY0041: 'Invalid processing instruction name: %.',
  XQDY0072: 'Comment must not contain "--" or end with "-".',
  XQDY0074: 'Invalid name: %.',
  FOUP0001: 'Input must be a document or element node, a string or a binary value, found %.',
  FOUP0002: "URI '%' does not name a resource of a database the query can write.",
  /** db:conflict: two updates of one resource or database in one query (BaseX). */
  'db:conflict': 'Multiple updates on %.',
  /** db:name: an invalid database name (BaseX). */
  'db:name': 'Invalid database name: %.',
  'db:path': 'Invalid path: %.',
  'db:open': "Database '%' was not found.",
  /** Our own: a stored document must stay one well-formed XML document. */
  XMLR0002: 'The updated document %/% cannot be stored: %',
  /** Our own: an updating query ran where only read locks were taken. */
  XMLR0003: 'The query updates databases, but it runs with read locks only.',
  /** Our own: a construct the engine does not implement. */
  XMLR0001: 'Not supported yet: %.',
} as const;

export type UpdateErrorCode = keyof typeof UPDATE_ERRORS;

const DB_NS = MODULE_NAMESPACES.db;

/** The EQName of a code: `Q{err-ns}XUDY0027`, `Q{db-ns}conflict`. */
function eqnameOf(code: UpdateErrorCode): string {
  return code.startsWith('db:') ? `Q{${DB_NS}}${code.slice(3)}` : `Q{${ERR_NS}}${code}`;
}

/** A dynamic (or type) error, raised while the query runs or its updates are applied. */
export function updateError(code: UpdateErrorCode, ...args: unknown[]): Error {
  return xpathError(format(UPDATE_ERRORS[code], args), eqnameOf(code));
}

/** The same error as a QueryError for the main thread (HTTP 500, like every query error). */
export function updateQueryError(code: UpdateErrorCode, ...args: unknown[]): QueryError {
  return new QueryError({ code, message: format(UPDATE_ERRORS[code], args), status: 500, phase: 'evaluate' });
}

/** A static error at `offset` of the XQuery `source`. */
export function staticUpdateError(code: UpdateErrorCode, source: string, offset: number, ...args: unknown[]): LocatedQueryError {
  return new LocatedQueryError({ code, message: format(UPDATE_ERRORS[code], args), status: 500, phase: 'compile' }, lineColumn(source, offset));
}
