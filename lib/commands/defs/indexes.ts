/** CREATE INDEX and DROP INDEX: no index is built; the flag INFO DB shows is set. */
import { defineCommand, element, needs, opened, type ArgReader } from '../definition';
import { existingDb, writer, type RunContext } from '../exec/context';
import { execError } from '../exec/errors';
import { INDEX_TYPES, type CommandOf, type IndexType } from '../types';

const INDEX_KINDS = INDEX_TYPES.map((t) => t.toUpperCase());

/** Option key of an index type in the database options. */
const INDEX_OPTION: Record<IndexType, string> = {
  text: 'textindex',
  attribute: 'attrindex',
  token: 'tokenindex',
  fulltext: 'ftindex',
};

function parseType(p: ArgReader): IndexType {
  return (p.keyword(INDEX_KINDS, false) as string).toLowerCase() as IndexType;
}

/** The XML syntax's `type` attribute, any case. */
function elementType(value: string, invalid: () => Error): IndexType {
  const t = value.toLowerCase();
  if (!(INDEX_TYPES as readonly string[]).includes(t)) throw invalid();
  return t as IndexType;
}

async function setIndex(cmd: CommandOf<'createIndex' | 'dropIndex'>, ctx: RunContext): Promise<string> {
  if (cmd.kind === 'createIndex' && cmd.type === 'fulltext') throw execError('FULLTEXT_INDEX_X', 'CREATE INDEX FULLTEXT');
  const db = await existingDb(ctx);
  await writer(ctx).setOptions(db, { [INDEX_OPTION[cmd.type]]: cmd.kind === 'createIndex' });
  return '';
}

export const createIndex = defineCommand({
  kind: 'createIndex',
  syntax: [
    {
      words: ['CREATE', ['INDEX']],
      parse: (p) => ({ kind: 'createIndex', type: parseType(p) }),
      detail: 'INDEX [TEXT|ATTRIBUTE|TOKEN|FULLTEXT]: create an index of the opened database.',
    },
  ],
  elements: {
    'create-index': element(['type'], [], (a, _c, invalid) => ({ kind: 'createIndex', type: elementType(a.type as string, invalid) })),
  },
  needs: (_cmd, db) => needs('write', [], opened(db)),
  run: setIndex,
});

export const dropIndex = defineCommand({
  kind: 'dropIndex',
  syntax: [
    {
      words: ['DROP', ['INDEX']],
      parse: (p) => ({ kind: 'dropIndex', type: parseType(p) }),
      detail: 'INDEX [TEXT|ATTRIBUTE|TOKEN|FULLTEXT]: drop an index of the opened database.',
    },
  ],
  elements: {
    'drop-index': element(['type'], [], (a, _c, invalid) => ({ kind: 'dropIndex', type: elementType(a.type as string, invalid) })),
  },
  needs: (_cmd, db) => needs('write', [], opened(db)),
  run: setIndex,
});
