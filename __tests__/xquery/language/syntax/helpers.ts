/**
 * Table helpers in acorn's style: `testParse(rows)` checks each query's AST (as printed by
 * printAst, offsets left out) and `testFail(rows)` checks the error code and line:column.
 */
import { parseQuery, printAst, XQuerySyntaxError } from '../../../../lib/xquery/language/syntax';

/** The query body, printed. */
export function ast(query: string): string {
  return printAst(parseQuery(query).body);
}

/** The prolog declarations, printed. */
export function prolog(query: string): string {
  return printAst(parseQuery(query).prolog.decls);
}

/** "CODE line:col" of the error a query raises, or "parsed". */
export function syntaxFailure(query: string): string {
  try {
    parseQuery(query);
    return 'parsed';
  } catch (e) {
    if (!(e instanceof XQuerySyntaxError)) throw e;
    return `${e.code} ${e.line}:${e.column}`;
  }
}

/** [query, expected printed AST] rows. */
export function testParse(rows: readonly (readonly [string, string])[], render: (query: string) => string = ast): void {
  it.each(rows)('parses %j', (query, expected) => {
    expect(render(query)).toBe(expected);
  });
}

/** [query, "line:col"] rows (XPST0003) or [query, "CODE line:col"]. */
export function testFail(rows: readonly (readonly [string, string])[]): void {
  it.each(rows)('rejects %j', (query, expected) => {
    expect(syntaxFailure(query)).toBe(/^\d/.test(expected) ? `XPST0003 ${expected}` : expected);
  });
}
