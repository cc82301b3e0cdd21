/** COPY name newname: copies a database; an existing target is replaced. */
import { checkDatabaseName } from '../../store/resource-names';
import { attr, defineCommand, element, needs } from '../definition';
import { writer } from '../exec/context';

export const copy = defineCommand({
  kind: 'copy',
  syntax: [
    {
      words: ['COPY'],
      parse: (p) => ({ kind: 'copy', name: p.reqName(), newName: p.reqName() }),
      help: { syntax: '[name] [newname]', summary: 'Copy a database.', details: ['An existing database [newname] is replaced.'] },
    },
  ],
  elements: {
    copy: element(['name', 'newname'], [], (a) => ({ kind: 'copy', name: attr(a, 'name'), newName: attr(a, 'newname') })),
  },
  needs: (cmd) => needs('create', [cmd.name], [cmd.newName]),
  run: async (cmd, ctx) => {
    checkDatabaseName(cmd.newName);
    await writer(ctx).copyDatabase(cmd.name, cmd.newName);
    return '';
  },
});
