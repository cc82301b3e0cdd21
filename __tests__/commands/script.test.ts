import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { failure } from '../helpers/failure';
import { elementSyntax, parseScript, parseXmlCommands } from '../../lib/commands/script';
import type { Command } from '../../lib/commands/types';

const fixture = (name: string): string => readFileSync(join(__dirname, '../../fixtures/commands', name), 'utf8');

describe('XML syntax: each element', () => {
  const cases: [string, Command][] = [
    ['<create-db name="db"/>', { kind: 'createDb', name: 'db' }],
    ['<create-db name="db"><root/></create-db>', { kind: 'createDb', name: 'db', input: '<root/>' }],
    ['<create-db name="db">/data/input.xml</create-db>', { kind: 'createDb', name: 'db', input: '/data/input.xml' }],
    ['<drop-db name="db*"/>', { kind: 'dropDb', pattern: 'db*' }],
    ['<alter-db name="a" newname="b"/>', { kind: 'alterDb', name: 'a', newName: 'b' }],
    ['<copy name="a" newname="b"/>', { kind: 'copy', name: 'a', newName: 'b' }],
    ['<open name="db"/>', { kind: 'open', name: 'db' }],
    ['<open name="db" path="a"/>', { kind: 'open', name: 'db', path: 'a' }],
    ['<close/>', { kind: 'close' }],
    ['<check input="x.xml"/>', { kind: 'check', input: 'x.xml' }],
    ['<add path="a/b.xml"><b/></add>', { kind: 'add', path: 'a/b.xml', input: '<b/>' }],
    ['<add><b/></add>', { kind: 'add', input: '<b/>' }],
    ['<add path="x.xml"> <b>1</b> <c/> </add>', { kind: 'add', path: 'x.xml', input: '<b>1</b> <c/>' }],
    ['<put path="a.xml"><a/></put>', { kind: 'put', path: 'a.xml', input: '<a/>' }],
    ['<replace path="a.xml"><a/></replace>', { kind: 'put', path: 'a.xml', input: '<a/>' }],
    ['<delete path="a.xml"/>', { kind: 'delete', path: 'a.xml' }],
    ['<rename path="a.xml" newpath="c.xml"/>', { kind: 'rename', path: 'a.xml', newPath: 'c.xml' }],
    ['<binary-put path="x.bin">text input</binary-put>', { kind: 'binaryPut', path: 'x.bin', input: 'text input' }],
    ['<binary-put>/tmp/x.bin</binary-put>', { kind: 'binaryPut', input: '/tmp/x.bin' }],
    ['<store path="x.bin">data</store>', { kind: 'binaryPut', path: 'x.bin', input: 'data' }],
    ['<binary-get path="x.bin"/>', { kind: 'binaryGet', path: 'x.bin' }],
    ['<retrieve path="x.bin"/>', { kind: 'binaryGet', path: 'x.bin' }],
    ['<get path="a.xml"/>', { kind: 'get', path: 'a.xml' }],
    ['<list/>', { kind: 'list' }],
    ['<list name="db" path="dir"/>', { kind: 'list', name: 'db', path: 'dir' }],
    ['<dir/>', { kind: 'dir' }],
    ['<dir path="dir"/>', { kind: 'dir', path: 'dir' }],
    ['<info/>', { kind: 'info' }],
    ['<info-db/>', { kind: 'infoDb' }],
    ['<info-index/>', { kind: 'infoIndex' }],
    ['<info-index type="TEXT"/>', { kind: 'infoIndex', type: 'text' }],
    ['<info-storage start="1" end="10"/>', { kind: 'infoStorage', start: '1', end: '10' }],
    ['<inspect/>', { kind: 'inspect' }],
    ['<xquery>1 + 1</xquery>', { kind: 'xquery', query: '1 + 1' }],
    ['<xquery>1 &lt; 2</xquery>', { kind: 'xquery', query: '1 < 2' }],
    ['<xquery><![CDATA[<a>{1 < 2}</a>]]></xquery>', { kind: 'xquery', query: '<a>{1 < 2}</a>' }],
    ['<xquery>\n  for $i in 1 to 3\n  return $i\n</xquery>', { kind: 'xquery', query: 'for $i in 1 to 3\n  return $i' }],
    ['<find>hello</find>', { kind: 'find', query: 'hello' }],
    ['<set option="stripws">true</set>', { kind: 'set', option: 'stripws', value: 'true' }],
    ['<set option="stripws"/>', { kind: 'set', option: 'stripws' }],
    ['<show-options/>', { kind: 'showOptions' }],
    ['<show-options name="stripws"/>', { kind: 'showOptions', name: 'stripws' }],
    ['<create-user name="u">pw</create-user>', { kind: 'createUser', name: 'u', password: 'pw' }],
    ['<create-user name="u"/>', { kind: 'createUser', name: 'u' }],
    ['<drop-user name="u"/>', { kind: 'dropUser', pattern: 'u' }],
    ['<drop-user name="u" pattern="db*"/>', { kind: 'dropUser', pattern: 'u', on: 'db*' }],
    ['<alter-user name="u" newname="v"/>', { kind: 'alterUser', name: 'u', newName: 'v' }],
    ['<alter-password name="u">pw</alter-password>', { kind: 'alterPassword', name: 'u', password: 'pw' }],
    ['<password>pw</password>', { kind: 'password', password: 'pw' }],
    ['<grant name="u" permission="read" pattern="db*"/>', { kind: 'grant', permission: 'read', user: 'u', on: 'db*' }],
    ['<grant name="u" permission="ADMIN"/>', { kind: 'grant', permission: 'admin', user: 'u' }],
    ['<show-users/>', { kind: 'showUsers' }],
    ['<show-users database="db"/>', { kind: 'showUsers', database: 'db' }],
    ['<show-sessions/>', { kind: 'showSessions' }],
    ['<kill target="u"/>', { kind: 'kill', target: 'u' }],
    ['<optimize/>', { kind: 'optimize', all: false }],
    ['<optimize-all/>', { kind: 'optimize', all: true }],
    ['<flush/>', { kind: 'flush' }],
    ['<create-index type="fulltext"/>', { kind: 'createIndex', type: 'fulltext' }],
    ['<drop-index type="TEXT"/>', { kind: 'dropIndex', type: 'text' }],
    ['<export path="/tmp/out"/>', { kind: 'export', path: '/tmp/out' }],
    ['<create-backup/>', { kind: 'createBackup' }],
    ['<create-backup name="db"/>', { kind: 'createBackup', pattern: 'db' }],
    ['<restore name="db"/>', { kind: 'restore', name: 'db' }],
    ['<drop-backup name="db"/>', { kind: 'dropBackup', pattern: 'db' }],
    ['<alter-backup name="a" newname="b"/>', { kind: 'alterBackup', name: 'a', newName: 'b' }],
    ['<show-backups/>', { kind: 'showBackups' }],
    ['<run file="x.bxs"/>', { kind: 'run', file: 'x.bxs' }],
    ['<execute>LIST</execute>', { kind: 'execute', script: 'LIST' }],
    ['<execute><commands><info/></commands></execute>', { kind: 'execute', script: '<commands><info/></commands>' }],
    ['<test path="t.xqm"/>', { kind: 'test', path: 't.xqm' }],
    ['<help/>', { kind: 'help' }],
    ['<help>list</help>', { kind: 'help', command: 'list' }],
    ['<exit/>', { kind: 'exit' }],
    ['<quit/>', { kind: 'exit' }],
    ['<jobs-list/>', { kind: 'jobsList' }],
    ['<jobs-stop id="job1"/>', { kind: 'jobsStop', id: 'job1' }],
    ['<jobs-result id="job1"/>', { kind: 'jobsResult', id: 'job1' }],
    ['<repo-install path="p.xar"/>', { kind: 'repoInstall', path: 'p.xar' }],
    ['<repo-delete name="p"/>', { kind: 'repoDelete', name: 'p' }],
    ['<repo-list/>', { kind: 'repoList' }],
  ];
  test.each(cases)('%s', (xml, expected) => {
    expect(parseXmlCommands(xml)).toStrictEqual([expected]);
    expect(parseXmlCommands(`<commands>${xml}</commands>`)).toStrictEqual([expected]);
  });
});

