/**
 * A query answers the same through both of the engine's paths: as one XPath expression, and as
 * a stylesheet (the same query with a declared variable in its prolog that the body does not read
 * and whose value might fail: it stays a lazy `xsl:variable`, translate/variable-lets.ts `declareGlobals`).
 */
import type { EngineFixture } from '../xquery/language/translate/helpers';
import { translate } from '../helpers/translation';

/** The prolog that makes a query run as a stylesheet. */
const AS_STYLESHEET = 'declare variable $unused := current-dateTime();';

export function answersBothWays(e: EngineFixture, cases: ReadonlyArray<readonly [string, string]>): void {
  it.each(cases)('%s', async (query, expected) => {
    expect(await e.adaptive(query)).toBe(expected);
  });

  it.each(cases)('%s (as a stylesheet)', async (query, expected) => {
    const asStylesheet = `${AS_STYLESHEET} ${query}`;
    expect(translate(asStylesheet).xpath).toBeUndefined();
    expect(await e.adaptive(asStylesheet)).toBe(expected);
  });
}
