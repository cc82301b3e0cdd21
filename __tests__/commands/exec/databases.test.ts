import fs from 'node:fs/promises';
import path from 'node:path';
import { newState, setup, type Fixture } from './setup';
import { tempDir } from '../../helpers/temp-dir';

const INPUT = path.join(__dirname, '../../../fixtures/commands/exec/input');

let f: Fixture;
beforeEach(async () => {
  f = await setup();
});
afterEach(async () => {
  await f.close();
});

describe('CREATE DB', () => {
  test('creates an empty database; no output', async () => {
    expect(await f.run('CREATE DB db')).toBe('');
    expect(await f.databases()).toStrictEqual(['db']);
    expect(await f.resources('db')).toStrictEqual([]);
  });

  test('an XML string becomes name.xml, normalised', async () => {
    await f.run('CREATE DB db <?xml version="1.0"?><a><![CDATA[x]]></a>');
    expect(await f.resources('db')).toStrictEqual(['db.xml']);
    expect(await f.run('OPEN db\nGET db.xml')).toBe('<a>x</a>');
  });

  test('an existing database is replaced', async () => {
    await f.run('CREATE DB db <a/>\nOPEN db\nADD TO b.xml <b/>');
    await f.run('CREATE DB db');
    expect(await f.resources('db')).toStrictEqual([]);
  });

  test('XML input is parsed with the session options (STRIPWS)', async () => {
    await f.run('SET STRIPWS true\nCREATE DB db <a> <b/> </a>');
    expect(await f.run('OPEN db\nGET db.xml')).toBe('<a><b/></a>');
  });

  test('malformed XML: the command fails with 500 and nothing is created', async () => {
    const e = await f.fail('CREATE DB db <a>');
    expect(e.status).toBe(500);
    expect(e.code).toBe('XML_EOF');
    expect(await f.databases()).toStrictEqual([]);
  });

  test('a server file or folder as input needs file access', async () => {
    const e = await f.fail(`CREATE DB db ${INPUT}`);
    expect(e).toMatchObject({ status: 500, code: 'FILE_ACCESS_X', message: `Access to server files is not allowed: ${INPUT}.` });
    expect(await f.databases()).toStrictEqual([]);
  });

  test('with file access: a folder adds its XML files (CREATEFILTER), a file keeps its name', async () => {
    const env = f.env(f.admin, { allowFileAccess: true });
    await f.run(`CREATE DB dir ${INPUT}`, { env });
    expect(await f.resources('dir')).toStrictEqual(['a.xml', 'sub/b.xml']);
    await f.run(`SET ADDRAW true\nCREATE DB raw ${INPUT}`, { env });
    expect(await f.resources('raw')).toStrictEqual(['a.xml', 'notes.txt', 'sub/b.xml']);
    await f.run(`CREATE DB file ${path.join(INPUT, 'sub', 'b.xml')}`, { env });
    expect(await f.resources('file')).toStrictEqual(['b.xml']);
    const list = await f.run('LIST', { env });
    expect(list).toContain(`dir   2          `);
    expect(list).toContain(INPUT);
  });

  test('a missing server file', async () => {
    const env = f.env(f.admin, { allowFileAccess: true });
    const e = await f.fail(`CREATE DB db ${path.join(INPUT, 'missing.xml')}`, { env });
    expect(e).toMatchObject({ status: 500, code: 'FILE_NOT_FOUND_X' });
  });
});

describe('DROP DB', () => {
  beforeEach(async () => {
    await f.run('CREATE DB a1\nCREATE DB a2\nCREATE DB b1\nCREATE DB abc');
  });

  test('by name; an unknown name is no error', async () => {
    expect(await f.run('DROP DB a1')).toBe('');
    expect(await f.run('DROP DB nothing')).toBe('');
    expect(await f.databases()).toStrictEqual(['a2', 'abc', 'b1']);
  });

  test.each([
    ['a*', ['b1']],
    ['a?', ['abc', 'b1']],
    ['?1', ['a2', 'abc']],
    ['a1,b1', ['a2', 'abc']],
    ['*', []],
    ['x*', ['a1', 'a2', 'abc', 'b1']],
  ])('glob %s', async (pattern, left) => {
    await f.run(`DROP DB ${pattern}`);
    expect(await f.databases()).toStrictEqual(left);
  });

  test('dropping the opened database closes it', async () => {
    const state = newState();
    await f.run('OPEN a1\nDROP DB a*', { state });
    expect(state.currentDb).toBeUndefined();
  });
});

describe('ALTER DB, COPY', () => {
  test('ALTER DB renames; the opened database follows', async () => {
    const state = newState();
    await f.run('CREATE DB a <x/>\nOPEN a\nALTER DB a b', { state });
    expect(await f.databases()).toStrictEqual(['b']);
    expect(state.currentDb).toBe('b');
    expect(await f.resources('b')).toStrictEqual(['a.xml']);
  });

  test('ALTER DB onto an existing name, or of an unknown one, fails with 500', async () => {
    await f.run('CREATE DB a\nCREATE DB b');
    expect(await f.fail('ALTER DB a b')).toMatchObject({ status: 500, code: 'DB_EXISTS_X' });
    expect(await f.fail('ALTER DB zz yy')).toMatchObject({ status: 500, code: 'DB_NOT_FOUND_X', message: "Database 'zz' was not found." });
  });

  test('COPY copies the resources; the source stays', async () => {
    await f.run('CREATE DB a <x/>\nCOPY a b');
    expect(await f.databases()).toStrictEqual(['a', 'b']);
    expect(await f.resources('b')).toStrictEqual(['a.xml']);
  });
});

