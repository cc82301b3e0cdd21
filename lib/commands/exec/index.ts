/** The command executor's interface (execute.ts) and the types and errors of its callers. */
export type { CommandEnvironment, CommandState, QueryScope } from './context';
export { EXEC_ERRORS, type ExecErrorKey } from './exec-errors';
export { executeCommands } from './execute';
