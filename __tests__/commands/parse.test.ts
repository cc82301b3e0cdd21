import { failure } from '../helpers/failure';
import { commandHelp } from '../../lib/commands/registry';
import { parseCommands, parseSingleCommand, similarKeyword } from '../../lib/commands/parse';
import type { Command } from '../../lib/commands/types';

const syntax = (keyword: string): string => `Syntax: ${commandHelp(keyword, true)!.trimEnd()}`;

describe('string syntax: one command each', () => {
  const cases: [string, Command][] = [
    ['CREATE DB db', { kind: 'createDb', name: 'db' }],
    ['CREATE DATABASE db', { kind: 'createDb', name: 'db' }],
    ['CREATE DB db <a>x y</a>', { kind: 'createDb', name: 'db', input: '<a>x y</a>' }],
    ['CREATE DB db "/data/in put.xml"', { kind: 'createDb', name: 'db', input: '/data/in put.xml' }],
    ['DROP DB db*', { kind: 'dropDb', pattern: 'db*' }],
    ['DROP DATABASE a,b?', { kind: 'dropDb', pattern: 'a,b?' }],
    ['ALTER DB old new', { kind: 'alterDb', name: 'old', newName: 'new' }],
    ['COPY a b', { kind: 'copy', name: 'a', newName: 'b' }],
    ['OPEN db', { kind: 'open', name: 'db' }],
    ['OPEN db dir/a.xml', { kind: 'open', name: 'db', path: 'dir/a.xml' }],
    ['CLOSE', { kind: 'close' }],
    ['CHECK input.xml', { kind: 'check', input: 'input.xml' }],
    ['LIST', { kind: 'list' }],
    ['LIST db', { kind: 'list', name: 'db' }],
    ['LIST db dir', { kind: 'list', name: 'db', path: 'dir' }],
    ['DIR', { kind: 'dir' }],
    ['DIR a/b', { kind: 'dir', path: 'a/b' }],
    ['INFO', { kind: 'info' }],
    ['INFO DB', { kind: 'infoDb' }],
    ['INFO DATABASE', { kind: 'infoDb' }],
    ['INFO INDEX', { kind: 'infoIndex' }],
    ['INFO INDEX ELEMNAME', { kind: 'infoIndex', type: 'elemname' }],
    ['INFO STORAGE', { kind: 'infoStorage' }],
    ['INFO STORAGE 1 -5', { kind: 'infoStorage', start: '1', end: '-5' }],
    ['INSPECT', { kind: 'inspect' }],
    ['XQUERY 1 + 1', { kind: 'xquery', query: '1 + 1' }],
    ['XQUERY "a"', { kind: 'xquery', query: '"a"' }],
    ['XQUERY <hits>{ count(//text()) }</hits>', { kind: 'xquery', query: '<hits>{ count(//text()) }</hits>' }],
    ['GET a/b.xml', { kind: 'get', path: 'a/b.xml' }],
    ['BINARY GET x.bin', { kind: 'binaryGet', path: 'x.bin' }],
    ['BINARY PUT TO x.bin some text', { kind: 'binaryPut', path: 'x.bin', input: 'some text' }],
    ['BINARY PUT /tmp/file.bin', { kind: 'binaryPut', input: '/tmp/file.bin' }],
    ['ADD <a/>', { kind: 'add', input: '<a/>' }],
    ['ADD TO a/b.xml <b/>', { kind: 'add', path: 'a/b.xml', input: '<b/>' }],
    ['ADD TO "my dir/" "<a>x</a>"', { kind: 'add', path: 'my dir/', input: '<a>x</a>' }],
    ['ADD toast.xml', { kind: 'add', input: 'toast.xml' }],
    ['PUT a.xml <a/>', { kind: 'put', path: 'a.xml', input: '<a/>' }],
    ['DELETE a.xml', { kind: 'delete', path: 'a.xml' }],
    ['RENAME a.xml c.xml', { kind: 'rename', path: 'a.xml', newPath: 'c.xml' }],
    ['OPTIMIZE', { kind: 'optimize', all: false }],
    ['OPTIMIZE ALL', { kind: 'optimize', all: true }],
    ['FLUSH', { kind: 'flush' }],
    ['CREATE INDEX TEXT', { kind: 'createIndex', type: 'text' }],
    ['DROP INDEX fulltext', { kind: 'dropIndex', type: 'fulltext' }],
    ['EXPORT /tmp/out', { kind: 'export', path: '/tmp/out' }],
    ['SET stripws', { kind: 'set', option: 'stripws' }],
    ['SET stripws true', { kind: 'set', option: 'stripws', value: 'true' }],
    ['SET SERIALIZER indent=yes, method=xml', { kind: 'set', option: 'SERIALIZER', value: 'indent=yes, method=xml' }],
    ['SHOW OPTIONS', { kind: 'showOptions' }],
    ['SHOW OPTIONS stripws', { kind: 'showOptions', name: 'stripws' }],
    ['CREATE USER u', { kind: 'createUser', name: 'u' }],
    ['CREATE USER u pw', { kind: 'createUser', name: 'u', password: 'pw' }],
    ['CREATE USER u "p w"', { kind: 'createUser', name: 'u', password: 'p w' }],
    ['DROP USER u', { kind: 'dropUser', pattern: 'u' }],
    ['DROP USER u* ON db?', { kind: 'dropUser', pattern: 'u*', on: 'db?' }],
    ['ALTER USER u v', { kind: 'alterUser', name: 'u', newName: 'v' }],
    ['ALTER PASSWORD u', { kind: 'alterPassword', name: 'u' }],
    ['ALTER PASSWORD u secret', { kind: 'alterPassword', name: 'u', password: 'secret' }],
    ['PASSWORD secret', { kind: 'password', password: 'secret' }],
    ['GRANT READ TO u', { kind: 'grant', permission: 'read', user: 'u' }],
    ['GRANT write ON db* TO u', { kind: 'grant', permission: 'write', on: 'db*', user: 'u' }],
    ['GRANT none on db to u', { kind: 'grant', permission: 'none', on: 'db', user: 'u' }],
    ['SHOW USERS', { kind: 'showUsers' }],
    ['SHOW USERS ON db', { kind: 'showUsers', database: 'db' }],
    ['SHOW SESSIONS', { kind: 'showSessions' }],
    ['KILL u', { kind: 'kill', target: 'u' }],
    ['CREATE BACKUP', { kind: 'createBackup' }],
    ['CREATE BACKUP db*', { kind: 'createBackup', pattern: 'db*' }],
    ['RESTORE db', { kind: 'restore', name: 'db' }],
    ['RESTORE db-2026-01-01-10-00-00', { kind: 'restore', name: 'db-2026-01-01-10-00-00' }],
    ['RESTORE', { kind: 'restore' }],
    ['DROP BACKUP db', { kind: 'dropBackup', pattern: 'db' }],
    ['ALTER BACKUP a b', { kind: 'alterBackup', name: 'a', newName: 'b' }],
    ['SHOW BACKUPS', { kind: 'showBackups' }],
    ['RUN query.xq', { kind: 'run', file: 'query.xq' }],
    ['RUN "my script.bxs"', { kind: 'run', file: 'my script.bxs' }],
    ['EXECUTE LIST; INFO', { kind: 'execute', script: 'LIST; INFO' }],
    ['EXECUTE "<info/>"', { kind: 'execute', script: '<info/>' }],
    ['FIND hello world', { kind: 'find', query: 'hello world' }],
    ['TEST tests/', { kind: 'test', path: 'tests/' }],
    ['HELP', { kind: 'help' }],
    ['HELP xquery', { kind: 'help', command: 'xquery' }],
    ['EXIT', { kind: 'exit' }],
    ['QUIT', { kind: 'exit' }],
    ['JOBS LIST', { kind: 'jobsList' }],
    ['JOBS STOP job1', { kind: 'jobsStop', id: 'job1' }],
    ['JOBS RESULT job1', { kind: 'jobsResult', id: 'job1' }],
    ['REPO INSTALL http://x/p.xar', { kind: 'repoInstall', path: 'http://x/p.xar' }],
    ['REPO DELETE p', { kind: 'repoDelete', name: 'p' }],
    ['REPO LIST', { kind: 'repoList' }],
    // older names map to the newer commands
    ['REPLACE a.xml <a/>', { kind: 'put', path: 'a.xml', input: '<a/>' }],
    ['STORE TO x.bin data', { kind: 'binaryPut', path: 'x.bin', input: 'data' }],
    ['RETRIEVE x.bin', { kind: 'binaryGet', path: 'x.bin' }],
  ];
  test.each(cases)('%s', (text, expected) => {
    expect(parseSingleCommand(text)).toStrictEqual(expected);
    expect(parseCommands(text)).toStrictEqual([expected]);
  });
});

