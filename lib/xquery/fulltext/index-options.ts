/**
 * Whether a full-text index can be built with the options given (store/index-kinds.ts
 * FULLTEXT_OPTIONS, lower-case keys as kept with a database): LANGUAGE must be a language tag
 * (XQuery Full Text 1.0 §3.4.6, as `using language` requires), and STEMMING needs a stemmer for
 * it (stemmers.ts). What cannot be honoured is named, for the caller's error.
 */
import type { DatabaseOptions } from '../../store/types';
import { hasStemmer } from './stemmers';

/** What is not supported about these index options; undefined if the index can be built. */
export function unsupportedFullTextOptions(options: Readonly<DatabaseOptions>): string | undefined {
  const language = typeof options.language === 'string' && options.language !== '' ? options.language : undefined;
  if (language !== undefined && !/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{1,8})*$/.test(language)) return `LANGUAGE '${language}'`;
  if (options.stemming === true && !hasStemmer(language)) return `STEMMING for LANGUAGE '${language}'`;
  return undefined;
}
