/** CLOSE: closes the opened database. */
import { defineCommand, element, needs } from '../definition';
import type { RunContext } from '../exec/context';

/** Forgets the opened database and path (CLOSE, and DROP DB of the opened database). */
export function closeDatabase(ctx: RunContext): void {
  delete ctx.state.currentDb;
  delete ctx.state.currentPath;
}

export const close = defineCommand({
  kind: 'close',
  syntax: [{ words: ['CLOSE'], parse: () => ({ kind: 'close' }), help: { syntax: '', summary: 'Close the opened database.' } }],
  elements: { close: element([], [], () => ({ kind: 'close' })) },
  needs: () => needs('none'),
  opens: () => undefined,
  run: (_cmd, ctx) => {
    closeDatabase(ctx);
    return '';
  },
});