describe('XML syntax: scripts and namespaces', () => {
  test('the seed example', () => {
    expect(parseXmlCommands('<commands><create-db name="acc_x"/><info-db/></commands>')).toStrictEqual([
      { kind: 'createDb', name: 'acc_x' },
      { kind: 'infoDb' },
    ]);
  });

  test('an empty <commands> has no commands; whitespace and comments are allowed', () => {
    expect(parseXmlCommands('<commands/>')).toStrictEqual([]);
    expect(parseXmlCommands('<?xml version="1.0"?>\n<commands>\n  <!-- c -->\n  <close/>\n</commands>')).toStrictEqual([
      { kind: 'close' },
    ]);
  });

  test('elements in the REST namespace are read as no namespace', () => {
    const xml =
      '<commands xmlns="http://basex.org/rest"><create-db name="db"/><add path="a.xml"><a x="1"><b/></a></add></commands>';
    expect(parseXmlCommands(xml)).toStrictEqual([
      { kind: 'createDb', name: 'db' },
      { kind: 'add', path: 'a.xml', input: '<a x="1"><b/></a>' },
    ]);
    expect(parseXmlCommands('<rest:info xmlns:rest="http://basex.org/rest"/>')).toStrictEqual([{ kind: 'info' }]);
  });

  test('embedded input keeps its own namespaces', () => {
    const xml = '<commands xmlns:p="urn:p"><put path="a.xml"><p:a xmlns="urn:d"><b p:x="1"/></p:a></put></commands>';
    expect(parseXmlCommands(xml)).toStrictEqual([
      { kind: 'put', path: 'a.xml', input: '<p:a xmlns:p="urn:p"><b xmlns="urn:d" p:x="1"/></p:a>' },
    ]);
  });

  test('embedded input is written back with escaping', () => {
    expect(parseXmlCommands('<add path="a.xml"><a t="&quot;&lt;">1 &lt; 2 &amp; <![CDATA[>]]></a></add>')).toStrictEqual([
      { kind: 'add', path: 'a.xml', input: '<a t="&quot;&lt;">1 &lt; 2 &amp; &gt;</a>' },
    ]);
  });

  test('attribute values are trimmed', () => {
    expect(parseXmlCommands('<open name=" db "/>')).toStrictEqual([{ kind: 'open', name: 'db' }]);
  });
});

