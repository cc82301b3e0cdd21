/**
 * `run` (spec §6.4, §10): a server-side file below the REST path; `.bxs` files are command
 * scripts, anything else an XQuery whose static base URI names the file below a virtual folder
 * (query.ts `readQueryFile`).
 */
import { resolveRunFile } from '../commands/defs/run';
import { raise, XmldbError } from '../errors';
import { RUN_ERRORS } from './errors';
import { runCommandScript, type CommandInput } from './command';
import { evaluateQuery, readQueryFile, type QueryInput } from './query';
import type { Result, Session } from './types';

/** Resolves NAME against the REST path; 404 `Resource "NAME" not found.` otherwise. */
export async function resolveServerFile(restPath: string, name: string): Promise<string> {
  try {
    return await resolveRunFile(restPath, name);
  } catch (error) {
    if (error instanceof XmldbError) throw raise(RUN_ERRORS, 'RUN_NOT_FOUND_X', name);
    throw error;
  }
}

export async function runServerFile(
  session: Session,
  name: string,
  input: Omit<QueryInput, 'query' | 'baseUri'> & CommandInput,
): Promise<Result> {
  const restPath = session.runtime.options.restPath;
  const file = await resolveServerFile(restPath, name);
  const source = await readQueryFile(restPath, file);
  if (file.toLowerCase().endsWith('.bxs')) return runCommandScript(session, source.text, input, 'application/xml');
  return evaluateQuery(session, { ...input, query: source.text, baseUri: source.baseUri, source: name });
}
