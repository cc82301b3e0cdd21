/**
 * A query string evaluated at run time (xquery:eval, functions/xquery.ts) → the translator's
 * stylesheet, in the query worker: the same parser, the same update analysis and the same
 * translator (with its function allow-list, translate/callable.ts) as a query sent over REST.
 * Translations are cached per thread by text and context mode, errors too (they are as
 * deterministic as the translations).
 *
 * Errors come out as saxon-js errors with the evaluated query's code and message, located at
 * the xquery:eval call of the calling query (as BaseX reports them without its `pass` option),
 * so the calling query can catch them like any dynamic error.
 */
import { LRUCache } from 'lru-cache';
import { QueryError } from '../../query-error';
import { xpathError } from '../../../saxon';
import { XQuerySyntaxError } from '../../language/syntax/syntax-errors';
import type { ExternalVariable } from '../../language/translate';
import type { UpdatePermission } from '../../language/analysis/updating';
import { MODULE_NAMESPACES } from '../../module-namespaces';
import { translator } from './translator';

export interface EvalTranslation {
  readonly xslt: string;
  readonly externals: readonly ExternalVariable[];
  readonly updating: boolean;
  readonly permission: 'none' | UpdatePermission;
}

type Outcome = EvalTranslation | { readonly error: { readonly code: string; readonly message: string } };

const cache = new LRUCache<string, Outcome>({ max: 128 });

/** The error code as saxon-js takes it: module prefixes (`db:open`) back to their namespace. */
function saxonCode(code: string): string {
  const colon = code.indexOf(':');
  if (colon < 0 || code.startsWith('Q{')) return code;
  const uri = (MODULE_NAMESPACES as Readonly<Record<string, string>>)[code.slice(0, colon)];
  return uri ? `Q{${uri}}${code.slice(colon + 1)}` : code;
}

/** Any failure of translating or running an evaluated query, as a saxon-js error the caller can catch. */
export function asSaxonError(e: unknown): unknown {
  if (e instanceof QueryError) return xpathError(e.message, saxonCode(e.code));
  return e;
}

function translateUncached(text: string, withContext: boolean): Outcome {
  try {
    const { parseQuery, analyzeModule, translateModule } = translator();
    const module = parseQuery(text);
    const { updating, permission } = analyzeModule(module, text);
    // compiled per text (the cache below): literals stay literals, no parameters to bind
    const t = translateModule(module, text, { contextMode: withContext ? 'multi' : 'none', literalParams: false });
    return { xslt: t.xslt, externals: t.externals, updating, permission };
  } catch (e) {
    if (e instanceof XQuerySyntaxError) return { error: { code: e.code, message: e.description } };
    if (e instanceof QueryError) return { error: { code: e.code, message: e.message } };
    if (e instanceof RangeError) return { error: { code: 'XPST0003', message: 'The evaluated query is nested too deeply.' } };
    throw e;
  }
}

/** The translation of an evaluated query; `withContext`: the context is bound (a sequence of nodes). */
export function translateEval(text: string, withContext: boolean): EvalTranslation {
  const key = `${withContext ? 'c' : '-'}${text}`;
  let outcome = cache.get(key);
  if (!outcome) {
    outcome = translateUncached(text, withContext);
    cache.set(key, outcome);
  }
  if ('error' in outcome) throw xpathError(outcome.error.message, saxonCode(outcome.error.code));
  return outcome;
}
