/**
 * inspect:functions() and inspect:context() (docs.basex.org, Inspection Functions), which answer
 * from the query itself (functions/inspect.ts describes them):
 *
 * - inspect:functions(): the items of the functions the query declares, private ones too, in the
 *   order of their declarations: named function references, so each is the declared function.
 * - inspect:context(): `engine:inspect-context($query)`, with the query's text as a string
 *   literal (data, never code), which the engine parses and describes.
 *
 * A reference (`inspect:functions#0`) is an inline function calling it (functions.ts
 * `moduleFunctionItem`), which gives the same.
 */
import type { FunctionCall, NamedFunctionRef } from '../syntax';
import { MODULE_NAMESPACES } from '../../module-namespaces';
import { braced } from './emit';
import { translateNamedFunctionRef } from './functions';
import { NS, xpathString, type QName } from './names';
import type { Scope } from './scope';
import type { TranslationUnit } from './unit';

/** The translation of `inspect:functions()` or `inspect:context()`, or undefined for any other call. */
export function translateInspectCall(name: QName, call: FunctionCall, scope: Scope, unit: TranslationUnit): string | undefined {
  return call.args.length === 0 ? answer(name, call, scope, unit) : undefined;
}

function answer(name: QName, at: { start: number; end: number }, scope: Scope, unit: TranslationUnit): string | undefined {
  if (name.uri !== MODULE_NAMESPACES.inspect) return undefined;
  if (name.local === 'context') return `${braced(NS.engine)}inspect-context(${xpathString(unit.source)})`;
  if (name.local !== 'functions') return undefined;
  const refs = [...scope.ctx.functions.values()].map((f) => {
    const ref: NamedFunctionRef = { kind: 'NamedFunctionRef', name: { uri: f.name.uri, local: f.name.local }, arity: f.arity, start: at.start, end: at.end };
    return translateNamedFunctionRef(ref, scope, unit);
  });
  return `(${refs.join(', ')})`;
}
