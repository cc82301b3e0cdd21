import { NS, startTestServer, type TestServer } from '../helpers/rest';

let s: TestServer;
beforeEach(async () => {
  s = await startTestServer();
  await s.put('/rest/db').expect(201);
  await s.put('/rest/db/a.xml', '<a/>').expect(201);
  await s.put('/rest/db/dir/b.xml', '<b/>').expect(201);
  await s.put('/rest/db/dir/c.bin', Buffer.from('c'), 'application/octet-stream').expect(201);
});
afterEach(() => s.close());

describe('DELETE', () => {
  test('a resource', async () => {
    const r = await s.del('/rest/db/a.xml').expect(200);
    expect(r.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(r.text).toMatch(/^1 resource\(s\) deleted in [\d.]+ ms\.$/);
    expect((await s.get('/rest/db').expect(200)).text).toBe(`<database xmlns="${NS}" name="db"><dir>dir</dir></database>`);
  });

  test('a directory removes everything below it', async () => {
    const r = await s.del('/rest/db/dir').expect(200);
    expect(r.text).toMatch(/^2 resource\(s\) deleted/);
    expect((await s.get('/rest/db/dir').expect(200)).text).toBe(`<database xmlns="${NS}" name="db"/>`);
  });

  test('an unknown path deletes nothing and answers 200', async () => {
    const r = await s.del('/rest/db/none').expect(200);
    expect(r.text).toMatch(/^0 resource\(s\) deleted/);
  });

  test('a database', async () => {
    await s.del('/rest/db').expect(200);
    await s.get('/rest/db').expect(404);
    expect((await s.get('/rest').expect(200)).text).toBe(`<databases xmlns="${NS}"/>`);
  });

  test('an unknown database is 404', async () => {
    expect((await s.del('/rest/nodb').expect(404)).text).toBe("Database 'nodb' was not found.");
  });

  test('without a database is 404', async () => {
    expect((await s.del('/rest').expect(404)).text).toBe('No database specified.');
  });

  test('unknown parameters are 400', async () => {
    expect((await s.del('/rest/db/a.xml?x=1').expect(400)).text).toBe('Unknown parameter: x.');
  });
});
