/**
 * CREATE DB name (input): creates a database (replacing one of that name) with the session's
 * parsing and index options; an XML string becomes `name.xml`, a server file keeps its name, a
 * folder its files. The input is read and parsed before anything is stored. The new database is
 * opened, as in the reference server (`CREATE DB x` then `ADD …`; spec §15.2 example).
 *
 * REST PUT of a database (operations/create.ts) makes its database here too, as in the
 * reference server, where it is this command with the request body as input.
 */
import { FULLTEXT_OPTIONS } from '../../store/index-kinds';
import { checkDatabaseName } from '../../store/resource-names';
import { unsupportedFullTextOptions } from '../../xquery/fulltext/index-options';
import type { DatabaseOptions, WriteView } from '../../store/types';
import { attr, defineCommand, element, input, needs, opt } from '../definition';
import { writer } from '../exec/context';
import { execError } from '../exec/exec-errors';
import { resolveInput, type InputResource } from '../exec/input';
import { optionValue, type SessionOptions } from '../exec/session-options';

/** Options kept with a new database: parsing and index settings of the session (stored lower case). */
const KEPT_OPTIONS = [
  'STRIPWS', 'STRIPNS', 'TEXTINDEX', 'ATTRINDEX', 'TOKENINDEX', 'FTINDEX', 'UPDINDEX', 'AUTOOPTIMIZE', 'MAXLEN', 'MAXCATS',
  ...FULLTEXT_OPTIONS,
];

/**
 * The options a new database keeps, from the session's (SET, or the options of a REST request,
 * spec §2.4: applied before the operation). A full-text index this server cannot build with them
 * is refused.
 */
export function newDatabaseOptions(session: SessionOptions): DatabaseOptions {
  if (optionValue(session, 'FTINDEX') === true) {
    const unsupported = unsupportedFullTextOptions({ stemming: optionValue(session, 'STEMMING'), language: optionValue(session, 'LANGUAGE') });
    if (unsupported !== undefined) throw execError('NOT_SUPPORTED_INDEX_X', unsupported);
  }
  const options: DatabaseOptions = {};
  for (const o of KEPT_OPTIONS) options[o.toLowerCase()] = optionValue(session, o);
  return options;
}

/** Creates database `name` with `options`, replacing one of that name, and stores `resources` in it. */
export async function createDatabase(view: WriteView, name: string, options: DatabaseOptions, resources: readonly InputResource[]): Promise<void> {
  await view.createDatabase(name, options);
  for (const r of resources) await view.putResource(name, r.path, r.input);
}

export const createDb = defineCommand({
  kind: 'createDb',
  syntax: [
    {
      words: ['CREATE', ['DB', 'DATABASE']],
      parse: (p) => opt({ kind: 'createDb', name: p.reqName(), input: p.rest(true) }),
      detail: 'DB [name] ([input]): create a database, optionally from [input].',
    },
  ],
  elements: {
    'create-db': element(['name'], [], (a, c) => opt({ kind: 'createDb', name: attr(a, 'name'), input: c }), input('input', true)),
  },
  needs: (cmd) => needs('create', [], [cmd.name]),
  opens: (cmd) => cmd.name,
  run: async (cmd, ctx) => {
    const name = checkDatabaseName(cmd.name);
    const options = newDatabaseOptions(ctx.state);
    const resolved = cmd.input === undefined ? undefined : await resolveInput(ctx, cmd.input, undefined, `${name}.xml`);
    if (resolved?.inputPath !== undefined) options.inputpath = resolved.inputPath;
    if (resolved !== undefined) options.inputsize = resolved.inputSize;
    await createDatabase(writer(ctx), name, options, resolved?.resources ?? []);
    ctx.state.currentDb = name;
    delete ctx.state.currentPath;
    return '';
  },
});
