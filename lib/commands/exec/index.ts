/**
 * Executes commands (spec §6.3, §6.4, §15). One runner for the `command` operation, `.bxs` files,
 * POST `<commands>` and EXECUTE:
 *
 * 1. Plan (plan.ts): walk every command, nested scripts included, tracking the opened database;
 *    check each one's permission (403 `… permission needed.`) and refuse unsupported commands,
 *    all before the first command runs. Collect the union of locks.
 * 2. Lock once: `store.write(locks)` when any command writes (every database the script reads or
 *    writes locked exclusively), else `store.read(locks)`. One lock set per script, taken in the
 *    store's fixed order, so scripts never deadlock one another.
 * 3. Run the commands in order; their outputs are concatenated without separator.
 *
 * A failing command ends the script; the database changes of the commands before it are kept
 * (as in the reference server, where each command commits on its own) and committed together when
 * the lock is released. Failures answer 500 (spec §12) except a failing OPEN (404) and permission
 * refusals (403); see `toCommandFailure`.
 */
import { XmldbError } from '../../errors';
import type { Command } from '../types';
import * as backups from './backups';
import type { CommandEnvironment, CommandState, RunContext } from './context';
import * as databases from './databases';
import { toCommandFailure } from './errors';
import * as info from './info';
import { setOption, showOptions } from './options';
import { commandName, isUnsupported, planCommands, type Step } from './plan';
import * as queries from './queries';
import * as resources from './resources';
import * as users from './users';
import { commandError } from '../messages';

export type { CommandEnvironment, CommandState, QueryContext, QueryNeeds } from './context';
export { EXEC_ERRORS, type ExecErrorKey } from './errors';
export { formatSize } from './info';
export { resolveRunFile } from './plan';

/** Runs one (planned) command; answers its output ('' for commands that only change state). */
async function runCommand(step: Step, ctx: RunContext): Promise<string> {
  const cmd = step.cmd;
  switch (cmd.kind) {
    case 'createDb':
      return databases.createDb(cmd, ctx).then(() => '');
    case 'dropDb':
      return databases.dropDb(cmd, ctx).then(() => '');
    case 'alterDb':
      return databases.alterDb(cmd, ctx).then(() => '');
    case 'copy':
      return databases.copy(cmd, ctx).then(() => '');
    case 'open':
      return databases.open(cmd, ctx).then(() => '');
    case 'close':
      databases.close(ctx);
      return '';
    case 'optimize':
    case 'flush':
      return databases.noOp(ctx).then(() => '');
    case 'createIndex':
    case 'dropIndex':
      return databases.setIndex(cmd, ctx).then(() => '');
    case 'export':
      return databases.exportDb(cmd, ctx).then(() => '');
    case 'list':
      return cmd.name === undefined ? info.listDatabases(ctx) : info.listDatabase({ ...cmd, name: cmd.name }, ctx);
    case 'dir':
      return info.dir(cmd, ctx);
    case 'info':
      return info.info(ctx);
    case 'infoDb':
      return info.infoDb(ctx);
    case 'help':
      return info.help(cmd);
    case 'get':
      return resources.get(cmd, ctx);
    case 'binaryGet':
      return resources.binaryGet(cmd, ctx);
    case 'binaryPut':
      return resources.binaryPut(cmd, ctx).then(() => '');
    case 'add':
      return resources.add(cmd, ctx).then(() => '');
    case 'put':
      return resources.put(cmd, ctx).then(() => '');
    case 'delete':
      return resources.del(cmd, ctx).then(() => '');
    case 'rename':
      return resources.rename(cmd, ctx).then(() => '');
    case 'xquery':
      return queries.xquery(cmd, ctx);
    case 'find':
      return queries.find(cmd, ctx);
    case 'run':
      return step.script !== undefined ? runSteps(step.script, ctx) : queries.runFile(step.file as string, ctx);
    case 'execute':
      return runSteps(step.script ?? [], ctx);
    case 'set':
      setOption(cmd, ctx.state);
      return '';
    case 'showOptions':
      return showOptions(cmd, ctx.state);
    case 'createUser':
      return users.createUser(cmd, ctx).then(() => '');
    case 'dropUser':
      return users.dropUser(cmd, ctx).then(() => '');
    case 'alterUser':
      return users.alterUser(cmd, ctx).then(() => '');
    case 'alterPassword':
      return users.alterPassword(cmd, ctx).then(() => '');
    case 'password':
      return users.ownPassword(cmd, ctx).then(() => '');
    case 'grant':
      return users.grant(cmd, ctx).then(() => '');
    case 'showUsers':
      return users.showUsers(cmd, ctx);
    case 'showSessions':
      return backups.showSessions();
    case 'createBackup':
      return backups.createBackup(cmd, ctx).then(() => '');
    case 'restore':
      return backups.restore(cmd, ctx).then(() => '');
    case 'dropBackup':
      return backups.dropBackup(cmd, ctx).then(() => '');
    case 'alterBackup':
      return backups.alterBackup(cmd, ctx).then(() => '');
    case 'showBackups':
      return backups.showBackups(ctx);
    case 'exit':
      return '';
    default: {
      // refused while planning
      if (isUnsupported(cmd)) throw commandError('NOT_SUPPORTED_X', commandName(cmd));
      const unreachable: never = cmd;
      throw new Error(`Unhandled command ${(unreachable as Command).kind}`);
    }
  }
}

/** Runs steps in order, concatenating their outputs. Nested scripts run through here too. */
async function runSteps(steps: readonly Step[], ctx: RunContext): Promise<string> {
  let out = '';
  for (const step of steps) {
    const nested = step.script !== undefined;
    try {
      out += await runCommand(step, ctx);
      // Each command commits on its own (as in the reference server), under the script's locks.
      if (!nested) await ctx.writer?.checkpoint();
    } catch (error) {
      // Nested scripts have mapped their own failures; a failing OPEN keeps its 404.
      const openNotFound = step.cmd.kind === 'open' && error instanceof XmldbError && error.status === 404;
      throw nested || openNotFound ? error : toCommandFailure(error);
    }
  }
  return out;
}

/**
 * Executes commands as one script: checks the permission of every command first, takes all locks
 * at once, then runs them in order. `state` is updated in place (opened database, options).
 * Answers the concatenated outputs; throws `XmldbError`s.
 */
export async function executeCommands(
  commands: readonly Command[],
  env: CommandEnvironment,
  state: CommandState,
): Promise<string> {
  const plan = await planCommands(commands, env, state.currentDb);
  let failure: { error: unknown } | undefined;
  const run = async (ctx: RunContext): Promise<string> => {
    try {
      return await runSteps(plan.steps, ctx);
    } catch (error) {
      // The changes of the commands before the failing one are committed already; fail.
      failure = { error };
      return '';
    }
  };
  const out = plan.write
    ? await env.store.write(plan.locks, (view) => run({ env, state, view, writer: view, locks: plan.locks }))
    : await env.store.read(plan.locks, (view) => run({ env, state, view, locks: plan.locks }));
  if (failure !== undefined) throw failure.error;
  return out;
}
