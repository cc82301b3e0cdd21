import { NS, startTestServer, type TestServer } from '../helpers/rest';

let s: TestServer;
beforeEach(async () => {
  s = await startTestServer();
});
afterEach(() => s.close());

describe('GET /rest lists databases (spec §3)', () => {
  test('empty list', async () => {
    const r = await s.get('/rest').expect(200);
    expect(r.headers['content-type']).toBe('application/xml; charset=UTF-8');
    expect(r.text).toBe(`<databases xmlns="${NS}"/>`);
  });

  test('databases sorted case-insensitively with resource counts', async () => {
    await s.put('/rest/beta').expect(201);
    await s.put('/rest/Alpha', '<a/>', 'application/xml').expect(201);
    await s.put('/rest/Alpha/b.bin', Buffer.from([1, 2, 3]), 'application/octet-stream').expect(201);
    const r = await s.get('/rest').expect(200);
    expect(r.text).toMatch(
      new RegExp(`^<databases xmlns="${NS}"><database resources="2" size="\\d+">Alpha</database><database resources="0" size="\\d+">beta</database></databases>$`),
    );
  });

  test('indent=yes pretty-prints the listing', async () => {
    await s.put('/rest/db').expect(201);
    const r = await s.get('/rest?indent=yes').expect(200);
    expect(r.text).toMatch(new RegExp(`^<databases xmlns="${NS}">\\n  <database resources="0" size="\\d+">db</database>\\n</databases>$`));
  });
});

describe('GET /rest/DB[/PATH] lists a database (spec §4)', () => {
  beforeEach(async () => {
    await s.put('/rest/db').expect(201);
    await s.put('/rest/db/a.xml', '<a x="1"><b/>t</a>', 'application/xml').expect(201);
    await s.put('/rest/db/docs/z.xml', '<z/>', 'application/xml').expect(201);
    await s.put('/rest/db/docs/sub/deep.xml', '<d/>', 'application/xml').expect(201);
    await s.put('/rest/db/logo.png', Buffer.alloc(1024, 7), 'image/png').expect(201);
    await s.put('/rest/db/Notes.txt', 'hello', 'text/plain').expect(201);
    await s.put('/rest/db/style.xsl', '<x/>', 'application/xml').expect(201);
  });

  test('immediate children, dirs and resources mixed, sorted case-insensitively', async () => {
    const r = await s.get('/rest/db').expect(200);
    expect(r.headers['content-type']).toBe('application/xml; charset=UTF-8');
    expect(r.text).toBe(
      `<database xmlns="${NS}" name="db">` +
        '<resource type="xml" content-type="application/xml" size="5">a.xml</resource>' +
        '<dir>docs</dir>' +
        '<resource type="binary" content-type="image/png" size="1024">logo.png</resource>' +
        '<resource type="binary" content-type="text/plain" size="5">Notes.txt</resource>' +
        '<resource type="xml" content-type="text/xml" size="2">style.xsl</resource>' +
        '</database>',
    );
  });

  test('a directory lists names relative to it, root keeps the database name', async () => {
    const r = await s.get('/rest/db/docs/').expect(200);
    expect(r.text).toBe(
      `<database xmlns="${NS}" name="db"><dir>sub</dir><resource type="xml" content-type="application/xml" size="2">z.xml</resource></database>`,
    );
  });

  test('an unknown path is an empty listing', async () => {
    const r = await s.get('/rest/db/nothing/here').expect(200);
    expect(r.text).toBe(`<database xmlns="${NS}" name="db"/>`);
  });

  test('an unknown database is 404', async () => {
    const r = await s.get('/rest/nodb').expect(404);
    expect(r.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(r.text).toBe("Database 'nodb' was not found.");
  });

  test('an invalid database name in the URL is 404', async () => {
    await s.get('/rest/bad%20name').expect(404);
  });
});