describe('string syntax: case, spacing, quoting', () => {
  test.each([
    ['create db db', { kind: 'createDb', name: 'db' }],
    ['Create Db MyDb', { kind: 'createDb', name: 'MyDb' }],
    ['  list   db   ', { kind: 'list', name: 'db' }],
    ['\tinfo\tdb', { kind: 'infoDb' }],
    ['add to a.xml <a/>', { kind: 'add', path: 'a.xml', input: '<a/>' }],
    ['ADD To a.xml <a/>', { kind: 'add', path: 'a.xml', input: '<a/>' }],
    ['xquery  1', { kind: 'xquery', query: '1' }],
    ['DELETE "a b.xml"', { kind: 'delete', path: 'a b.xml' }],
    ['DELETE "a;b.xml"', { kind: 'delete', path: 'a;b.xml' }],
    ['RENAME "a b" "c d"', { kind: 'rename', path: 'a b', newPath: 'c d' }],
    ['CREATE DB db.v1', { kind: 'createDb', name: 'db.v1' }],
    ["CREATE DB a-b_c+d=e~f!g#h$i%j^k&l(m)n[o]p{q}r@s't`u", { kind: 'createDb', name: "a-b_c+d=e~f!g#h$i%j^k&l(m)n[o]p{q}r@s't`u" }],
    ['PUT a.xml "<a>quoted</a>"', { kind: 'put', path: 'a.xml', input: '<a>quoted</a>' }],
  ] as [string, Command][])('%s', (text, expected) => {
    expect(parseSingleCommand(text)).toStrictEqual(expected);
  });
});

