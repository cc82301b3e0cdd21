/**
 * FIND query: the elements of the opened database whose text contains every keyword
 * (case-insensitive); a keyword in double quotes must be the whole text. Runs as a query.
 */
import { defineCommand, element, needs, opened, text } from '../definition';
import { existingDb, queryScope } from '../exec/context';
import { execError } from '../exec/exec-errors';

/** An XQuery string literal. */
function literal(s: string): string {
  return `"${s.replace(/&/g, '&amp;').replace(/"/g, '""')}"`;
}

/** The query FIND runs for its keywords. */
export function findQuery(query: string): string {
  const terms = query.match(/"[^"]*"|\S+/g) ?? [];
  const tests = terms.map((t) =>
    t.startsWith('"') && t.endsWith('"') && t.length >= 2
      ? `. = ${literal(t.slice(1, -1))}`
      : `contains(lower-case(.), ${literal(t.toLowerCase())})`,
  );
  return tests.length === 0 ? '()' : `/descendant::*[text()[${tests.join(' and ')}]]`;
}

export const find = defineCommand({
  kind: 'find',
  syntax: [
    {
      words: ['FIND'],
      parse: (p) => ({ kind: 'find', query: p.reqRest(true) }),
      help: { syntax: '[query]', summary: 'Find keywords in the opened database.' },
    },
  ],
  elements: { find: element([], [], (_a, c) => ({ kind: 'find', query: c as string }), text('query')) },
  needs: (_cmd, db) => needs('read', opened(db)),
  run: async (cmd, ctx) => {
    await existingDb(ctx);
    if (ctx.env.query === undefined) throw execError('NO_QUERY_ENGINE');
    return ctx.env.query(findQuery(cmd.query), queryScope(ctx));
  },
});
