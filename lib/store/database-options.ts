/**
 * Database option names (spec §2.4), case-insensitive, with the kind of value each takes. All of
 * them are accepted; the ones with an observable effect are applied where they matter (parsing,
 * storing, querying).
 */

export type OptionKind = 'boolean' | 'number' | 'string';

const BOOLEAN = [
  'STRIPWS', 'STRIPNS', 'INTPARSE', 'DTD', 'DTDVALIDATION', 'XSILOCATION', 'XINCLUDE', 'RETAINLOCATION',
  'FNXMLTRUSTED', 'ADDARCHIVES', 'ARCHIVENAME', 'SKIPCORRUPT', 'ADDRAW', 'ADDCACHE', 'REPLACE', 'MAINMEM',
  'CREATEONLY', 'TEXTINDEX', 'ATTRINDEX', 'TOKENINDEX', 'FTINDEX', 'UPDINDEX', 'AUTOOPTIMIZE', 'STEMMING',
  'CASESENS', 'DIACRITICS', 'QUERYINFO', 'MIXUPDATES', 'WITHDB', 'DEFAULTDB', 'FORCECREATE', 'CHECKSTRINGS', 'RUNQUERY',
  'ENFORCEINDEX', 'COPYNODE', 'SERIALIZE', 'XMLPLAN', 'FULLPLAN', 'OPTPLAN', 'AUTOFLUSH', 'WRITEBACK',
  // Legacy alias of STRIPWS (removed from the reference server in version 13; kept here, spec §2.4).
  'CHOP',
] as const;

const NUMBER = ['MAXLEN', 'MAXCATS', 'SPLITSIZE', 'INLINELIMIT', 'UNROLLLIMIT', 'TAILCALLS', 'RUNS', 'MAXSTAT', 'LSERROR'] as const;

const STRING = [
  'XSDVALIDATION', 'CATALOG', 'CREATEFILTER', 'PARSER', 'CSVPARSER', 'JSONPARSER', 'HTMLPARSER', 'TEXTINCLUDE',
  'ATTRINCLUDE', 'TOKENINCLUDE', 'FTINCLUDE', 'LANGUAGE', 'STOPWORDS', 'BINDINGS', 'SERIALIZER', 'EXPORTER',
  'WRAPJAVA',
] as const;

const KINDS = new Map<string, OptionKind>([
  ...BOOLEAN.map((n) => [n, 'boolean'] as const),
  ...NUMBER.map((n) => [n, 'number'] as const),
  ...STRING.map((n) => [n, 'string'] as const),
]);

/** The canonical (upper-case) name of a database option, or undefined if `name` is none. */
export function databaseOptionName(name: string): string | undefined {
  const upper = name.toUpperCase();
  return KINDS.has(upper) ? upper : undefined;
}

export function optionKind(canonicalName: string): OptionKind | undefined {
  return KINDS.get(canonicalName);
}

/** `yes/true/on/1` and `no/false/off/0` (case-insensitive); undefined for anything else. */
export function parseBoolean(value: string): boolean | undefined {
  const v = value.toLowerCase();
  if (['yes', 'true', 'on', '1'].includes(v)) return true;
  if (['no', 'false', 'off', '0'].includes(v)) return false;
  return undefined;
}

export type OptionValue = boolean | number | string;

/** Parses the value of an option; undefined if it is invalid for the option's kind. */
export function parseOptionValue(canonicalName: string, value: string): OptionValue | undefined {
  switch (optionKind(canonicalName)) {
    case 'boolean':
      return parseBoolean(value);
    case 'number':
      return /^-?\d+$/.test(value.trim()) ? Number(value) : undefined;
    case 'string':
      return value;
    default:
      return undefined;
  }
}

/** Options of one request, by canonical name; `CHOP` folded into `STRIPWS`. */
export type RequestOptions = ReadonlyMap<string, OptionValue>;

export function normaliseOptions(options: Map<string, OptionValue>): Map<string, OptionValue> {
  const chop = options.get('CHOP');
  if (chop !== undefined && !options.has('STRIPWS')) options.set('STRIPWS', chop);
  options.delete('CHOP');
  return options;
}