describe('string syntax: scripts', () => {
  test('commands separated by ; and newlines', () => {
    expect(parseCommands('CREATE DB a; OPEN a\nLIST;INFO DB\r\nCLOSE\rDIR')).toStrictEqual([
      { kind: 'createDb', name: 'a' },
      { kind: 'open', name: 'a' },
      { kind: 'list' },
      { kind: 'infoDb' },
      { kind: 'close' },
      { kind: 'dir' },
    ]);
  });

  test('comment lines and empty lines are skipped', () => {
    expect(parseCommands('# set up\n\n   # indented comment\nLIST\n   \n#XQUERY 1')).toStrictEqual([{ kind: 'list' }]);
  });

  test('# inside a line is not a comment', () => {
    expect(parseCommands('XQUERY "#"')).toStrictEqual([{ kind: 'xquery', query: '"#"' }]);
  });

  test('empty commands between separators are skipped', () => {
    expect(parseCommands(';LIST;;INFO;')).toStrictEqual([{ kind: 'list' }, { kind: 'info' }]);
  });

  test('rest-of-line arguments swallow a following ;', () => {
    expect(parseCommands('XQUERY 1; LIST')).toStrictEqual([{ kind: 'xquery', query: '1; LIST' }]);
    expect(parseCommands('ADD TO a.xml <a/>; LIST')).toStrictEqual([
      { kind: 'add', path: 'a.xml', input: '<a/>; LIST' },
    ]);
    expect(parseCommands('SET stripws true; LIST')).toStrictEqual([
      { kind: 'set', option: 'stripws', value: 'true; LIST' },
    ]);
    expect(parseCommands('CREATE DB db <a/>;OPEN db')).toStrictEqual([
      { kind: 'createDb', name: 'db', input: '<a/>;OPEN db' },
    ]);
    expect(parseCommands('EXECUTE "LIST;INFO"')).toStrictEqual([{ kind: 'execute', script: 'LIST;INFO' }]);
  });

  test('a ; where an optional rest-of-line argument would start ends the command', () => {
    expect(parseCommands('CREATE DB a; OPEN a')).toStrictEqual([
      { kind: 'createDb', name: 'a' },
      { kind: 'open', name: 'a' },
    ]);
    expect(parseCommands('SET stripws;LIST')).toStrictEqual([{ kind: 'set', option: 'stripws' }, { kind: 'list' }]);
    expect(failure(() => parseCommands('XQUERY ;1')).message).toBe(syntax('XQUERY'));
  });

  test('rest-of-line arguments end at the line end', () => {
    expect(parseCommands('XQUERY 1\nXQUERY 2')).toStrictEqual([
      { kind: 'xquery', query: '1' },
      { kind: 'xquery', query: '2' },
    ]);
  });

  test('an empty script has no commands', () => {
    expect(parseCommands('')).toStrictEqual([]);
    expect(parseCommands('\n# only a comment\n')).toStrictEqual([]);
  });

  test('the example script of the reference documentation', () => {
    const script = 'CREATE DB test\nADD TO embedded.xml <root>embedded</root>\n# run query\nXQUERY <hits>{ count(//text()) }</hits>\nCLOSE';
    expect(parseCommands(script)).toStrictEqual([
      { kind: 'createDb', name: 'test' },
      { kind: 'add', path: 'embedded.xml', input: '<root>embedded</root>' },
      { kind: 'xquery', query: '<hits>{ count(//text()) }</hits>' },
      { kind: 'close' },
    ]);
  });
});

