/**
 * What every run of one translation shares, made on its first run and kept with the translation
 * (a translation is made once per prepared query and context mode, prepared.ts): the bindings of
 * its literals, the expression a run as one XPath expression evaluates, and the serialization
 * parameters and content type of a request that names none of its own. Each is a function of the
 * translation alone (and, for the expression, of whether the context is a database), so a kept
 * value is the one a run would make; a hot query then spends no string or object work on them.
 */
import type { StringBinding } from '../worker/external-variables';
import { contentTypeFor } from '../serialization/response-encoding';
import { firstToRun, inlinePredicateLiterals, libraryExternal, xpathToRun, type Translation, type TriedFirst } from '../language/translate';

/** The expression of a run as one XPath expression (translate/translation.ts `xpathToRun`), with the literals it takes written in. */
export interface RunExpression {
  /** `xpathToRun`'s expression, undefined when the query cannot run as one expression. */
  readonly expression?: string;
  /** The expression with the literals of its predicates written in (literals.ts `inlinePredicateLiterals`); not for library runs. */
  readonly inlined?: string;
  /** The call to try before the expression (translate/translation.ts `firstToRun`). */
  readonly first?: TriedFirst;
}

/** The serialization parameters of a run and the content type they give. */
export interface RunSerialization {
  readonly serialization: Readonly<Record<string, string>>;
  readonly contentType: string;
}

interface Parts {
  literals?: ReadonlyArray<readonly [string, StringBinding]>;
  /** By context: [other, database]. */
  readonly expressions: [RunExpression?, RunExpression?];
  plainSerialization?: RunSerialization;
}

const kept = new WeakMap<Translation, Parts>();

function partsOf(t: Translation): Parts {
  let parts = kept.get(t);
  if (parts === undefined) {
    parts = { expressions: [] };
    kept.set(t, parts);
  }
  return parts;
}

/** Each literal's stylesheet parameter and its binding (shared by every run: bindings are only read). */
export function literalBindings(t: Translation): ReadonlyArray<readonly [string, StringBinding]> {
  const parts = partsOf(t);
  return (parts.literals ??= t.literals.map((lit) => [lit.param, Object.freeze({ values: Object.freeze([lit.value]), type: lit.type })] as const));
}

/**
 * For a run as one expression: whether each external variable with a default was given a value
 * (its `bound` parameter), and an unbound one to no value, as the evaluator needs every
 * parameter the expression names (variable-lets.ts `externalLets` binds the default); on the runtime
 * library (`onLibrary`), each value also to the library's parameter that carries it
 * (library.ts `libraryExpression`). A stylesheet gets none of these: its parameter's own
 * default applies.
 */
export function bindForExpression(params: Record<string, StringBinding>, t: Translation, onLibrary = false): void {
  t.externals.forEach((ext, i) => {
    if (ext.bound !== undefined) {
      const given = params[ext.param] !== undefined;
      params[ext.bound] = given ? BOUND : NOT_BOUND;
      if (!given) params[ext.param] = NO_VALUES;
    }
    if (onLibrary) params[libraryExternal(i)] = params[ext.param];
  });
}

const BOUND: StringBinding = Object.freeze({ values: Object.freeze(['true']), type: 'xs:boolean' });
const NOT_BOUND: StringBinding = Object.freeze({ values: Object.freeze(['false']), type: 'xs:boolean' });
const NO_VALUES: StringBinding = Object.freeze({ values: Object.freeze([]) });

/** The expression to run for `t` in a database context or not (see RunExpression). */
export function runExpression(t: Translation, databaseContext: boolean): RunExpression {
  const parts = partsOf(t);
  const i = databaseContext ? 1 : 0;
  let run = parts.expressions[i];
  if (run === undefined) {
    const expression = xpathToRun(t, databaseContext);
    const first = expression === undefined ? undefined : firstToRun(t, databaseContext);
    const tried = first ? { first } : {};
    run = expression === undefined ? {} : t.xpath!.library ? { expression, ...tried } : { expression, inlined: inlinePredicateLiterals(expression, t.literals), ...tried };
    parts.expressions[i] = run;
  }
  return run;
}

function isEmpty(record: Readonly<Record<string, string>>): boolean {
  for (const _ in record) return false;
  return true;
}

/** The content type of a query result whose serialization parameters name none (spec §11.1). */
const RESULT_TYPE = 'application/xml';

/**
 * The request's serialization parameters overridden by the prolog's (spec §11.1), and the
 * content type they give. Kept for requests without parameters of their own.
 */
export function runSerialization(t: Translation, requested: Readonly<Record<string, string>>): RunSerialization {
  if (!isEmpty(requested)) {
    const serialization = { ...requested, ...t.outputOptions };
    return { serialization, contentType: contentTypeFor(serialization, RESULT_TYPE) };
  }
  const parts = partsOf(t);
  if (parts.plainSerialization === undefined) {
    const serialization = Object.freeze({ ...t.outputOptions });
    parts.plainSerialization = { serialization, contentType: contentTypeFor(serialization, RESULT_TYPE) };
  }
  return parts.plainSerialization;
}
