/**
 * Executes commands (spec §6.3, §6.4, §15). One runner for the `command` operation, `.bxs` files,
 * POST `<commands>` and EXECUTE; each command's run is in its entry of the command table
 * (registry.ts, defs/):
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
import { XmldbError } from '../../xmldb-error';
import type { Step } from '../definition';
import { commandDef } from '../registry';
import type { Command } from '../types';
import type { CommandEnvironment, CommandState, RunContext } from './context';
import { toCommandFailure } from './exec-errors';
import { planCommands } from './plan';

/**
 * Runs one planned command; answers its output ('' for commands that only change state). A step
 * with a planned script (EXECUTE, RUN of a `.bxs` file) runs the script's steps.
 */
async function runCommand(step: Step, ctx: RunContext): Promise<string> {
  if (step.script !== undefined) return runSteps(step.script, ctx);
  const def = commandDef(step.cmd);
  // Planning refused commands without a run.
  if (def.run === undefined) throw new Error(`Unplanned command ${step.cmd.kind}`);
  return def.run(step.cmd, ctx, step);
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
  const plan = await planCommands(commands, env, state);
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
