/** ALTER DB name newname: renames a database; the opened database follows its new name. */
import { checkDatabaseName } from '../../store/resource-names';
import { attr, defineCommand, element, needs } from '../definition';
import { writer } from '../exec/context';

export const alterDb = defineCommand({
  kind: 'alterDb',
  syntax: [
    {
      words: ['ALTER', ['DB', 'DATABASE']],
      parse: (p) => ({ kind: 'alterDb', name: p.reqName(), newName: p.reqName() }),
      detail: 'DB [name] [newname]: rename a database.',
    },
  ],
  elements: {
    'alter-db': element(['name', 'newname'], [], (a) => ({ kind: 'alterDb', name: attr(a, 'name'), newName: attr(a, 'newname') })),
  },
  needs: (cmd) => needs('create', [], [cmd.name, cmd.newName]),
  run: async (cmd, ctx) => {
    checkDatabaseName(cmd.newName);
    await writer(ctx).renameDatabase(cmd.name, cmd.newName);
    if (ctx.state.currentDb === cmd.name) ctx.state.currentDb = cmd.newName;
    return '';
  },
});
