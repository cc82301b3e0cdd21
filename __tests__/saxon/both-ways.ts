/**
 * A query answers the same through both of the engine's paths: as one XPath expression, and as
 * a stylesheet (the same query with a declared variable in its prolog, which a query run as one
 * expression cannot have).
 */
import type { EngineFixture } from '../xquery/language/translate/helpers';

export function answersBothWays(e: EngineFixture, cases: ReadonlyArray<readonly [string, string]>): void {
  it.each(cases)('%s', async (query, expected) => {
    expect(await e.adaptive(query)).toBe(expected);
  });

  it.each(cases)('%s (as a stylesheet)', async (query, expected) => {
    expect(await e.adaptive(`declare variable $unused := 0; ${query}`)).toBe(expected);
  });
}
