/**
 * `run` (spec §6.4, §10): a server-side file below the REST path; `.bxs` files are command
 * scripts, anything else an XQuery whose static base URI is the file.
 */
import fs from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { resolveRunFile } from '../commands/defs/run';
import { raise, XmldbError } from '../errors';
import { RUN_ERRORS } from './errors';
import { runCommandScript, type CommandInput } from './command';
import { evaluateQuery, type QueryInput } from './query';
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

/** Reads a query file and runs it with `evaluate(text, baseUri)`. */
export async function runQueryFile(file: string, evaluate: (text: string, baseUri: string) => Promise<string>): Promise<string> {
  return evaluate(await fs.readFile(file, 'utf8'), pathToFileURL(file).href);
}

export async function runServerFile(
  session: Session,
  name: string,
  input: Omit<QueryInput, 'query' | 'baseUri'> & CommandInput,
): Promise<Result> {
  const file = await resolveServerFile(session.runtime.options.restPath, name);
  const text = await fs.readFile(file, 'utf8');
  if (file.toLowerCase().endsWith('.bxs')) return runCommandScript(session, text, input, 'application/xml');
  return evaluateQuery(session, { ...input, query: text, baseUri: pathToFileURL(file).href, source: name });
}
