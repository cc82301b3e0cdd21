/**
 * CREATE INDEX and DROP INDEX: switch an index of the opened database on or off by its option
 * (store/index-kinds.ts). The indexes need no build here: they are derived from each stored
 * document version when a query first uses them (xquery/accelerators/value-index/value-index.ts,
 * fulltext-index.ts). CREATE INDEX FULLTEXT takes the session's full-text options (STEMMING,
 * CASESENS, DIACRITICS, LANGUAGE, STOPWORDS), as BaseX builds the index with the options in force;
 * options it cannot honour are refused. An index this server does not build cannot be created.
 */
import { defineCommand, element, needs, opened, type ArgReader } from '../definition';
import { existingDb, writer, type RunContext } from '../exec/context';
import { execError } from '../exec/exec-errors';
import { FULLTEXT_OPTIONS, INDEX_KINDS, indexOptionKey } from '../../store/index-kinds';
import type { DatabaseOptions } from '../../store/types';
import { unsupportedFullTextOptions } from '../../xquery/fulltext/index-options';
import { optionValue } from '../exec/session-options';
import { INDEX_TYPES, type CommandOf, type IndexType } from '../types';

const INDEX_KEYWORDS = INDEX_TYPES.map((t) => t.toUpperCase());

function parseType(p: ArgReader): IndexType {
  return (p.keyword(INDEX_KEYWORDS, false) as string).toLowerCase() as IndexType;
}

/** The XML syntax's `type` attribute, any case. */
function elementType(value: string, invalid: () => Error): IndexType {
  const t = value.toLowerCase();
  if (!(INDEX_TYPES as readonly string[]).includes(t)) throw invalid();
  return t as IndexType;
}

async function setIndex(cmd: CommandOf<'createIndex' | 'dropIndex'>, ctx: RunContext): Promise<string> {
  const db = await existingDb(ctx);
  const on = cmd.kind === 'createIndex';
  const unsupported = INDEX_KINDS[cmd.type].unsupported;
  if (on && unsupported !== undefined) throw execError('NOT_SUPPORTED_INDEX_X', unsupported);
  const options: DatabaseOptions = { [indexOptionKey(cmd.type)]: on };
  if (on && cmd.type === 'fulltext') {
    for (const o of FULLTEXT_OPTIONS) options[o.toLowerCase()] = optionValue(ctx.state, o);
    const problem = unsupportedFullTextOptions(options);
    if (problem !== undefined) throw execError('NOT_SUPPORTED_INDEX_X', problem);
  }
  await writer(ctx).setOptions(db, options);
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
