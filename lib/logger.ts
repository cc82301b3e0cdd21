/**
 * The logger seam: a pino-compatible object (`info`, `warn`, `error`, `debug`, each called as
 * `(obj, msg)` or `(msg)`), so a host passes its pino (or compatible) logger as it is. Everything
 * the router reports goes through one, never straight to stdout or stderr.
 */

export type LogFunction = {
  (obj: object, msg?: string): void;
  (msg: string): void;
};

export interface Logger {
  info: LogFunction;
  warn: LogFunction;
  error: LogFunction;
  debug: LogFunction;
}

const LEVELS = ['info', 'warn', 'error', 'debug'] as const;

export function isLogger(value: unknown): value is Logger {
  return typeof value === 'object' && value !== null && LEVELS.every((l) => typeof (value as Record<string, unknown>)[l] === 'function');
}

/** The message of a `(obj?, msg)` call: `msg`, else a string first argument, else `obj.msg`. */
function messageOf(first: unknown, msg: unknown): string {
  if (typeof msg === 'string') return msg;
  if (typeof first === 'string') return first;
  const inner = (first as { msg?: unknown } | null)?.msg;
  return typeof inner === 'string' ? inner : '';
}

/** The text of a call: its message, and the stack of an internal error after it. */
function textOf(first: unknown, msg: unknown): string {
  const stack = (first as { stack?: unknown } | null)?.stack;
  return typeof stack === 'string' ? `${messageOf(first, msg)}\n${stack}` : messageOf(first, msg);
}

function quiet(): void {}

/** Default: quiet except warnings and errors, which go to stderr. */
export const defaultLogger: Logger = Object.freeze({
  info: quiet,
  debug: quiet,
  warn: (first: unknown, msg?: unknown) => console.warn(textOf(first, msg)),
  error: (first: unknown, msg?: unknown) => console.error(textOf(first, msg)),
});

/** The deprecated `log` option as a logger: every level but debug, one call per message. */
export function loggerFromLog(log: (message: string) => void): Logger {
  const line = (first: unknown, msg?: unknown) => log(textOf(first, msg));
  return { info: line, warn: line, error: line, debug: quiet };
}
