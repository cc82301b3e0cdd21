/**
 * XQUERY, FIND and RUN of a query file: handed to the caller's engine with the opened database and
 * path as context, and the script's view (see QueryContext).
 */
import type { CommandOf } from '../types';
import { existingDb, type QueryContext, type RunContext } from './context';
import { execError } from './errors';

function queryContext(ctx: RunContext): QueryContext {
  const { currentDb, currentPath } = ctx.state;
  return {
    ...(currentDb !== undefined ? { db: currentDb } : {}),
    ...(currentDb !== undefined && currentPath !== undefined ? { path: currentPath } : {}),
    view: ctx.writer ?? ctx.view,
    locks: ctx.locks,
  };
}

export async function xquery(cmd: CommandOf<'xquery'>, ctx: RunContext): Promise<string> {
  if (ctx.env.query === undefined) throw execError('NO_QUERY_ENGINE');
  return ctx.env.query(cmd.query, queryContext(ctx));
}

/** An XQuery string literal. */
function literal(s: string): string {
  return `"${s.replace(/&/g, '&amp;').replace(/"/g, '""')}"`;
}

/**
 * FIND query: the elements of the opened database whose text contains every keyword
 * (case-insensitive); a keyword in double quotes must be the whole text.
 */
export function findQuery(query: string): string {
  const terms = query.match(/"[^"]*"|\S+/g) ?? [];
  const tests = terms.map((t) =>
    t.startsWith('"') && t.endsWith('"') && t.length >= 2
      ? `. = ${literal(t.slice(1, -1))}`
      : `contains(lower-case(.), ${literal(t.toLowerCase())})`,
  );
  return tests.length === 0 ? '()' : `/descendant::*[text()[${tests.join(' and ')}]]`;
}

export async function find(cmd: CommandOf<'find'>, ctx: RunContext): Promise<string> {
  await existingDb(ctx);
  if (ctx.env.query === undefined) throw execError('NO_QUERY_ENGINE');
  return ctx.env.query(findQuery(cmd.query), queryContext(ctx));
}

/** RUN of a query file (a `.bxs` file is run as a script by the executor). */
export async function runFile(file: string, ctx: RunContext): Promise<string> {
  if (ctx.env.runFile === undefined) throw execError('NO_FILE_RUNNER');
  return ctx.env.runFile(file, queryContext(ctx));
}
