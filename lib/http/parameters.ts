/**
 * Classification of query parameters (spec §2.1, §2.2): operation, context, serialization
 * parameter, database option or external variable, in one pass over the query string.
 */
import { checkXmlLimits } from '../convert';
import { raise } from '../xmldb-error';
import { optionSetting } from '../commands/exec/session-options';
import { databaseOptionName, normaliseOptions, type OptionValue } from '../store/database-options';
import { isSerializationParam, requireValidSerializationParam } from '../xquery/serialization/params';
import type { QueryPairs } from './query-string';
import { groupPairs } from './query-string';
import type { Variable } from '../operations/types';
import { HTTP_ERRORS } from './status';

export type { Variable } from '../operations/types';

export type OperationName = 'query' | 'command' | 'run';
const OPERATIONS: readonly string[] = ['query', 'command', 'run'];

export interface RequestParameters {
  readonly operation?: { readonly name: OperationName; readonly value: string };
  /** XML texts given as context documents. */
  readonly context: readonly string[];
  readonly serialization: Readonly<Record<string, string>>;
  readonly options: ReadonlyMap<string, OptionValue>;
  /** External variables by name (leading `$` removed). */
  readonly variables: ReadonlyMap<string, Variable>;
}

export const NO_PARAMETERS: RequestParameters = {
  context: [],
  serialization: {},
  options: new Map(),
  variables: new Map(),
};

/** A request's options start from the defaults: each is recorded as SET records it in a new session. */
const NEW_SESSION = { options: new Map<string, OptionValue>() };

/**
 * Parses and checks one database option by SET's rule (commands/exec/session-options.ts);
 * undefined if `name` is no option. A value the option cannot take is 400.
 */
export function optionEntry(name: string, value: string): [string, OptionValue] | undefined {
  const canonical = databaseOptionName(name);
  if (canonical === undefined) return undefined;
  const parsed = optionSetting(NEW_SESSION, canonical, value, () => raise(HTTP_ERRORS, 'INVALID_PARAM_VALUE_XX', name, value));
  // a value is given, so there is a setting (SET resets only without one)
  return [canonical, parsed as OptionValue];
}

/** GET and QUERY: rule 1 (operations) applies to GET only. */
export function classifyReadParameters(pairs: QueryPairs, method: 'GET' | 'QUERY'): RequestParameters {
  const grouped = groupPairs(pairs);
  const ops: string[] = [];
  if (method === 'GET') for (const name of grouped.keys()) if (OPERATIONS.includes(name)) ops.push(name);
  if (ops.length > 1 || (ops.length === 1 && grouped.get(ops[0])!.length > 1)) {
    throw raise(HTTP_ERRORS, 'MULTIPLE_OPS_X', ops.join(', '));
  }
  let operation: RequestParameters['operation'];
  const context: string[] = [];
  const serialization: Record<string, string> = {};
  const options = new Map<string, OptionValue>();
  const variables = new Map<string, Variable>();
  for (const [name, values] of grouped) {
    if (ops.includes(name)) {
      operation = { name: name as OperationName, value: values[0] };
    } else if (name.toLowerCase() === 'context') {
      values.forEach(checkXmlLimits);
      context.push(...values);
    } else if (isSerializationParam(name)) {
      requireValidSerializationParam(name, values[0]);
      serialization[name] = values[0];
    } else {
      const option = optionEntry(name, values[0]);
      if (option) options.set(...option);
      else {
        const varName = name.startsWith('$') ? name.slice(1) : name;
        variables.set(varName, { values: [...(variables.get(varName)?.values ?? []), ...values] });
      }
    }
  }
  return { operation, context, serialization, options: normaliseOptions(options), variables };
}

/** PUT and DELETE: every parameter must be a database option. */
export function classifyWriteParameters(pairs: QueryPairs): RequestParameters {
  const options = new Map<string, OptionValue>();
  for (const [name, value] of pairs) {
    const option = optionEntry(name, value);
    if (option === undefined) throw raise(HTTP_ERRORS, 'UNKNOWN_PARAM_X', name);
    options.set(...option);
  }
  return { ...NO_PARAMETERS, options: normaliseOptions(options) };
}
