/** The translator's interface: a main module to its XSLT stylesheet (translation.ts) and the names callers use. */
export { CONTEXT_URI_PARAM, FIRST_DATA_PARAM } from './names';
export { type TriedFirst } from './unit';
export { EXPRESSION_PARAM, libraryExpression, libraryExternal, libraryStylesheet } from './library';
export { type ExternalVariable } from './prolog';
export { inlinePredicateLiterals, type LiteralParam } from './literals';
export { translateModule, translateFirstCall, type FirstCallTranslation, withLiteralValues, xpathToRun, firstToRun, XPATH_MAX_LENGTH, LIBRARY_MAX_LENGTH, type ContextMode, type TranslateOptions, type Translation } from './translation';
