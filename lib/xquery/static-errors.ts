/**
 * Static errors of the XQuery translator, as one catalog of the codes of XQuery 3.1 §F, and the
 * error body of spec §12 (`Stopped at LOCATION, L/C:\n[CODE] Message`).
 *
 * Every error the translator finds carries the exact XQuery position (1-based line and column
 * of the offending construct). Errors that saxon-js raises while compiling or running the
 * generated XSLT are mapped back to an XQuery position by the engine (translate/unit.ts keeps
 * the line map) and re-thrown as a `LocatedQueryError` too.
 */
import { format } from '../xmldb-error';
import { QueryError, type QueryErrorData } from './query-error';
import { lineColumn } from './language/syntax/syntax-errors';

/** 1-based position in the XQuery source. */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

/** A query error that knows where in the XQuery source it happened. */
export class LocatedQueryError extends QueryError {
  /** Position in the XQuery source (not in the generated XSLT), when known. */
  readonly position?: SourcePosition;

  /** The query's source as the client named it (a `run` file); absent: `.`, an ad-hoc query. */
  readonly source?: string;

  constructor(data: QueryErrorData, position?: SourcePosition, source?: string) {
    super(data);
    this.name = 'LocatedQueryError';
    this.position = position;
    this.source = source;
  }

  /** The same error, located in the named source. */
  in(source: string): LocatedQueryError {
    return new LocatedQueryError(this.toData(), this.position, source);
  }
}

/**
 * The text body of a query error (spec §12): `Stopped at ., L/C:` then `[CODE] Message`. The
 * location line is informative and left out when the position is unknown.
 */
export function errorBody(error: QueryError): string {
  const located = error instanceof LocatedQueryError ? error : undefined;
  const pos = located?.position;
  // LOCATION: the `run` file, or `.` for a query given with the request (the reference server's
  // static base of such queries)
  const head = pos ? `Stopped at ${located?.source ?? '.'}, ${pos.line}/${pos.column}:\n` : '';
  return `${head}[${error.code}] ${error.message}`;
}

/** Static error templates by code; `%` slots take the arguments in order. */
export const STATIC_ERRORS = {
  XPST0003: 'Syntax error: %.',
  XPST0008: 'Undeclared variable: $%.',
  XPST0017: 'Unknown function: %#%.',
  XPST0051: 'Unknown atomic type: %.',
  XPST0080: 'Invalid cast target type: %.',
  XPST0081: "No namespace declared for prefix '%'.",
  XQST0033: "Namespace prefix '%' is declared twice.",
  XQST0034: 'Duplicate declaration of function %#%.',
  XQST0039: 'Duplicate parameter $% in function declaration.',
  XQST0045: '% % is declared in a reserved namespace.',
  XQST0047: "Module namespace '%' is imported twice.",
  XQST0049: 'Duplicate declaration of variable $%.',
  XQST0054: 'Variable $% depends on itself.',
  XQST0059: "Module '%' could not be found.",
  XQST0060: 'Function % is not declared in a namespace.',
  XQST0070: "The prefix or namespace '%' cannot be declared.",
  XQST0075: 'Validation is not supported.',
  XQST0079: 'An extension expression without a fallback expression is not supported.',
  XQST0088: 'A module import needs a non-empty target namespace.',
  XQST0089: 'Variable $% is bound twice in a function or positional binding.',
  XQST0099: 'The context item is declared more than once.',
  XQST0103: 'Duplicate window variable $%.',
  XQST0134: 'The namespace axis is not supported in XQuery.',
  XQST0106: 'A function is declared %public or %private more than once.',
  XQST0108: 'A main module cannot declare output options.',
  XQST0109: 'Unknown serialization parameter: %.',
  XQST0116: 'A variable is declared %public or %private more than once.',
  XQST0125: 'An inline function cannot be annotated with %.',
  XPDY0002: 'No value assigned to $%.',
  XQDY0054: 'Variable $% depends on itself.',
  /** Our own code: a construct the engine does not translate yet (never silently wrong output). */
  XMLR0001: 'Not supported yet: %.',
} as const;

export type StaticErrorCode = keyof typeof STATIC_ERRORS;

/** A static error at `offset` of `source`, from the catalog. */
export function staticError(code: StaticErrorCode, source: string, offset: number, ...args: unknown[]): LocatedQueryError {
  return new LocatedQueryError(
    { code, message: format(STATIC_ERRORS[code], args), status: 500, phase: 'compile' },
    lineColumn(source, offset),
  );
}

/** Attaches an XQuery position to an error raised elsewhere (saxon-js, the pool). */
export function locate(error: QueryError, position: SourcePosition | undefined): LocatedQueryError {
  if (error instanceof LocatedQueryError && error.position) return error;
  return new LocatedQueryError(error.toData(), position);
}
