import { backupDatabase, mergeRequirements, patternLocks, requirements } from '../../lib/commands/requirements';
import { parseCommands } from '../../lib/commands/parse';
import type { Command } from '../../lib/commands/types';

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
    expect(r.analyse).toBeUndefined();
  });

  test('commands on the opened database lock nothing without one (they fail when run)', () => {
    expect(requirements({ kind: 'delete', path: 'a' })).toStrictEqual({ perm: 'write', reads: [], writes: [] });
    expect(requirements({ kind: 'infoDb' })).toStrictEqual({ perm: 'read', reads: [], writes: [] });
  });

  test('queries and scripts carry a marker for analysis', () => {
    expect(requirements({ kind: 'xquery', query: 'count(/)' }, 'cur')).toStrictEqual({
      perm: 'none',
      reads: ['cur'],
      writes: [],
      analyse: { kind: 'query', query: 'count(/)', currentDb: 'cur' },
    });
    expect(requirements({ kind: 'execute', script: 'LIST' })).toStrictEqual({
      perm: 'none',
      reads: [],
      writes: [],
      analyse: { kind: 'script', script: 'LIST', currentDb: undefined },
    });
    expect(requirements({ kind: 'run', file: 'a.bxs' }, 'cur').analyse).toStrictEqual({
      kind: 'file',
      file: 'a.bxs',
      currentDb: 'cur',
    });
  });

  test('changing one’s own password needs no permission', () => {
    const cmd: Command = { kind: 'alterPassword', name: 'u', password: 'x' };
    expect(requirements(cmd, undefined, 'u').perm).toBe('none');
    expect(requirements(cmd, undefined, 'v').perm).toBe('admin');
    expect(requirements(cmd).perm).toBe('admin');
  });
});

describe('mergeRequirements', () => {
  test('the highest permission and the union of locks, sorted', () => {
    const r = mergeRequirements(parseCommands('LIST b\nLIST a\nCREATE DB c\nCOPY a d'));
    expect(r).toStrictEqual({ perm: 'create', reads: ['a', 'b'], writes: ['c', 'd'], analyses: [] });
  });

  test('OPEN changes the opened database for the commands after it; CLOSE closes it', () => {
    const r = mergeRequirements(parseCommands('DELETE x\nOPEN db\nADD <a/>\nXQUERY 1\nCLOSE\nXQUERY 2'), 'start');
    expect(r).toStrictEqual({
      perm: 'write',
      reads: [],
      writes: ['db', 'start'],
      analyses: [
        { kind: 'query', query: '1', currentDb: 'db' },
        { kind: 'query', query: '2', currentDb: undefined },
      ],
    });
  });

  test('a database written is not also listed as read', () => {
    expect(mergeRequirements(parseCommands('OPEN db\nINFO DB\nDELETE a'))).toStrictEqual({
      perm: 'write',
      reads: [],
      writes: ['db'],
      analyses: [],
    });
  });

  test('* absorbs every name', () => {
    const r = mergeRequirements(parseCommands('DROP DB x*\nCREATE DB a\nLIST'));
    expect(r.writes).toBe('*');
    expect(r.reads).toBe('*');
    const w = mergeRequirements(parseCommands('DROP DB x*\nLIST a'));
    expect(w).toStrictEqual({ perm: 'create', reads: [], writes: '*', analyses: [] });
  });

  test('an empty script needs nothing', () => {
    expect(mergeRequirements([])).toStrictEqual({ perm: 'none', reads: [], writes: [], analyses: [] });
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

  test('backupDatabase strips the timestamp', () => {
    expect(backupDatabase('db-2026-01-01-10-00-00')).toBe('db');
    expect(backupDatabase('my-db')).toBe('my-db');
  });
});
