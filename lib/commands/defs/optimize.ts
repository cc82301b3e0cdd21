/**
 * OPTIMIZE (ALL) and FLUSH: accepted for the opened database; this store keeps no structures to
 * rebuild (the value indexes are current after every write: store/index-kinds.ts) and writes
 * through.
 */
import { defineCommand, element, needs, opened } from '../definition';
import { existingDb } from '../exec/context';

export const optimize = defineCommand({
  kind: 'optimize',
  syntax: [
    {
      words: ['OPTIMIZE'],
      parse: (p) => ({ kind: 'optimize', all: p.keyword(['ALL'], true) === 'ALL' }),
      help: { syntax: '(ALL)', summary: 'Optimize the opened database.', details: ['ALL: rebuild all of its structures.'] },
    },
  ],
  elements: {
    optimize: element([], [], () => ({ kind: 'optimize', all: false })),
    'optimize-all': element([], [], () => ({ kind: 'optimize', all: true })),
  },
  needs: (_cmd, db) => needs('write', [], opened(db)),
  run: async (_cmd, ctx) => {
    await existingDb(ctx);
    return '';
  },
});

export const flush = defineCommand({
  kind: 'flush',
  syntax: [
    {
      words: ['FLUSH'],
      parse: () => ({ kind: 'flush' }),
      help: { syntax: '', summary: 'Write pending changes of the opened database to disk.' },
    },
  ],
  elements: { flush: element([], [], () => ({ kind: 'flush' })) },
  needs: (_cmd, db) => needs('write', [], opened(db)),
  run: async (_cmd, ctx) => {
    await existingDb(ctx);
    return '';
  },
});
