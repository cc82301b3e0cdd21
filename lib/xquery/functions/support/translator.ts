/**
 * The parser, the update analysis and the translator, for a query text met while a query runs
 * (xquery:eval, inspect:module, inspect:xqdoc, inspect:context), loaded on the first such text.
 * A query worker runs the stylesheets and expressions the server translated; without this, each
 * worker thread would load the translator at its start for the few queries that evaluate a text
 * of their own: measured on Node 20, a thread then loads 225 modules before its first query
 * instead of 315.
 */
import type * as SyntaxModule from '../../language/syntax';
import type * as TranslateModule from '../../language/translate';
import type * as UpdatingModule from '../../language/analysis/updating';

export interface Translator {
  readonly parseQuery: typeof SyntaxModule.parseQuery;
  readonly parseModule: typeof SyntaxModule.parseModule;
  readonly analyzeModule: typeof UpdatingModule.analyzeModule;
  readonly translateModule: typeof TranslateModule.translateModule;
}

let loaded: Translator | undefined;

/** The translator's entry points, loaded now if they were not. */
export function translator(): Translator {
  if (!loaded) {
    /* eslint-disable @typescript-eslint/no-require-imports */
    const syntax = require('../../language/syntax') as typeof SyntaxModule;
    const translate = require('../../language/translate') as typeof TranslateModule;
    const updating = require('../../language/analysis/updating') as typeof UpdatingModule;
    /* eslint-enable @typescript-eslint/no-require-imports */
    loaded = { parseQuery: syntax.parseQuery, parseModule: syntax.parseModule, analyzeModule: updating.analyzeModule, translateModule: translate.translateModule };
  }
  return loaded;
}