describe('OPEN, CLOSE', () => {
  test('OPEN sets the database and path; CLOSE clears them', async () => {
    await f.run('CREATE DB db');
    const state = newState();
    await f.run('OPEN db dir', { state });
    expect(state).toMatchObject({ currentDb: 'db', currentPath: 'dir' });
    await f.run('CLOSE', { state });
    expect(state.currentDb).toBeUndefined();
    expect(state.currentPath).toBeUndefined();
  });

  test('OPEN normalises the path; an invalid one fails with 500', async () => {
    await f.run('CREATE DB db');
    const state = newState();
    await f.run('OPEN db a//b/./c/', { state });
    expect(state.currentPath).toBe('a/b/c');
    await f.run('OPEN db /', { state });
    expect(state.currentPath).toBeUndefined();
    expect(await f.fail('OPEN db ../x')).toMatchObject({ status: 500, code: 'INVALID_PATH_X' });
  });

  test('OPEN of an unknown database: 404', async () => {
    expect(await f.fail('OPEN nope')).toStrictEqual({ status: 404, code: 'DB_NOT_FOUND_X', message: "Database 'nope' was not found." });
  });

  test('commands needing an opened database fail without one', async () => {
    for (const cmd of ['INFO DB', 'DIR', 'GET a.xml', 'ADD <a/>', 'DELETE a', 'OPTIMIZE', 'FLUSH', 'CREATE INDEX TEXT']) {
      expect(await f.fail(cmd)).toStrictEqual({ status: 500, code: 'NO_DB_OPENED', message: 'No database opened.' });
    }
  });
});

describe('OPTIMIZE, FLUSH, indexes', () => {
  test('accepted without output; index commands set the flag INFO DB shows', async () => {
    await f.run('CREATE DB db');
    expect(await f.run('OPEN db\nOPTIMIZE\nOPTIMIZE ALL\nFLUSH\nDROP INDEX TEXT\nDROP INDEX FULLTEXT')).toBe('');
    const info = await f.run('OPEN db\nINFO DB');
    expect(info).toContain('\nIndexes\n TEXTINDEX: false\n ATTRINDEX: true\n TOKENINDEX: true\n FTINDEX: false\n');
  });

  test('the full-text index: CREATE INDEX FULLTEXT, SET FTINDEX before CREATE DB, with the session full-text options', async () => {
    await f.run('CREATE DB db');
    expect(await f.run('OPEN db\nINFO INDEX FULLTEXT')).toBe(' FTINDEX: false\n');
    expect(await f.run('SET CASESENS true\nOPEN db\nCREATE INDEX FULLTEXT\nINFO INDEX FULLTEXT')).toBe(' FTINDEX: true (kept current on every write)\n');
    expect(await f.run('OPEN db\nINFO DB')).toContain('\n FTINDEX: true\n LANGUAGE: en\n STEMMING: false\n CASESENS: true\n');
    expect(await f.run('SET CASESENS false\nSET FTINDEX\nSET STOPWORDS db/stop.txt\nCREATE DB db2\nINFO DB')).toContain('\n FTINDEX: true\n LANGUAGE: en\n STEMMING: false\n CASESENS: false\n DIACRITICS: false\n STOPWORDS: db/stop.txt\n');
    expect(await f.fail('SET STEMMING true\nSET LANGUAGE zz\nOPEN db\nCREATE INDEX FULLTEXT')).toStrictEqual({ status: 500, code: 'NOT_SUPPORTED_INDEX_X', message: "Not supported: STEMMING for LANGUAGE 'zz'." });
  });

  test('include lists are not honoured: a non-empty one is refused, an empty one accepted', async () => {
    expect(await f.fail('SET TEXTINCLUDE name')).toStrictEqual({ status: 500, code: 'NOT_SUPPORTED_INDEX_X', message: 'Not supported: TEXTINCLUDE (the text index holds every text node).' });
    expect(await f.fail('SET ATTRINCLUDE id')).toStrictEqual({ status: 500, code: 'NOT_SUPPORTED_INDEX_X', message: 'Not supported: ATTRINCLUDE (the attribute index holds every attribute).' });
    expect(await f.fail('SET FTINCLUDE p')).toStrictEqual({ status: 500, code: 'NOT_SUPPORTED_INDEX_X', message: 'Not supported: FTINCLUDE (the full-text index holds every text node).' });
    expect(await f.run('SET TOKENINCLUDE\nSET TEXTINCLUDE ""\nSHOW OPTIONS TOKENINCLUDE')).toBe('TOKENINCLUDE: \n');
  });
});

describe('EXPORT', () => {
  test('refused without file access', async () => {
    await f.run('CREATE DB db <a/>');
    expect(await f.fail('OPEN db\nEXPORT /tmp/x')).toMatchObject({ status: 500, code: 'FILE_ACCESS_X' });
  });

  test('writes every resource below the folder', async () => {
    const out = tempDir('xmldb-export-');
    try {
      const env = f.env(f.admin, { allowFileAccess: true });
      await f.run(`CREATE DB db <a/>\nOPEN db\nADD TO d/b.xml <b>x</b>\nBINARY PUT TO bin/r.bin raw\nEXPORT ${out}`, { env });
      expect(await fs.readFile(path.join(out, 'db.xml'), 'utf8')).toBe('<a/>');
      expect(await fs.readFile(path.join(out, 'd', 'b.xml'), 'utf8')).toBe('<b>x</b>');
      expect(await fs.readFile(path.join(out, 'bin', 'r.bin'), 'utf8')).toBe('raw');
    } finally {
      await fs.rm(out, { recursive: true, force: true });
    }
  });
});