describe('XML syntax: errors', () => {
  test.each([
    ['<foo/>', 'UNKNOWN_CMD_X', 'Unknown command: <foo/>.'],
    ['<commands><list/><foo a="1"/></commands>', 'UNKNOWN_CMD_X', 'Unknown command: <foo/>.'],
    ['<x:list xmlns:x="urn:x"/>', 'UNKNOWN_CMD_X', 'Unknown command: <x:list/>.'],
    ['<commands>text<list/></commands>', 'SYNTAX_X', 'Syntax: <commands><...></commands>'],
    ['<create-db/>', 'SYNTAX_X', 'Syntax: <create-db name="...">([input])</create-db>'],
    ['<create-db name=""/>', 'SYNTAX_X', 'Syntax: <create-db name="...">([input])</create-db>'],
    ['<create-db name="  "/>', 'SYNTAX_X', 'Syntax: <create-db name="...">([input])</create-db>'],
    ['<create-db name="db" path="x"/>', 'SYNTAX_X', 'Syntax: <create-db name="...">([input])</create-db>'],
    ['<add path="a.xml"/>', 'SYNTAX_X', 'Syntax: <add (path="...")>[input]</add>'],
    ['<add path="a.xml">   </add>', 'SYNTAX_X', 'Syntax: <add (path="...")>[input]</add>'],
    ['<list names="db"/>', 'SYNTAX_X', 'Syntax: <list (name="...") (path="...")/>'],
    ['<list x:name="db" xmlns:x="urn:x"/>', 'SYNTAX_X', 'Syntax: <list (name="...") (path="...")/>'],
    ['<close>now</close>', 'SYNTAX_X', 'Syntax: <close/>'],
    ['<close><x/></close>', 'SYNTAX_X', 'Syntax: <close/>'],
    ['<info-db></info-db>', undefined, undefined],
    ['<rename path="a"/>', 'SYNTAX_X', 'Syntax: <rename path="..." newpath="..."/>'],
    ['<xquery/>', 'SYNTAX_X', 'Syntax: <xquery>[query]</xquery>'],
    ['<xquery><a/></xquery>', 'SYNTAX_X', 'Syntax: <xquery>[query]</xquery>'],
    ['<set option="x"><v/></set>', 'SYNTAX_X', 'Syntax: <set option="...">([value])</set>'],
    ['<grant name="u" permission="read" pattern=""/>', 'SYNTAX_X', 'Syntax: <grant name="..." permission="..." (pattern="...")/>'],
    ['<grant name="u" permission="superuser"/>', 'PERM_UNKNOWN_X', 'superuser permission is unknown.'],
    ['<create-index type="names"/>', 'SYNTAX_X', 'Syntax: <create-index type="..."/>'],
    ['<info-index type="x"/>', 'SYNTAX_X', 'Syntax: <info-index (type="...")/>'],
    ['<drop-user/>', 'SYNTAX_X', 'Syntax: <drop-user name="..." (pattern="...")/>'],
  ])('%s', (xml, code, message) => {
    if (code === undefined) {
      expect(() => parseXmlCommands(xml)).not.toThrow();
      return;
    }
    expect(failure(() => parseXmlCommands(xml))).toStrictEqual({ code, status: 500, message });
  });

  test.each(['<commands>', '<list/><list/>', '<a></b>', '<list name="x/>'])('not well-formed: %s', (xml) => {
    const f = failure(() => parseXmlCommands(xml));
    expect(f.code).toBe('XML_SCRIPT_X');
    expect(f.status).toBe(500);
    expect(f.message).toMatch(/^Command script is not well-formed: ./);
  });

  test('elementSyntax lists the shape of each element', () => {
    expect(elementSyntax('binary-put')).toBe('<binary-put (path="...")>[input]</binary-put>');
    expect(elementSyntax('alter-password')).toBe('<alter-password name="...">([password])</alter-password>');
    expect(elementSyntax('nothing')).toBeUndefined();
  });
});

describe('parseScript', () => {
  test('string syntax unless the text starts with <', () => {
    expect(parseScript('  LIST\nINFO')).toStrictEqual([{ kind: 'list' }, { kind: 'info' }]);
    expect(parseScript('\n  <commands><list/><info/></commands>\n')).toStrictEqual([{ kind: 'list' }, { kind: 'info' }]);
    expect(parseScript('<info/>')).toStrictEqual([{ kind: 'info' }]);
    expect(parseScript('')).toStrictEqual([]);
  });

  test('both fixture scripts give the same commands', () => {
    const expected: Command[] = [
      { kind: 'createDb', name: 'acc_script' },
      { kind: 'add', path: 'embedded.xml', input: '<root>embedded</root>' },
      { kind: 'put', path: 'docs/a.xml', input: '<a>one; two</a>' },
      { kind: 'xquery', query: '<hits>{ count(//text()) }</hits>' },
      { kind: 'list', name: 'acc_script' },
      { kind: 'infoDb' },
      { kind: 'close' },
    ];
    expect(parseScript(fixture('setup.bxs'))).toStrictEqual(expected);
    expect(parseScript(fixture('setup-xml.bxs'))).toStrictEqual(expected);
  });
});
