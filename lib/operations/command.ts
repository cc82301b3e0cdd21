/**
 * Commands over REST (spec §6.3, §7, §15): GET `?command=` and POST `<command>` run exactly one
 * command; POST `<commands>` runs a script. Output is text unless a media type is asked for.
 */
import { executeCommands, type CommandEnvironment, type QueryScope } from '../commands/exec';
import { runFileBaseUri } from '../commands/exec/run-files';
import { parseSingleCommand } from '../commands/parse';
import { parseScript } from '../commands/script';
import type { Command } from '../commands/types';
import type { OptionValue } from '../store/database-options';
import { contentTypeFor } from '../xquery/serialization/response-encoding';
import { mayReadHostFiles } from './permission';
import { queryContext, runLockedQuery } from './query';
import type { Result, Session, Variable } from './types';

export interface CommandInput {
  readonly db?: string;
  readonly path?: string;
  readonly serialization: Readonly<Record<string, string>>;
  readonly options: ReadonlyMap<string, OptionValue>;
  /** Bound in every XQUERY command (`run` of `.bxs` scripts, spec §6.4). */
  readonly variables: ReadonlyMap<string, Variable>;
}

/** The environment commands run in: the session's store and users, queries on its engine. */
export function commandEnvironment(session: Session, input: CommandInput): CommandEnvironment {
  const { runtime } = session;
  // The script holds its locks already: its queries run inside them, through its view.
  const query = async (text: string, context: QueryScope, baseUri?: string): Promise<string> => {
    const response = await runLockedQuery(session, context.view, context.locks, {
      query: text,
      mixUpdates: context.mixUpdates || undefined,
      baseUri,
      context: queryContext({ db: context.db, path: context.path, context: [] }),
      variables: input.variables,
      serialization: input.serialization,
    });
    return typeof response.body === 'string' ? response.body : response.body.toString('utf8');
  };
  return {
    store: runtime.store,
    users: runtime.users,
    user: session.user,
    allowFileAccess: mayReadHostFiles(session),
    restPath: runtime.options.restPath,
    query,
    analyzeQuery: (text, mixUpdates) => runtime.engine.prepare(text).analysis(mixUpdates),
    runFile: (file, text, context) => query(text, context, runFileBaseUri(runtime.options.restPath, file)),
  };
}

async function execute(session: Session, commands: readonly Command[], input: CommandInput, contentType: string): Promise<Result> {
  const state = { currentDb: input.db, currentPath: input.path, options: new Map(input.options) };
  const output = await executeCommands(commands, commandEnvironment(session, input), state);
  return { status: 200, contentType: contentTypeFor(input.serialization, contentType), body: output };
}

export function runCommand(session: Session, text: string, input: CommandInput): Promise<Result> {
  return execute(session, [parseSingleCommand(text)], input, 'text/plain');
}

export function runCommandScript(session: Session, script: string, input: CommandInput, contentType = 'text/plain'): Promise<Result> {
  return execute(session, parseScript(script), input, contentType);
}