describe('single command (REST command operation)', () => {
  test('the whole input is one command: a query may span lines', () => {
    expect(parseSingleCommand('XQUERY 1 +\n  2')).toStrictEqual({ kind: 'xquery', query: '1 +\n  2' });
  });

  test.each(['list; list', 'LIST;INFO', 'CLOSE; CLOSE'])('more than one command: %s', (text) => {
    expect(failure(() => parseSingleCommand(text))).toStrictEqual({
      code: 'SINGLE_CMD',
      status: 500,
      message: 'Single command expected.',
    });
  });

  test.each(['', '   ', ';', '# comment'])('no command: %j', (text) => {
    expect(failure(() => parseSingleCommand(text)).code).toBe('SINGLE_CMD');
  });

  test('XML syntax is accepted too', () => {
    expect(parseSingleCommand('<info-db/>')).toStrictEqual({ kind: 'infoDb' });
    expect(failure(() => parseSingleCommand('<commands><info/><info/></commands>')).code).toBe('SINGLE_CMD');
  });
});

describe('string syntax: errors', () => {
  test.each([
    ['FOO', 'UNKNOWN_TRY_X', "Unknown command: FOO. Try 'help'."],
    ['foo bar', 'UNKNOWN_TRY_X', "Unknown command: foo. Try 'help'."],
    ['LIST; BLAH', 'UNKNOWN_TRY_X', "Unknown command: BLAH. Try 'help'."],
    ['XQERY 1', 'UNKNOWN_SIMILAR_X_X', "Unknown command: XQERY. Did you mean 'XQUERY'?"],
    ['lsit', 'UNKNOWN_SIMILAR_X_X', "Unknown command: LSIT. Did you mean 'LIST'?"],
    ['OPTIMISE', 'UNKNOWN_SIMILAR_X_X', "Unknown command: OPTIMISE. Did you mean 'OPTIMIZE'?"],
    ['CREATE DBB x', 'UNKNOWN_SIMILAR_X_X', "Unknown command: DBB. Did you mean 'DB'?"],
  ])('%s', (text, code, message) => {
    expect(failure(() => parseSingleCommand(text))).toStrictEqual({ code, status: 500, message });
  });

  test.each([
    ['CREATE', 'CREATE'],
    ['CREATE FOO x', 'CREATE'],
    ['CREATE DB', 'CREATE'],
    ['CREATE DB a/b', 'CREATE'],
    ['CREATE DB .db', 'CREATE'],
    ['CREATE DB db.', 'CREATE'],
    ['CREATE DB "db"', 'CREATE'],
    ['CREATE INDEX', 'CREATE'],
    ['CREATE INDEX names', 'CREATE'],
    ['DROP DB', 'DROP'],
    ['DROP USER u ON', 'DROP'],
    ['ALTER DB a', 'ALTER'],
    ['COPY a', 'COPY'],
    ['OPEN', 'OPEN'],
    ['CLOSE now', 'CLOSE'],
    ['LIST db dir extra', 'LIST'],
    ['INFO foo', 'INFO'],
    ['INFO STORAGE x', 'INFO'],
    ['XQUERY', 'XQUERY'],
    ['GET', 'GET'],
    ['BINARY', 'BINARY'],
    ['BINARY PUT TO x.bin', 'BINARY'],
    ['ADD', 'ADD'],
    ['ADD TO a.xml', 'ADD'],
    ['PUT a.xml', 'PUT'],
    ['DELETE', 'DELETE'],
    ['RENAME a', 'RENAME'],
    ['OPTIMIZE now', 'OPTIMIZE'],
    ['SET', 'SET'],
    ['SHOW', 'SHOW'],
    ['SHOW USERS ON', 'SHOW'],
    ['GRANT', 'GRANT'],
    ['GRANT READ u', 'GRANT'],
    ['GRANT READ ON db u', 'GRANT'],
    ['GRANT FOO TO u', 'GRANT'],
    ['GRANT READ TO', 'GRANT'],
    ['RUN', 'RUN'],
    ['EXECUTE', 'EXECUTE'],
    ['FIND', 'FIND'],
    ['EXPORT', 'EXPORT'],
    ['KILL', 'KILL'],
    ['DROP BACKUP', 'DROP'],
    ['JOBS STOP', 'JOBS'],
    ['REPO', 'REPO'],
    ['HELP a/b', 'HELP'],
  ])('%s → syntax of %s', (text, keyword) => {
    expect(failure(() => parseSingleCommand(text))).toStrictEqual({
      code: 'SYNTAX_X',
      status: 500,
      message: syntax(keyword),
    });
  });

  test('the syntax message shows the command help', () => {
    expect(failure(() => parseSingleCommand('COPY a')).message).toBe(
      'Syntax: COPY [name] [newname]\n  Copy a database.\n\nAn existing database [newname] is replaced.',
    );
    expect(failure(() => parseSingleCommand('XQUERY')).message).toBe('Syntax: XQUERY [query]\n  Evaluate a query.');
  });

  test('legacy keywords report their own syntax', () => {
    expect(failure(() => parseSingleCommand('REPLACE a.xml')).message).toBe(
      'Syntax: REPLACE [path] [input]\n  Old name of PUT.',
    );
  });

  test('an error on a later line stops the script', () => {
    expect(failure(() => parseCommands('LIST\nXQUERY 1 +\n  2')).message).toBe("Unknown command: 2. Try 'help'.");
  });
});

describe('similarKeyword', () => {
  test.each([
    ['XQERY', 'XQUERY'],
    ['HLEP', 'HELP'],
    ['OPN', 'OPEN'],
    ['FOO', undefined],
    ['CREATEDB', 'CREATE'],
    ['CREATEDBX', undefined],
    ['OPTIMIZZE', 'OPTIMIZE'],
  ])('%s → %s', (word, expected) => {
    expect(similarKeyword(word, ['XQUERY', 'HELP', 'OPEN', 'OPTIMIZE', 'CREATE', 'LIST'])).toBe(expected);
  });
});
