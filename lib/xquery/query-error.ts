/**
 * Errors of the engine's runtime half (compiling XSLT, running it, serializing the result), as
 * one structured class. saxon-js errors are normalised here: the code loses the standard error
 * namespace (`Q{http://www.w3.org/2005/xqt-errors}XPST0003` → `XPST0003`), the message loses
 * saxon's "Static error in XPath on line N in URI {expr}:" preamble, and the line (and, when
 * saxon knows it, the column) refers to the generated XSLT, so the translator can map it back
 * to the XQuery source.
 *
 * Codes of our own (not W3C ones):
 * - `BASX0003` Timeout exceeded: the query ran longer than its time limit and its worker was
 *   stopped. BaseX's own code for a stopped query; HTTP 500 like every query error.
 * - `SXJS0004` an internal failure inside saxon-js (a JavaScript exception, not an XPath error).
 * - `XPDY0130` (W3C: an implementation limit was exceeded) for JavaScript stack exhaustion,
 *   typically runaway recursion, for a query that exhausted its worker's heap, and for a result
 *   larger than `maxResultBytes`.
 *
 * Internal errors (SXJS*, JavaScript exceptions) lose what their messages say about the host
 * (`hostFreeMessage`): JavaScript source, stack frames, script paths.
 *
 * Refusals that are not the query's fault (a full queue, a client that went away) are plain
 * `XmldbError`s: they carry no query position.
 */
import { XmldbError } from '../xmldb-error';
import { MODULE_NAMESPACES } from './module-namespaces';
import type { SaxonError } from '../saxon';

const ERR_NS = 'Q{http://www.w3.org/2005/xqt-errors}';

/** `bind`: the request's values cast to the types of the external variables (worker/external-variables.ts), before the query runs. */
export type QueryPhase = 'compile' | 'bind' | 'evaluate' | 'serialize';

/** The plain-data form of a query error: crosses worker boundaries (structured clone). */
export interface QueryErrorData {
  readonly code: string;
  readonly message: string;
  readonly status: number;
  readonly phase: QueryPhase;
  /** 1-based line in the generated XSLT, when known. */
  readonly line?: number;
  /** 1-based column in the generated XSLT, when known (saxon-js rarely reports one). */
  readonly column?: number;
  /** The XPath expression saxon was compiling, for static errors inside an expression. */
  readonly expression?: string;
}

export class QueryError extends XmldbError {
  override readonly code: string;
  readonly phase: QueryPhase;
  readonly line?: number;
  readonly column?: number;
  readonly expression?: string;

  constructor(data: QueryErrorData) {
    super(data.status, data.message, data.code);
    this.name = 'QueryError';
    this.code = data.code;
    this.phase = data.phase;
    this.line = data.line;
    this.column = data.column;
    this.expression = data.expression;
  }

  /** `[CODE] Message`, the contractual part of a query error body (spec §12). */
  override toString(): string {
    return `[${this.code}] ${this.message}`;
  }

  toData(): QueryErrorData {
    const { code, message, status, phase, line, column, expression } = this;
    return { code, message, status, phase, line, column, expression };
  }
}

export const TIMEOUT_CODE = 'BASX0003';

export function timeoutError(ms: number): QueryError {
  return new QueryError({ code: TIMEOUT_CODE, message: `Timeout exceeded (${ms} ms).`, status: 500, phase: 'evaluate' });
}

/** A part of a query that ran past the lower limit it asked for (xquery:eval's `timeout`; BaseX's code). */
export function evalTimeoutError(): QueryError {
  return new QueryError({ code: 'xquery:timeout', message: 'The timeout was exceeded.', status: 500, phase: 'evaluate' });
}

/** A query that ran its worker out of heap (the worker is replaced). */
export function outOfMemoryError(heapMb: number | undefined): QueryError {
  const limit = heapMb !== undefined ? ` (${heapMb} MiB)` : '';
  return new QueryError({ code: 'XPDY0130', message: `Out of main memory: the query needed more than its worker's heap${limit}.`, status: 500, phase: 'evaluate' });
}

/** A serialized result over `maxResultBytes` (checked in the worker, before it is copied out). */
export function resultTooLargeError(limit: number): QueryError {
  return new QueryError({ code: 'XPDY0130', message: `Result too large: at most ${limit} bytes may be returned (maxResultBytes).`, status: 500, phase: 'serialize' });
}

/** Every worker busy and the queue full: 503, and when to try again. */
export function busyError(retryAfterSeconds: number): XmldbError {
  return new XmldbError(503, 'Server busy: too many queries are waiting. Try again later.', 'BUSY', { 'Retry-After': String(retryAfterSeconds) });
}

/** The client went away before its query finished; the query was stopped. Nobody reads this. */
export function cancelledError(): XmldbError {
  return new XmldbError(499, 'Query cancelled: the client closed the connection.', 'CANCELLED');
}

/** A client-side error about serialization parameters (HTTP 400). */
export function serializationParamError(code: string, message: string): QueryError {
  return new QueryError({ code, message, status: 400, phase: 'serialize' });
}

/** A serialization error raised while writing a result (HTTP 500, like any query error). */
export function serializationError(code: string, message: string): QueryError {
  return new QueryError({ code, message, status: 500, phase: 'serialize' });
}

/** `Q{http://www.w3.org/2005/xqt-errors}XPST0003` → `XPST0003`; other EQNames stay as they are. */
/** Namespaces whose error codes are written with a prefix, as the reference server does: the modules'. */
const PREFIXED_NS: ReadonlyArray<readonly [string, string]> = Object.entries(MODULE_NAMESPACES).map(([prefix, uri]) => [`Q{${uri}}`, `${prefix}:`]);

