/**
 * Whether a query may call a user: function (functions/user.ts), and so needs its account (the
 * users it may see, operations/query-users.ts): by name, through an arrow or a named reference,
 * or through code chosen at run time (xquery:eval and friends, xslt:, fn:function-lookup,
 * fn:transform, fn:load-xquery-module) or in an imported module. Other queries are sent without
 * it: an admin's account lists every user, which a plain query would carry for nothing.
 */
import { NS } from '../../constants';
import { MODULE_NAMESPACES } from '../../module-namespaces';
import { eachChild, type MainModule, type Node } from '../syntax';
import { OPEN_ENDED_FUNCTIONS } from './databases';
import { functionNames, type FunctionUse } from './function-names';

/** Namespaces whose functions run code the text does not show. */
const DYNAMIC_NAMESPACES = new Set<string>([MODULE_NAMESPACES.xquery, MODULE_NAMESPACES.xslt]);

class Found extends Error {}

export function usesAccount(module: MainModule): boolean {
  const { useOf } = functionNames(module);
  const check = ({ uri, local }: FunctionUse): void => {
    if (uri === MODULE_NAMESPACES.user || DYNAMIC_NAMESPACES.has(uri) || (uri === NS.fn && OPEN_ENDED_FUNCTIONS.has(local))) throw new Found();
  };
  const visit = (n: Node): void => {
    if (n.kind === 'ModuleImport') throw new Found();
    const use = useOf(n);
    if (use) check(use);
    eachChild(n, visit);
  };
  try {
    visit(module);
    return false;
  } catch (e) {
    if (e instanceof Found) return true;
    throw e;
  }
}
