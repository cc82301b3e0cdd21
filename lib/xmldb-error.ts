/**
 * The base of every error a client can cause. Each layer keeps its own catalog of entries
 * (store/store-errors.ts, http/status.ts, xquery/static-errors.ts, commands/messages.ts); code throws an
 * entry by name, and the HTTP layer writes `status` and `message` as a text body.
 */
export class XmldbError extends Error {
  constructor(
    /** HTTP status the error answers with. */
    readonly status: number,
    message: string,
    /** Error code such as `XPST0003` (queries) or a catalog name. */
    readonly code?: string,
    /** Response headers the error answers with (e.g. `Content-Range` of a 416, `Retry-After` of a 503). */
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
    this.name = 'XmldbError';
  }
}

/** One catalog entry: a status and a message template whose `%` slots take the arguments in order. */
export interface ErrorEntry {
  readonly status: number;
  readonly template: string;
}

export function entry(status: number, template: string): ErrorEntry {
  return { status, template };
}

/** Fills the `%` slots of a template with the arguments, in order. */
export function format(template: string, args: readonly unknown[]): string {
  let i = 0;
  return template.replace(/%/g, () => (i < args.length ? String(args[i++]) : '%'));
}

/** Builds a throwable error from a catalog: `raise(STORE_ERRORS, 'DB_NOT_FOUND_X', name)`. */
export function raise<K extends string>(
  catalog: Readonly<Record<K, ErrorEntry>>,
  key: K,
  ...args: unknown[]
): XmldbError {
  const e = catalog[key];
  return new XmldbError(e.status, format(e.template, args), key);
}

/** The same error, answering with these response headers too (e.g. a 416's `Content-Range`). */
export function withHeaders(error: XmldbError, headers: Readonly<Record<string, string>>): XmldbError {
  return new XmldbError(error.status, error.message, error.code, headers);
}
