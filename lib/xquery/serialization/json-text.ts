/**
 * A JSON value on its way to text, and the one routine that writes it: the json output method
 * (serialization/json-output.ts), and through it json:serialize, build a {@link Json} tree and
 * write it here.
 *
 * Strings are escaped as Serialization 3.1 §10 asks (`"` `\` and the solidus, `\b \f \n \r \t`,
 * other control characters as `\uXXXX`); BaseX's `escape=no` (json parameter) writes them as
 * they are, and `escape-solidus=no` (Serialization 4.0) leaves `/` alone. With `indent`, members
 * go on lines of their own, two spaces per level, and a key is followed by `": "`.
 */

export type Json =
  | { readonly t: 'object'; readonly members: readonly (readonly [string, Json])[] }
  | { readonly t: 'array'; readonly items: readonly Json[] }
  | { readonly t: 'string'; readonly value: string }
  /** A number, boolean or null, already in its JSON form. */
  | { readonly t: 'literal'; readonly json: string };

export interface JsonTextOptions {
  readonly indent?: boolean;
  /** Escape special characters in strings. Default true. */
  readonly escape?: boolean;
  /** Escape `/` as `\/` (when escaping at all). Default true. */
  readonly escapeSolidus?: boolean;
}

export const jsonString = (value: string): Json => ({ t: 'string', value });
export const jsonLiteral = (json: string): Json => ({ t: 'literal', json });
export const JSON_NULL = jsonLiteral('null');

const ESCAPES: Readonly<Record<string, string>> = { '"': '\\"', '\\': '\\\\', '/': '\\/', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
// eslint-disable-next-line no-control-regex
const SPECIAL = /["\\/\u0000-\u001F\u007F-\u009F]/g;
// eslint-disable-next-line no-control-regex
const SPECIAL_BUT_SOLIDUS = /["\\\u0000-\u001F\u007F-\u009F]/g;

/** A JSON string literal. */
export function quote(s: string, options: JsonTextOptions = {}): string {
  if (options.escape === false) return `"${s}"`;
  const special = options.escapeSolidus === false ? SPECIAL_BUT_SOLIDUS : SPECIAL;
  return `"${s.replace(special, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`)}"`;
}

/** The JSON text of `value`. */
export function writeJson(value: Json, options: JsonTextOptions = {}): string {
  return write(value, options.indent === true ? 0 : -1, options);
}

/** `level` -1: no indentation. */
function write(value: Json, level: number, options: JsonTextOptions): string {
  if (value.t === 'literal') return value.json;
  if (value.t === 'string') return quote(value.value, options);
  const next = level < 0 ? -1 : level + 1;
  const [open, close] = value.t === 'object' ? ['{', '}'] : ['[', ']'];
  const parts = value.t === 'object'
    ? value.members.map(([k, v]) => `${quote(k, options)}:${level >= 0 ? ' ' : ''}${write(v, next, options)}`)
    : value.items.map((v) => write(v, next, options));
  if (parts.length === 0) return open + close;
  if (level < 0) return open + parts.join(',') + close;
  const inner = '\n' + '  '.repeat(level + 1);
  return open + inner + parts.join(',' + inner) + '\n' + '  '.repeat(level) + close;
}
