/**
 * Function names as a query's prolog resolves them (XQuery 3.1 §3.1.5.1, §4.4): a prefix by the
 * predeclared namespaces (with BaseX's `update`) and the prolog's `declare namespace`, an
 * unprefixed name by the default function namespace; which names the prolog declares; and which
 * nodes use a function by name. The static analyses (databases.ts, pure.ts, account-use.ts) read
 * calls through this one resolver.
 */
import { NS } from '../../constants';
import { functionPrefixUri } from '../../module-namespaces';
import { StaticPrefixes } from '../static-prefixes';
import type { EQName, MainModule, Node } from '../syntax';

/** A static use of a function name: a call, an arrow call, or a named reference. */
export interface FunctionUse {
  readonly uri: string;
  readonly local: string;
  /** The prolog declares a function of this name and arity. */
  readonly declared: boolean;
  /** The arguments of a call (an arrow's left operand first); absent for a named reference. */
  readonly args?: readonly Node[];
}

export interface FunctionNames {
  /** The function use `node` is, if it is one (`$x => f(…)` calls f with `$x` first). */
  useOf(node: Node): FunctionUse | undefined;
}

/** By module: the analyses and the translator of one query ask for the same module's names (a parsed module never changes). */
const byModule = new WeakMap<MainModule, FunctionNames>();

export function functionNames(module: MainModule): FunctionNames {
  let names = byModule.get(module);
  if (names === undefined) byModule.set(module, (names = resolver(module)));
  return names;
}

function resolver(module: MainModule): FunctionNames {
  const namespaces = new StaticPrefixes();
  let functionNs: string = NS.fn;
  for (const d of module.prolog.decls) {
    if (d.kind === 'NamespaceDecl') namespaces.set(d.prefix, d.uri);
    else if (d.kind === 'DefaultNamespaceDecl' && d.target === 'function') functionNs = d.uri;
  }
  /** The namespace URI of a function name ('' for an undeclared prefix: no function has it). */
  const uriOf = (name: EQName): string => name.uri ?? (name.prefix ? functionPrefixUri(name.prefix, namespaces.get(name.prefix)) ?? '' : functionNs);
  const declared = new Set<string>();
  for (const d of module.prolog.decls) {
    if (d.kind === 'FunctionDecl') declared.add(`Q{${uriOf(d.name)}}${d.name.local}#${d.params.length}`);
  }
  const use = (name: EQName, arity: number, args?: readonly Node[]): FunctionUse => {
    const uri = uriOf(name);
    return { uri, local: name.local, declared: declared.has(`Q{${uri}}${name.local}#${arity}`), ...(args ? { args } : {}) };
  };
  return {
    useOf: (n) => {
      if (n.kind === 'FunctionCall') return use(n.name, n.args.length, n.args);
      if (n.kind === 'NamedFunctionRef') return use(n.name, n.arity);
      if (n.kind === 'ArrowExpr' && !('kind' in n.function)) return use(n.function, n.args.length + 1, [n.expr, ...n.args]);
      return undefined;
    },
  };
}
