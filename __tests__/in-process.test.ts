/** `rest.database`: the router's databases from the host's code, with the router's permissions. */
import express from 'express';
import request from 'supertest';
import { createRestRouter, XmldbError, type RestRouter } from '../lib';
import { ADMIN, seedUsers, tempDir } from './helpers/rest';

let rest: RestRouter;
let app: express.Express;
beforeAll(async () => {
  const dbPath = tempDir();
  await seedUsers(dbPath, [
    { name: 'admin', password: ADMIN.password, perm: 'admin' },
    { name: 'reader', password: 'pw', perm: 'none', grants: [['library', 'read']] },
  ]);
  rest = createRestRouter({ dbPath, restPath: tempDir(), log: () => undefined, workers: 1 });
  app = express();
  app.use('/rest', rest);
});
afterAll(() => rest.close());

test('create, store, get, query, command, list, delete: the same data the REST routes see', async () => {
  const db = rest.database;
  await db.put('library', '', '', 'application/xml');
  await db.put('library', 'dune.xml', '<book><title>Dune</title><year>1965</year></book>', 'application/xml');
  await db.put('library', 'n.json', '{"title":"Neuromancer","year":1984}', 'application/json');
  await db.put('library', 'cover.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png');
  expect(await db.get('library', 'dune.xml')).toBe('<book><title>Dune</title><year>1965</year></book>');
  expect(await db.get('library', 'n.json')).toBe('<json type="object"><title>Neuromancer</title><year type="number">1984</year></json>');
  expect(await db.get('library', 'cover.png')).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  expect(await db.query('for $t in //title order by $t return $t/string()', { db: 'library' })).toBe('Dune\nNeuromancer');
  expect(await db.query('declare variable $n as xs:integer external; $n * 2', { variables: { n: '21' } })).toBe('42');
  expect(await db.query('declare variable $s external; string-join($s, "+")', { variables: { $s: ['a', 'b'] } })).toBe('a+b');
  expect(await db.query('count(//item)', { context: '<list><item/><item/></list>' })).toBe('2');
  expect(await db.query('map { "n": 1 }', { serialization: { method: 'json' } })).toBe('{"n":1}');
  expect(await db.list()).toMatch(/^<databases xmlns="http:\/\/basex.org\/rest"><database resources="3" size="\d+">library<\/database><\/databases>$/);
  expect(await db.command('INFO DB', { db: 'library' })).toMatch(/^Database Properties\n NAME: library\n/);
  // the REST routes see what the host stored
  expect((await request(app).get('/rest/library/dune.xml').auth(ADMIN.user, ADMIN.password)).text).toBe('<book><title>Dune</title><year>1965</year></book>');
  expect(await db.delete('library', 'cover.png')).toMatch(/^1 resource\(s\) deleted in [\d.]+ ms\.$/);
});

test("with user, that user's permissions apply, as for a request", async () => {
  const db = rest.database;
  expect(await db.query('count(//title)', { db: 'library', user: 'reader' })).toBe('2');
  const refused = await db.put('library', 'x.xml', '<x/>', 'application/xml', { user: 'reader' }).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(XmldbError);
  expect([(refused as XmldbError).status, (refused as XmldbError).message]).toEqual([403, 'Write permission needed.']);
  const unknown = await db.list({ user: 'nobody' }).catch((e: unknown) => e);
  expect([(unknown as XmldbError).status, (unknown as XmldbError).message]).toEqual([401, 'Access denied: nobody.']);
  const hidden = await db.query('1', { db: 'secret', user: 'reader' }).catch((e: unknown) => e);
  expect((hidden as XmldbError).status).toBe(404);
});

test('a query error rejects with its code and message', async () => {
  const e = (await rest.database.query('1 +').catch((x: unknown) => x)) as XmldbError;
  expect([e.status, e.code]).toEqual([500, 'XPST0003']);
});

test('a query stopped by its signal', async () => {
  const controller = new AbortController();
  const running = rest.database.query('sum((1 to 100000000000) ! (. * 2))', { signal: controller.signal }).catch((e: unknown) => e);
  setTimeout(() => controller.abort(), 200);
  const e = (await running) as XmldbError;
  expect(e).toBeInstanceOf(XmldbError);
  expect([e.status, e.message]).toEqual([499, 'Query cancelled: the client closed the connection.']);
});

test('after close(), calls reject', async () => {
  const other = createRestRouter({ dbPath: tempDir(), restPath: tempDir(), adminPassword: 'pw', log: () => undefined, workers: 1 });
  expect(await other.database.query('1 + 1')).toBe('2');
  await other.close();
  await expect(other.database.query('1')).rejects.toThrow('xmldb-rest: the router is closed.');
});
