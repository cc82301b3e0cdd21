/**
 * `run` (spec §6.4, §10): a server-side file below the REST path (commands/exec/run-files.ts
 * finds and reads it), run as a command script or as a query.
 */
import { readRunFile } from '../commands/exec/run-files';
import { raise } from '../xmldb-error';
import { RUN_ERRORS } from './operation-errors';
import { runCommandScript, type CommandInput } from './command';
import { evaluateQuery, type QueryInput } from './query';
import type { Result, Session } from './types';

/** Runs file NAME of the REST path; 404 `Resource "NAME" not found.` if there is none. */
export async function runServerFile(
  session: Session,
  name: string,
  input: Omit<QueryInput, 'query' | 'baseUri'> & CommandInput,
): Promise<Result> {
  const source = await readRunFile(session.runtime.options.restPath, name);
  if (source === undefined) throw raise(RUN_ERRORS, 'RUN_NOT_FOUND_X', name);
  if (source.kind === 'script') return runCommandScript(session, source.text, input, 'application/xml');
  return evaluateQuery(session, { ...input, query: source.text, baseUri: source.baseUri, source: name });
}
