/**
 * External variables (spec §9.1): string values from the request, cast to the declared type.
 * A declared atomic type `xs:T` (with any occurrence indicator) casts each value as
 * `$v cast as xs:T` (FORG0001 for an invalid value); without a type, or for a non-atomic item
 * type, each value is an xs:string and the stylesheet's own `as` check has the last word.
 * Repeated values form a sequence; the occurrence indicator is checked here (XPTY0004).
 */
import { QueryError, toQueryError } from '../query-error';
import { castString, isAtomicTypeName, stringValue, type XdmItem } from '../../saxon';

/** Values of one external variable as the HTTP layer collects them. */
export interface StringBinding {
  readonly values: readonly string[];
  /** Sequence type such as `xs:integer*`; absent: each value is an xs:string. */
  readonly type?: string;
}

const SEQUENCE_TYPE = /^\s*(.*?)\s*([?*+])?\s*$/s;

/** A declared sequence type as bindStrings applies it. */
interface TypeRule {
  readonly min: number;
  readonly max: number;
  /** `empty-sequence()`: no value may be given. */
  readonly empty: boolean;
  /** The local name of the atomic type each value is cast to; absent: each value is an xs:string. */
  readonly cast?: string;
}

/**
 * Rules by type text, parsed once: the same few types (those of auto-parameterised literals,
 * translate/literals.ts) come with nearly every run. Type texts come from requests, so the
 * cache is bounded (emptied when full).
 */
const rules = new Map<string, TypeRule>();
const MAX_RULES = 64;

function ruleOf(type: string): TypeRule {
  let rule = rules.get(type);
  if (rule === undefined) {
    if (rules.size >= MAX_RULES) rules.clear();
    rule = parseRule(type);
    rules.set(type, rule);
  }
  return rule;
}

function parseRule(type: string): TypeRule {
  const [, itemType, occurrence = ''] = SEQUENCE_TYPE.exec(type)!;
  const min = occurrence === '?' || occurrence === '*' ? 0 : 1;
  const max = occurrence === '*' || occurrence === '+' ? Infinity : 1;
  if (itemType === 'empty-sequence()') return { min: 0, max: 0, empty: true };
  const m = /^(?:xs:|Q\{http:\/\/www\.w3\.org\/2001\/XMLSchema\})([A-Za-z]+)$/.exec(itemType);
  if (!m || !isAtomicTypeName(m[1]) || m[1] === 'anyAtomicType' || m[1] === 'string') return { min, max, empty: false };
  return { min, max, empty: false, cast: m[1] };
}

export function bindStrings(name: string, binding: StringBinding): XdmItem[] {
  const values = binding.values;
  if (!binding.type) return values.map(stringValue);
  const rule = ruleOf(binding.type);
  if (rule.empty) {
    if (values.length > 0) throw cardinality(name, binding.type, values.length);
    return [];
  }
  if (values.length < rule.min || values.length > rule.max) throw cardinality(name, binding.type, values.length);
  const cast = rule.cast;
  if (cast === undefined) return values.map(stringValue);
  try {
    return values.map((v) => castString(v, cast));
  } catch (e) {
    throw toQueryError(e, 'bind');
  }
}

function cardinality(name: string, type: string, count: number): QueryError {
  return new QueryError({
    code: 'XPTY0004',
    // named by its parameter: the engine names it as the client does (engine.ts `variableMessage`)
    message: `$${name}: ${count} value${count === 1 ? '' : 's'} supplied for type ${type}.`,
    status: 500,
    phase: 'bind',
  });
}
