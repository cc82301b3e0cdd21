/**
 * Function names as a query's prolog resolves them (XQuery 3.1 §3.1.5.1, §4.4): a prefix by the
 * predeclared namespaces (with BaseX's `update`) and the prolog's `declare namespace`, an
 * unprefixed name by the default function namespace; and which names the prolog declares.
 * The static analyses (databases.ts, pure.ts) read calls through one resolver.
 */
import { NS, PREDECLARED } from '../constants';
import type { EQName, MainModule } from '../syntax';

/** BaseX's Update module, bound to `update` in every query. */
export const UPDATE_MODULE_NS = 'http://basex.org/modules/update';

export interface FunctionNames {
  /** The namespace URI of a function name ('' for an undeclared prefix: no function has it). */
  uriOf(name: EQName): string;
  /** The prolog declares a function of this name and arity. */
  declared(name: EQName, arity: number): boolean;
}

export function functionNames(module: MainModule): FunctionNames {
  const namespaces = new Map<string, string>(Object.entries(PREDECLARED));
  namespaces.set('update', UPDATE_MODULE_NS);
  let functionNs: string = NS.fn;
  for (const d of module.prolog.decls) {
    if (d.kind === 'NamespaceDecl') namespaces.set(d.prefix, d.uri);
    else if (d.kind === 'DefaultNamespaceDecl' && d.target === 'function') functionNs = d.uri;
  }
  const uriOf = (name: EQName): string => name.uri ?? (name.prefix ? namespaces.get(name.prefix) ?? '' : functionNs);
  const declared = new Set<string>();
  for (const d of module.prolog.decls) {
    if (d.kind === 'FunctionDecl') declared.add(`Q{${uriOf(d.name)}}${d.name.local}#${d.params.length}`);
  }
  return { uriOf, declared: (name, arity) => declared.has(`Q{${uriOf(name)}}${name.local}#${arity}`) };
}
