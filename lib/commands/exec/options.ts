/**
 * SET and SHOW OPTIONS: the options of a session (spec §2.4 names), kept in `state.options` by
 * canonical upper-case name. Values not set show their default (the reference server's).
 */
import {
  databaseOptionName,
  optionKind,
  parseOptionValue,
  type OptionValue,
} from '../../store/database-options';
import type { CommandOf } from '../types';
import type { CommandState } from './context';
import { execError } from './errors';

/** All option names, in the order SHOW OPTIONS lists them (spec §2.4). */
export const OPTION_NAMES: readonly string[] = [
  'STRIPWS', 'STRIPNS', 'INTPARSE', 'DTD', 'DTDVALIDATION', 'XSDVALIDATION', 'XSILOCATION', 'XINCLUDE',
  'CATALOG', 'RETAINLOCATION', 'FNXMLTRUSTED', 'CREATEFILTER', 'ADDARCHIVES', 'ARCHIVENAME', 'SKIPCORRUPT',
  'ADDRAW', 'ADDCACHE', 'PARSER', 'CSVPARSER', 'JSONPARSER', 'HTMLPARSER',
  'REPLACE', 'MAINMEM', 'CREATEONLY',
  'TEXTINDEX', 'ATTRINDEX', 'TOKENINDEX', 'FTINDEX', 'TEXTINCLUDE', 'ATTRINCLUDE', 'TOKENINCLUDE', 'FTINCLUDE',
  'MAXLEN', 'MAXCATS', 'UPDINDEX', 'AUTOOPTIMIZE', 'SPLITSIZE', 'STEMMING', 'CASESENS', 'DIACRITICS',
  'LANGUAGE', 'STOPWORDS',
  'QUERYINFO', 'BINDINGS', 'INLINELIMIT', 'UNROLLLIMIT', 'TAILCALLS', 'WITHDB', 'DEFAULTDB', 'FORCECREATE',
  'CHECKSTRINGS', 'LSERROR', 'RUNQUERY', 'RUNS', 'ENFORCEINDEX', 'COPYNODE', 'WRAPJAVA',
  'SERIALIZE', 'SERIALIZER', 'EXPORTER', 'XMLPLAN', 'FULLPLAN', 'OPTPLAN', 'AUTOFLUSH', 'WRITEBACK', 'MAXSTAT',
].filter((n) => databaseOptionName(n) === n);

/** Defaults that differ from the kind's (false, 0, ''). */
const DEFAULTS: ReadonlyMap<string, OptionValue> = new Map<string, OptionValue>([
  ['XSDVALIDATION', 'skip'], ['XINCLUDE', true], ['CREATEFILTER', '*.xml'], ['ADDARCHIVES', true],
  ['PARSER', 'xml'], ['REPLACE', true], ['TEXTINDEX', true], ['ATTRINDEX', true], ['TOKENINDEX', true],
  ['MAXLEN', 96], ['MAXCATS', 100], ['LANGUAGE', 'en'], ['INLINELIMIT', 50], ['UNROLLLIMIT', 5],
  ['TAILCALLS', 256], ['WITHDB', true], ['CHECKSTRINGS', true], ['RUNQUERY', true], ['RUNS', 1],
  ['COPYNODE', true], ['WRAPJAVA', 'some'], ['SERIALIZE', true], ['OPTPLAN', true], ['AUTOFLUSH', true],
  ['MAXSTAT', 30],
]);

/** The default value of a canonical option name. */
export function defaultOption(name: string): OptionValue {
  const d = DEFAULTS.get(name);
  if (d !== undefined) return d;
  const kind = optionKind(name);
  return kind === 'boolean' ? false : kind === 'number' ? 0 : '';
}

/** The value in effect: set in the state, else the default. */
export function optionValue(state: CommandState, name: string): OptionValue {
  return state.options.get(name) ?? defaultOption(name);
}

/** Canonical name; `CHOP` is the legacy alias of `STRIPWS` (spec §2.4). Unknown: UNKNOWN_OPTION_X. */
function canonical(name: string): string {
  const c = databaseOptionName(name);
  if (c === undefined) throw execError('UNKNOWN_OPTION_X', name.toUpperCase());
  return c === 'CHOP' ? 'STRIPWS' : c;
}

/**
 * SET option (value): stores the parsed value. Without a value a boolean option is toggled and any
 * other option is reset to its default.
 */
export function setOption(cmd: CommandOf<'set'>, state: CommandState): void {
  const name = canonical(cmd.option);
  if (cmd.value === undefined) {
    if (optionKind(name) === 'boolean') state.options.set(name, optionValue(state, name) !== true);
    else state.options.delete(name);
    return;
  }
  const value = parseOptionValue(name, cmd.value);
  if (value === undefined) throw execError('INVALID_OPTION_VALUE_XX', name, cmd.value);
  state.options.set(name, value);
}

/** SHOW OPTIONS (name): `NAME: value` lines, all of them under `Local Options:`. */
export function showOptions(cmd: CommandOf<'showOptions'>, state: CommandState): string {
  if (cmd.name !== undefined) {
    const name = canonical(cmd.name);
    return `${name}: ${String(optionValue(state, name))}\n`;
  }
  return `Local Options:\n${OPTION_NAMES.map((n) => `${n}: ${String(optionValue(state, n))}\n`).join('')}`;
}
