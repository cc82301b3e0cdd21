/**
 * Errors and option maps of BaseX's modules. A module function raises its errors in its own
 * namespace (`Q{http://basex.org/modules/json}parse`, written `[json:parse]`; query-error.ts).
 * Options come as a map of strings to values (BaseX "Option maps"): booleans may also be given
 * as the strings `yes`/`no`/`true`/`false`/`on`/`off`; an unknown key or a value that does not
 * fit its option is XPTY0004, with BaseX's messages.
 */
import { xpathError, type XdmMap, type XdmValue } from '../../../saxon';
import { MODULE_NAMESPACES } from '../../module-namespaces';

export type ModulePrefix = keyof typeof MODULE_NAMESPACES;

/** An error of module `prefix` with local name `name` (`moduleError('json', 'parse', …)`). */
export function moduleError(prefix: ModulePrefix, name: string, message: string): Error {
  return xpathError(message, `Q{${MODULE_NAMESPACES[prefix]}}${name}`);
}

/** What an option accepts: a boolean, any string, one character, or one of a list of words. */
export type OptionKind = 'boolean' | 'string' | readonly string[];

export type OptionSpec = Readonly<Record<string, OptionKind>>;

/** Option values read from a map: booleans as booleans, everything else as strings. */
export type OptionValues = Readonly<Record<string, string | boolean | undefined>>;

const TRUE = ['true', 'yes', 'on', '1'];
const FALSE = ['false', 'no', 'off', '0'];

/** Reads the options map `arg` (absent or empty sequence: no options) against `spec`. */
export function readOptions(arg: XdmValue | undefined, spec: OptionSpec): OptionValues {
  const out: Record<string, string | boolean> = {};
  const map = arg?.[0] as XdmMap | undefined;
  if (!map) return out;
  for (const key of map.keys()) {
    const name = key.toString();
    const kind = spec[name];
    if (kind === undefined) throw xpathError(`Unknown option '${name}'.`, 'XPTY0004');
    const value = map.get(key);
    const text = value.length === 1 ? String(value[0]) : value.map(String).join(' ');
    if (kind === 'boolean') {
      const lower = text.toLowerCase();
      if (!TRUE.includes(lower) && !FALSE.includes(lower)) throw invalidValue(name, text, 'boolean');
      out[name] = TRUE.includes(lower);
    } else if (kind === 'string') {
      out[name] = text;
    } else {
      if (!kind.includes(text)) throw xpathError(`Invalid '${name}' value '${text}'; must be one of: ${kind.join(',')}.`, 'XPTY0004');
      out[name] = text;
    }
  }
  return out;
}

function invalidValue(name: string, text: string, expected: string): Error {
  return xpathError(`Option '${name}' must be a ${expected}: '${text}'.`, 'XPTY0004');
}
