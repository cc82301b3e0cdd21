/**
 * XQUERY query: handed to the caller's engine with the opened database and path as context, and
 * the script's view (see QueryScope). Planning analyses the query for its locks and permission.
 */
import { defineCommand, element, needs, opened, text } from '../definition';
import { queryScope } from '../exec/context';
import { execError } from '../exec/exec-errors';

export const xquery = defineCommand({
  kind: 'xquery',
  syntax: [
    {
      words: ['XQUERY'],
      // The query is kept as written: its quotes are XQuery's.
      parse: (p) => ({ kind: 'xquery', query: p.reqRest(false) }),
      help: { syntax: '[query]', summary: 'Evaluate a query.' },
    },
  ],
  elements: { xquery: element([], [], (_a, c) => ({ kind: 'xquery', query: c as string }), text('query')) },
  needs: (_cmd, db) => needs('none', opened(db)),
  expand: async (cmd) => ({ query: cmd.query }),
  run: (cmd, ctx) => {
    if (ctx.env.query === undefined) throw execError('NO_QUERY_ENGINE');
    return ctx.env.query(cmd.query, queryScope(ctx));
  },
});
