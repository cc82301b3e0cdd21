/**
 * RUN file: a query or command script stored on the server, below the REST path (spec §10).
 * `.bxs` files are command scripts, planned and run with the commands around them; others are
 * queries, run by the caller's file runner.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { attr, defineCommand, element, needs } from '../definition';
import { queryContext } from '../exec/context';
import { execError } from '../exec/errors';

const QUERY_SUFFIX = /\.(?:bxs|xq|xqm|xqy|xql|xqu|xquery|xpath)$/i;

async function isFileInside(root: string, file: string): Promise<boolean> {
  try {
    const [realRoot, real] = await Promise.all([fs.realpath(root), fs.realpath(file)]);
    const rel = path.relative(realRoot, real);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return false;
    return (await fs.stat(real)).isFile();
  } catch {
    return false;
  }
}

/**
 * Resolves a RUN file against the REST path (spec §10): NAME, else NAME.xq, else NAME.bxs (only
 * for names without a query or script suffix). Absolute names, names leaving the folder, folders
 * and missing files are not found.
 */
export async function resolveRunFile(restPath: string, name: string): Promise<string> {
  const root = path.resolve(restPath);
  if (!path.isAbsolute(name)) {
    const candidates = QUERY_SUFFIX.test(name) ? [name] : [name, `${name}.xq`, `${name}.bxs`];
    for (const c of candidates) {
      const file = path.resolve(root, c);
      try {
        await fs.stat(file);
      } catch {
        continue;
      }
      if (await isFileInside(root, file)) return file;
      break;
    }
  }
  throw execError('FILE_NOT_FOUND_X', name);
}

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
    const file = await resolveRunFile(env.restPath, cmd.file);
    const text = await fs.readFile(file, 'utf8');
    return /\.bxs$/i.test(file) ? { script: text, file } : { query: text, file };
  },
  run: (_cmd, ctx, step) => {
    if (ctx.env.runFile === undefined) throw execError('NO_FILE_RUNNER');
    return ctx.env.runFile(step.file as string, queryContext(ctx));
  },
});
