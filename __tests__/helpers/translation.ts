/** A query's translation (lib/xquery/language/translate) for tests that look at the generated code or run it. */
import { parseQuery } from '../../lib/xquery/language/syntax';
import { translateModule, type ContextMode, type TranslateOptions, type Translation } from '../../lib/xquery/language/translate';

/** Parses `query` as a main module and translates it in `contextMode`, with the translator's other options. */
export function translate(query: string, contextMode: ContextMode = 'none', options: Omit<TranslateOptions, 'contextMode'> = {}): Translation {
  return translateModule(parseQuery(query), query, { ...options, contextMode });
}
