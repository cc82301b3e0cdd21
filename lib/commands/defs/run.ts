/**
 * RUN file: a query or command script stored on the server, below the REST path (spec §10;
 * exec/run-files.ts finds and reads it, once, when the script is planned). Command scripts are
 * planned and run with the commands around them; a query is run by the caller's file runner as
 * planning read and analysed it.
 */
import { attr, defineCommand, element, needs } from '../definition';
import { queryScope } from '../exec/context';
import { execError } from '../exec/exec-errors';
import { readRunFile } from '../exec/run-files';

export const run = defineCommand({
  kind: 'run',
  syntax: [
    {
      words: ['RUN'],
      parse: (p) => ({ kind: 'run', file: p.reqString() }),
      help: {
        syntax: '[file]',
        summary: 'Run a query or command script stored on the server.',
        details: ['Files ending in .bxs are command scripts; others are queries.'],
      },
    },
  ],
  elements: { run: element(['file'], [], (a) => ({ kind: 'run', file: attr(a, 'file') })) },
  needs: () => needs('none'),
  expand: async (cmd, env) => {
    const found = await readRunFile(env.restPath, cmd.file);
    if (found === undefined) throw execError('FILE_NOT_FOUND_X', cmd.file);
    const { kind, text, file } = found;
    return kind === 'script' ? { script: text, file } : { query: text, file };
  },
  run: (_cmd, ctx, step) => {
    if (ctx.env.runFile === undefined) throw execError('NO_FILE_RUNNER');
    return ctx.env.runFile(step.file as string, step.query as string, queryScope(ctx));
  },
});
