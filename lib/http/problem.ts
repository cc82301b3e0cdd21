/**
 * Problem details (RFC 9457) for clients that prefer them: a request whose `Accept` ranks
 * `application/problem+json` above `text/plain` gets its error as JSON; every other request keeps
 * BaseX's text body (spec §12).
 */
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import accepts from 'accepts';
import { LocatedQueryError } from '../xquery/errors';
import { QueryError } from '../xquery/query-error';

export const PROBLEM_JSON = 'application/problem+json';

export interface Problem {
  /** `about:blank`: the status says what kind of problem it is (RFC 9457 §4.2.1). */
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

export function problemOf(status: number, detail: string, error?: unknown): Problem {
  const problem = { type: 'about:blank', title: STATUS_CODES[status] ?? 'Error', status, detail };
  if (!(error instanceof QueryError)) return problem;
  // Only a located error's position is in the query: a bare one's line is in the generated XSLT.
  const position = error instanceof LocatedQueryError ? error.position : undefined;
  return { ...problem, detail: `[${error.code}] ${error.message}`, code: error.code, ...(position ?? {}) };
}
