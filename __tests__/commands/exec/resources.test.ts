import path from 'node:path';
import { setup, type Fixture } from './setup';

const INPUT = path.join(__dirname, '../../../fixtures/commands/exec/input');

let f: Fixture;
beforeEach(async () => {
  f = await setup();
  await f.run('CREATE DB db');
});
afterEach(async () => {
  await f.close();
});

const inDb = (script: string) => `OPEN db\n${script}`;

describe('ADD', () => {
  test('without TO: the document is named after the database', async () => {
    expect(await f.run(inDb('ADD <a/>'))).toBe('');
    expect(await f.resources('db')).toStrictEqual(['db.xml']);
  });

  test('TO a path, or TO a folder (trailing slash)', async () => {
    await f.run(inDb('ADD TO x/a.xml <a/>\nADD TO y/ <b/>'));
    expect(await f.resources('db')).toStrictEqual(['x/a.xml', 'y/db.xml']);
  });

  test('an existing path is replaced (one resource per path in this store)', async () => {
    await f.run(inDb('ADD TO a.xml <a/>\nADD TO a.xml <b/>'));
    expect(await f.run(inDb('GET a.xml'))).toBe('<b/>');
  });

  test('a server folder below TO, with file access', async () => {
    await f.run(inDb(`ADD TO in ${INPUT}`), { env: f.env(f.admin, { allowFileAccess: true }) });
    expect(await f.resources('db')).toStrictEqual(['in/a.xml', 'in/sub/b.xml']);
  });

  test('an ADD that cannot be parsed fails with 500', async () => {
    expect(await f.fail(inDb('ADD TO a.xml <a><b></a>'))).toMatchObject({ status: 500, code: 'XML_END_TAG_XX' });
  });
});

describe('PUT', () => {
  test('adds or replaces the document at the path', async () => {
    await f.run(inDb('PUT docs/a.xml <a>one; two</a>'));
    await f.run(inDb('PUT docs/b.xml "<b/>"'));
    await f.run(inDb('PUT docs/a.xml <a>new</a>'));
    expect(await f.resources('db')).toStrictEqual(['docs/a.xml', 'docs/b.xml']);
    expect(await f.run(inDb('GET docs/a.xml'))).toBe('<a>new</a>');
  });

  test('as REST PUT (spec §8.3, §8.4): XML onto a binary resource replaces its bytes, REPLACE off keeps what is there', async () => {
    await f.run(inDb('BINARY PUT TO x.bin bytes\nPUT x.bin <x/>'));
    expect(await f.run(inDb('BINARY GET x.bin'))).toBe('<x/>');
    expect(await f.fail(inDb('GET x.bin'))).toMatchObject({ status: 500, code: 'WRONG_TYPE_XX' });
    await f.run(inDb('PUT a.xml <a/>\nSET REPLACE false\nPUT a.xml <b/>\nPUT b.xml <b/>'));
    expect(await f.run(inDb('GET a.xml'))).toBe('<a/>');
    expect(await f.run(inDb('GET b.xml'))).toBe('<b/>');
  });

  test('a folder as input is refused', async () => {
    const env = f.env(f.admin, { allowFileAccess: true });
    expect(await f.fail(inDb(`PUT a.xml ${INPUT}`), { env })).toMatchObject({ status: 500, code: 'SINGLE_INPUT_X' });
  });

  test('an invalid path fails with 500', async () => {
    expect(await f.fail(inDb('PUT ../a.xml <a/>'))).toMatchObject({ status: 500, code: 'INVALID_PATH_X' });
  });
});

describe('DELETE, RENAME', () => {
  beforeEach(async () => {
    await f.run(inDb('ADD TO a.xml <a/>\nADD TO d/b.xml <b/>\nADD TO d/e/c.xml <c/>'));
  });

  test('DELETE a document, or everything below a directory; nothing found is no error', async () => {
    expect(await f.run(inDb('DELETE a.xml\nDELETE nothing'))).toBe('');
    expect(await f.resources('db')).toStrictEqual(['d/b.xml', 'd/e/c.xml']);
    await f.run(inDb('DELETE d'));
    expect(await f.resources('db')).toStrictEqual([]);
  });

  test('RENAME a document or a directory', async () => {
    await f.run(inDb('RENAME a.xml z.xml\nRENAME d n/d'));
    expect(await f.resources('db')).toStrictEqual(['n/d/b.xml', 'n/d/e/c.xml', 'z.xml']);
  });
});

describe('BINARY PUT, BINARY GET, GET', () => {
  test('BINARY PUT stores the input text as bytes; BINARY GET answers them', async () => {
    expect(await f.run(inDb('BINARY PUT TO t/x.bin hello world; and more'))).toBe('');
    expect(await f.run(inDb('BINARY GET t/x.bin'))).toBe('hello world; and more');
    expect(await f.run('<commands><open name="db"/><binary-put path="y.txt">text input</binary-put><binary-get path="y.txt"/></commands>')).toBe(
      'text input',
    );
  });

  test('BINARY PUT without a path fails', async () => {
    expect(await f.fail(inDb('BINARY PUT hello'))).toMatchObject({ status: 500, code: 'PATH_MISSING_X' });
  });

  test('GET answers the stored document; types must match; missing is a 500', async () => {
    await f.run(inDb('ADD TO a.xml <a x="1">t</a>\nBINARY PUT TO b.bin x'));
    expect(await f.run(inDb('GET a.xml'))).toBe('<a x="1">t</a>');
    expect(await f.fail(inDb('GET b.bin'))).toStrictEqual({ status: 500, code: 'WRONG_TYPE_XX', message: "Resource 'b.bin' is not of type xml." });
    expect(await f.fail(inDb('BINARY GET a.xml'))).toMatchObject({ status: 500, code: 'WRONG_TYPE_XX' });
    expect(await f.fail(inDb('GET none.xml'))).toStrictEqual({
      status: 500,
      code: 'RESOURCE_NOT_FOUND_X',
      message: "Resource 'none.xml' was not found.",
    });
  });
});
