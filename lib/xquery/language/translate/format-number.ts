/**
 * `fn:format-number` reads the decimal formats of the static context (F&O 3.1 §4.7.2), which
 * saxon-js's XPath evaluator does not have (it answers FODF1280 even for the default format): a
 * call with two arguments is a call of the runtime library's lib.format-number (library.ts),
 * which calls fn:format-number in the static context of the stylesheet it is declared in: the
 * library's, with the default decimal format, or a query's own, with the format its prolog
 * declares as the default. Its parameters are untyped, so the arguments get fn:format-number's
 * own conversions and errors. A third argument names a format only the query's own stylesheet
 * declares (functions.ts keeps such a call there).
 */
import { NS } from './names';
import { braced } from './emit';
import type { TranslationUnit } from './unit';

export const FORMAT_NUMBER_FUNCTION = `${braced(NS.gen)}lib.format-number`;

/** The text of lib.format-number, a declaration of the runtime library. */
export function formatNumberText(): string {
  const V = braced(NS.vars);
  return [
    `<xsl:function name="${FORMAT_NUMBER_FUNCTION}" as="xs:string">`,
    `<xsl:param name="${V}value"/>`,
    `<xsl:param name="${V}picture"/>`,
    `<xsl:sequence select="${braced(NS.fn)}format-number($${V}value, $${V}picture)"/>`,
    '</xsl:function>',
  ].join('\n');
}

/** A call of lib.format-number with two arguments (XPath). */
export function formatNumberCall(value: string, picture: string, unit: TranslationUnit): string {
  return unit.callLibrary(FORMAT_NUMBER_FUNCTION, formatNumberText(), `${value}, ${picture}`);
}
