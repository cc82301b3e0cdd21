/**
 * The function modules this server implements, by predeclared prefix and namespace URI. A query
 * may call their functions (the translator's allow-list, translate/callable.ts) and uses their
 * prefixes without declaring them. A new module adds its one line here.
 */
export const MODULE_NAMESPACES = {
  db: 'http://basex.org/modules/db',
  prof: 'http://basex.org/modules/prof',
  xquery: 'http://basex.org/modules/xquery',
  xslt: 'http://basex.org/modules/xslt',
  json: 'http://basex.org/modules/json',
  csv: 'http://basex.org/modules/csv',
  convert: 'http://basex.org/modules/convert',
  random: 'http://basex.org/modules/random',
  hash: 'http://basex.org/modules/hash',
  util: 'http://basex.org/modules/util',
  string: 'http://basex.org/modules/string',
  /** BaseX 9's Output Module, removed in BaseX 10 (functions/out.ts). */
  out: 'http://basex.org/modules/out',
  /** The EXPath Binary Module 1.0 (expath.org/spec/binary), as BaseX ships it. */
  bin: 'http://expath.org/ns/binary',
  archive: 'http://basex.org/modules/archive',
  inspect: 'http://basex.org/modules/inspect',
  user: 'http://basex.org/modules/user',
  index: 'http://basex.org/modules/index',
  ft: 'http://basex.org/modules/ft',
} as const satisfies Readonly<Record<string, string>>;

/**
 * BaseX's Update module (`update:output`). Its prefix `update` is not predeclared: a query's own
 * binding of `update` wins, and the analysis and the translation fall back to this URI only for a
 * prefix the query leaves unbound.
 */
export const UPDATE_MODULE_NS = 'http://basex.org/modules/update';

/** The URI a function name's `prefix` stands for: the query's binding (`bound`), else UPDATE_MODULE_NS for `update`. */
export function functionPrefixUri(prefix: string, bound: string | undefined): string | undefined {
  return bound ?? (prefix === 'update' ? UPDATE_MODULE_NS : undefined);
}