export function normaliseCode(code: string | undefined): string {
  if (!code) return 'FOER0000';
  if (code.startsWith(ERR_NS)) return code.slice(ERR_NS.length);
  const prefixed = PREFIXED_NS.find(([ns]) => code.startsWith(ns));
  return prefixed ? prefixed[1] + code.slice(prefixed[0].length) : code;
}

const STATIC_PREAMBLE = /^Static error in XPath on line (\d+) in [^{]*\{([\s\S]*?)\}: /;
const LINE_IN_MESSAGE = /\bon line (\d+)\b/;
const LINE_COLUMN_IN_MESSAGE = /\bat line (\d+) column (\d+)\b/;

/**
 * saxon-js's XML parser counts lines from 0 (`… at line 0 column 7` for the first line); clients
 * count from 1, as every other position in our messages does.
 */
export function xmlParserMessage(message: string): string {
  return message.replace(LINE_COLUMN_IN_MESSAGE, (_all, line: string, column: string) => `at line ${Number(line) + 1} column ${column}`);
}

/**
 * JavaScript source in a message of saxon-js's own (SXJS*) or of a JavaScript exception: saxon-js
 * prints the function it failed to call (SXJS0007 `Failed to call method function …{…}`), its
 * own minified code or a host function's. Such messages quote no XPath, so a `function` keyword
 * with parameters, `=>`, a `class` or a brace after parameters starts source, to the end.
 */
const JS_SOURCE = /(?:\b(?:async\s+)?function\b\s*\*?\s*[\w$]*\s*\(|=>|\bclass\s+[\w$]*\s*(?:extends\b[^{]*)?\{|\)\s*\{)[\s\S]*/;
/** A stack frame line (`    at fn (/host/file.js:1:2)`) and all after it. */
const STACK_FRAME = /\n\s*at [\s\S]*/;
/** A script file of the host: an absolute path or file: URL to .js/.mjs/.cjs/.ts, with line and column. */
const SCRIPT_PATH = /(?:file:\/\/)?(?:\/|[A-Za-z]:[\\/])[^\s'"()]*?\.(?:[cm]?js|ts)\b(?::\d+){0,2}/g;

/**
 * An internal error's message (saxon-js's SXJS* codes, JavaScript exceptions) without what it
 * may say about the host: JavaScript source, stack frames, paths of script files (saxon-js's
 * install folder, ours). The rest stays: it names what failed. Other codes are left alone: their
 * messages are saxon's XPath texts or the query's own (`fn:error`).
 */
export function hostFreeMessage(message: string): string {
  return message.replace(STACK_FRAME, '').replace(JS_SOURCE, withheldSource).replace(SCRIPT_PATH, '[script]');
}

/** What stands for withheld source: a named function keeps its name, which tells which call failed. */
function withheldSource(source: string): string {
  const name = FUNCTION_NAME.exec(source)?.[1];
  return name === undefined ? '[JavaScript code]' : `function ${name}() [JavaScript code]`;
}

const FUNCTION_NAME = /^(?:async\s+)?function\b\s*\*?\s*([\w$]+)/;

/** Turns whatever saxon-js (or JavaScript) threw into a QueryError. */
export function toQueryError(e: unknown, phase: QueryPhase, stylesheetUri?: string): QueryError {
  if (e instanceof QueryError) return e;
  if (e instanceof RangeError && /call stack/i.test(e.message)) {
    return new QueryError({ code: 'XPDY0130', message: 'Stack overflow: the query recursed too deeply.', status: 500, phase });
  }
  const err = e as SaxonError;
  if (!(e instanceof Error) || typeof err.code !== 'string') {
    const message = hostFreeMessage(e instanceof Error ? e.message : String(e));
    return new QueryError({ code: 'SXJS0004', message: `Internal error in saxon-js: ${message}`, status: 500, phase });
  }
  let code = normaliseCode(err.code);
  let message = code.startsWith('SXJS') ? hostFreeMessage(err.message) : err.message;
  let line: number | undefined;
  let column: number | undefined;
  let expression: string | undefined;

  const pre = STATIC_PREAMBLE.exec(message);
  if (pre) {
    line = Number(pre[1]);
    expression = pre[2];
    message = message.slice(pre[0].length);
  } else if (phase === 'compile') {
    // XSLT-level static errors carry " on line N in URI" in their error object or message;
    // a malformed stylesheet reports "at line L column C" (L from 0).
    const lc = LINE_COLUMN_IN_MESSAGE.exec(message);
    const extra = typeof err.errorObject === 'object' && err.errorObject !== null ? String(err.errorObject) : '';
    const l = LINE_IN_MESSAGE.exec(extra) ?? LINE_IN_MESSAGE.exec(message);
    if (lc) {
      line = Number(lc[1]) + 1; // saxon's XML parser counts lines from 0
      column = Number(lc[2]);
    } else if (l) line = Number(l[1]);
  } else {
    message = xmlParserMessage(message); // parse-xml(), doc(): the parser's position in the input
    if (err.xsltLineNr != null && (!stylesheetUri || !err.xsltModule || stylesheetUri.endsWith(err.xsltModule))) {
      // saxon names the module by the last segment of its base URI
      line = Number(err.xsltLineNr);
    }
  }

  if (code === 'XTDE0050') {
    // a required stylesheet parameter (an external variable without default) got no value
    const m = /parameter '?(?:Q\{[^}]*\})?([^'\s]+)'?/i.exec(message);
    code = 'XPDY0002';
    message = m ? `No value assigned to $${m[1]}.` : message;
  }
  return new QueryError({ code, message, status: 500, phase, line: Number.isFinite(line) ? line : undefined, column, expression });
}
