import type { CommandEnvironment } from '../../lib/commands/exec';
import { patternLocks } from '../../lib/commands/locks';
import { parseCommands } from '../../lib/commands/parse';
import { commandDef } from '../../lib/commands/registry';
import type { Command } from '../../lib/commands/types';

/** The permission and locks of a command with `db` opened, run by `user` (its table entry). */
function requirements(cmd: Command, db?: string, user?: string) {
  return commandDef(cmd).needs(cmd, db, user);
}

type Row = [string, string, unknown, unknown];

/** [command, perm, reads, writes] with the database `cur` opened. */
const rows: Row[] = [
  ['CREATE DB db', 'create', [], ['db']],
  ['DROP DB db', 'create', [], ['db']],
  ['DROP DB a,b', 'create', [], ['a', 'b']],
  ['DROP DB db*', 'create', [], '*'],
  ['ALTER DB a b', 'create', [], ['a', 'b']],
  ['COPY a b', 'create', ['a'], ['b']],
  ['OPEN db', 'read', ['db'], []],
  ['CLOSE', 'none', [], []],
  ['LIST', 'none', '*', []],
  ['LIST db', 'read', ['db'], []],
  ['LIST db dir', 'read', ['db'], []],
  ['DIR', 'read', ['cur'], []],
  ['INFO', 'none', [], []],
  ['INFO DB', 'read', ['cur'], []],
  ['INFO INDEX', 'read', ['cur'], []],
  ['INFO STORAGE', 'read', ['cur'], []],
  ['INSPECT', 'read', ['cur'], []],
  ['GET a.xml', 'read', ['cur'], []],
  ['BINARY GET a.bin', 'read', ['cur'], []],
  ['FIND word', 'read', ['cur'], []],
  ['BINARY PUT TO a.bin x', 'write', [], ['cur']],
  ['ADD <a/>', 'write', [], ['cur']],
  ['PUT a.xml <a/>', 'write', [], ['cur']],
  ['DELETE a.xml', 'write', [], ['cur']],
  ['RENAME a b', 'write', [], ['cur']],
  ['OPTIMIZE', 'write', [], ['cur']],
  ['OPTIMIZE ALL', 'write', [], ['cur']],
  ['FLUSH', 'write', [], ['cur']],
  ['CREATE INDEX TEXT', 'write', [], ['cur']],
  ['DROP INDEX TEXT', 'write', [], ['cur']],
  ['EXPORT /tmp/x', 'create', ['cur'], []],
  ['SET stripws true', 'none', [], []],
  ['SHOW OPTIONS', 'none', [], []],
  ['CREATE USER u', 'admin', [], []],
  ['DROP USER u', 'admin', [], []],
  ['ALTER USER u v', 'admin', [], []],
  ['ALTER PASSWORD u pw', 'admin', [], []],
  ['PASSWORD pw', 'none', [], []],
  ['GRANT READ ON db TO u', 'admin', [], []],
  ['SHOW USERS', 'none', [], []],
  ['SHOW USERS ON db', 'none', [], []],
  ['SHOW SESSIONS', 'admin', [], []],
  ['KILL u', 'admin', [], []],
  ['CREATE BACKUP db', 'create', [], ['db']],
  ['CREATE BACKUP db*', 'create', [], '*'],
  ['CREATE BACKUP', 'create', [], '*'],
  ['RESTORE db-2026-01-01-10-00-00', 'create', [], ['db', 'db-2026-01-01-10-00-00']],
  ['RESTORE db', 'create', [], ['db']],
  ['DROP BACKUP db', 'create', [], ['db']],
  ['DROP BACKUP db*', 'create', [], '*'],
  ['DROP BACKUP a-2026-01-01-10-00-00,b', 'create', [], ['a', 'a-2026-01-01-10-00-00', 'b']],
  ['ALTER BACKUP a b', 'create', [], ['a', 'b']],
  ['SHOW BACKUPS', 'create', [], []],
  ['HELP', 'none', [], []],
  ['EXIT', 'none', [], []],
  ['JOBS LIST', 'admin', [], []],
  ['REPO LIST', 'admin', [], []],
  ['TEST t.xqm', 'admin', [], []],
  ['CHECK db', 'read', ['db'], []],
];

describe('requirements per command', () => {
  test.each(rows)('%s → %s', (text, perm, reads, writes) => {
    const [cmd] = parseCommands(text);
    const r = requirements(cmd, 'cur');
    expect({ perm: r.perm, reads: r.reads, writes: r.writes }).toStrictEqual({ perm, reads, writes });
  });

  test('commands on the opened database lock nothing without one (they fail when run)', () => {
    expect(requirements({ kind: 'delete', path: 'a' })).toStrictEqual({ perm: 'write', reads: [], writes: [] });
    expect(requirements({ kind: 'infoDb' })).toStrictEqual({ perm: 'read', reads: [], writes: [] });
  });

  test('queries and scripts are expanded for planning', async () => {
    const env = {} as CommandEnvironment;
    const xquery: Command = { kind: 'xquery', query: 'count(/)' };
    expect(requirements(xquery, 'cur')).toStrictEqual({ perm: 'none', reads: ['cur'], writes: [] });
    expect(await commandDef(xquery).expand?.(xquery, env)).toStrictEqual({ query: 'count(/)' });
    const execute: Command = { kind: 'execute', script: 'LIST' };
    expect(requirements(execute)).toStrictEqual({ perm: 'none', reads: [], writes: [] });
    expect(await commandDef(execute).expand?.(execute, env)).toStrictEqual({ script: 'LIST' });
  });

  test('OPEN, CHECK and CREATE DB leave their database opened; CLOSE closes it', () => {
    const opens = (text: string) => {
      const [cmd] = parseCommands(text);
      const def = commandDef(cmd);
      return def.opens === undefined ? 'cur' : def.opens(cmd, 'cur');
    };
    expect(['OPEN a', 'CHECK b', 'CREATE DB c', 'CLOSE', 'LIST x', 'DROP DB cur'].map(opens)).toStrictEqual(['a', 'b', 'c', undefined, 'cur', 'cur']);
  });

  test('changing one’s own password needs no permission', () => {
    const cmd: Command = { kind: 'alterPassword', name: 'u', password: 'x' };
    expect(requirements(cmd, undefined, 'u').perm).toBe('none');
    expect(requirements(cmd, undefined, 'v').perm).toBe('admin');
    expect(requirements(cmd).perm).toBe('admin');
  });
});

describe('helpers', () => {
  test.each([
    ['db', ['db']],
    ['a,b', ['a', 'b']],
    ['a*', '*'],
    ['a,b?', '*'],
  ])('patternLocks(%s)', (pattern, expected) => {
    expect(patternLocks(pattern)).toStrictEqual(expected);
  });
});
