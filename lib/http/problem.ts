/**
 * Problem details (RFC 9457) for clients that prefer them: a request whose `Accept` ranks
 * `application/problem+json` above `text/plain` gets its error as JSON; every other request keeps
 * BaseX's text body (spec §12).
 */
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import accepts from 'accepts';
import { LocatedQueryError } from '../xquery/static-errors';
import { QueryError } from '../xquery/query-error';

export const PROBLEM_JSON = 'application/problem+json';

export interface Problem {
  /**
   * `about:blank`: the status says what kind of problem it is (RFC 9457 §4.2.1); query errors,
   * whose status (500, BaseX's) says little, name XQuery's kinds of errors instead.
   */
  readonly type: string;
  readonly title: string;
  readonly status: number;
  /** The message of the text body. */
  readonly detail: string;
  /** Query errors: the error code (`XPST0003`) and the position in the query, when known. */
  readonly code?: string;
  readonly line?: number;
  readonly column?: number;
}

/** Whether the client ranks problem details first (text/plain wins ties and `*\/*`). */
export function prefersProblem(req: IncomingMessage): boolean {
  if (req.headers.accept === undefined) return false;
  return accepts(req).type(['text/plain', PROBLEM_JSON]) === PROBLEM_JSON;
}

/** Where XQuery 3.1 defines its kinds of errors (static, type, dynamic; §2.3.1). */
const QUERY_ERROR_TYPE = 'https://www.w3.org/TR/xquery-31/#id-kinds-of-errors';

/** The kind of a query error, by the class letters of its code (XQuery 3.1 §2.3.2, error codes `XPST`, `XQTY`, ...). */
function queryErrorTitle(code: string): string {
  if (code === 'XPST0003') return 'XQuery syntax error';
  if (/^X[PQ]ST/.test(code)) return 'XQuery static error';
  if (/^X[PQ]TY/.test(code)) return 'XQuery type error';
  return 'XQuery dynamic error';
}

export function problemOf(status: number, detail: string, error?: unknown): Problem {
  const problem = { type: 'about:blank', title: STATUS_CODES[status] ?? 'Error', status, detail };
  if (!(error instanceof QueryError)) return problem;
  // Only a located error's position is in the query: a bare one's line is in the generated XSLT.
  const position = error instanceof LocatedQueryError ? error.position : undefined;
  const kind = { type: QUERY_ERROR_TYPE, title: queryErrorTitle(error.code) };
  return { ...problem, ...kind, detail: `[${error.code}] ${error.message}`, code: error.code, ...(position ?? {}) };
}
