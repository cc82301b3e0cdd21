import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/rest';

let s: TestServer;
beforeEach(async () => {
  s = await startTestServer({ workers: 1 });
});
afterEach(() => s.close());

const cmd = (c: string, url = '/rest') => s.get(`${url}?command=${encodeURIComponent(c)}`);

describe('GET ?command= (spec §6.3)', () => {
  test('state-changing commands answer an empty text body', async () => {
    const r = await cmd('CREATE DB c <a/>').expect(200);
    expect(r.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(r.text).toBe('');
    expect((await s.get('/rest/c/c.xml').expect(200)).text).toBe('<a/>');
  });

  test('LIST answers the table', async () => {
    await cmd('CREATE DB acc_a').expect(200);
    const r = await cmd('LIST').expect(200);
    expect(r.text).toMatch(/^Name +Resources +Size +Input Path *\n-+\nacc_a +0 +\d+ *\n\n1 database\(s\)\.\n?$/);
  });

  test('the database of the URL is opened first', async () => {
    await s.put('/rest/db', '<r><i/><i/></r>', 'application/xml').expect(201);
    expect((await cmd('XQUERY count(//i)', '/rest/db').expect(200)).text).toBe('2');
    expect((await cmd('INFO DB', '/rest/db').expect(200)).text).toMatch(/^Database Properties\n NAME: db\n/);
  });

  test('unknown command, more than one command, or an empty string: 500', async () => {
    expect((await cmd('FOO').expect(500)).text).toMatch(/^Unknown command: FOO/);
    await cmd('LIST; LIST').expect(500);
    await cmd('').expect(500);
  });

  test('a failing OPEN is 404', async () => {
    await cmd('OPEN nodb').expect(404);
  });

  test('a refused permission inside a command is 403', async () => {
    const dbPath = s.dbPath;
    void dbPath;
    await cmd('CREATE USER joe secret').expect(200);
    const { default: request } = await import('supertest');
    const r = await request(s.app).get(`/rest?command=${encodeURIComponent('CREATE USER x y')}`).auth('joe', 'secret').expect(403);
    expect(r.text).toBe('Admin permission needed.');
  });
});

describe('POST <commands> (spec §7, §15.2)', () => {
  test('the example script creates the database and returns its INFO DB', async () => {
    const r = await s.post('/rest', '<commands><create-db name="acc_x"/><info-db/></commands>').expect(200);
    expect(r.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(r.text).toMatch(/^Database Properties\n NAME: acc_x\n/);
    await s.get('/rest/acc_x').expect(200);
  });

  test('commands see what earlier commands of the script changed', async () => {
    const r = await s.post('/rest', '<commands><create-db name="x"><r><i/></r></create-db><xquery>count(db:get("x")//i)</xquery></commands>').expect(200);
    expect(r.text).toBe('1');
  });
});

describe('options of a session, set by SET or given with the request (spec §2.4)', () => {
  const mixed = (db: string) => `for $i in 1 to 2 return if ($i = 1) then db:create('${db}', <a/>, 'a.xml') else 'created'`;
  const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

  test('MIXUPDATES reaches the queries of commands as it reaches a REST query', async () => {
    expect((await s.get(`/rest?mixupdates=true&query=${encodeURIComponent(mixed('m0'))}`).expect(200)).text).toBe('created');
    expect((await s.get(`/rest?mixupdates=true&command=${encodeURIComponent(`XQUERY ${mixed('m1')}`)}`).expect(200)).text).toBe('created');
    const script = `<commands><set option="mixupdates">true</set><xquery>${escaped(mixed('m2'))}</xquery></commands>`;
    expect((await s.post('/rest', script).expect(200)).text).toBe('created');
    for (const db of ['m0', 'm1', 'm2']) expect((await s.get(`/rest/${db}/a.xml`).expect(200)).text).toBe('<a/>');
    const without = await cmd(`XQUERY ${mixed('m3')}`).expect(500);
    expect(without.text).toMatch(/\[XUST0001\] /);
  });

  test('an option of a request is refused as SET refuses it', async () => {
    const set = await cmd('SET TEXTINCLUDE a').expect(500);
    expect(set.text).toBe('Not supported: TEXTINCLUDE (the text index holds every text node).');
    expect((await s.put('/rest/tx?textinclude=a', '<a/>', 'application/xml').expect(500)).text).toBe(set.text);
    expect((await s.get('/rest?textinclude=a&query=1').expect(500)).text).toBe(set.text);
    await s.get('/rest/tx').expect(404);
    expect((await s.get('/rest?stripws=maybe&query=1').expect(400)).text).toBe('Invalid value for parameter "stripws": maybe.');
  });
});

describe('run (spec §6.4, §10)', () => {
  beforeEach(() => {
    fs.mkdirSync(path.join(s.restPath, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(s.restPath, 'double.xq'), 'declare variable $n as xs:integer external; $n * 2');
    fs.writeFileSync(path.join(s.restPath, 'sub', 'count.xq'), 'count(//i)');
    fs.writeFileSync(path.join(s.restPath, 'script.bxs'), 'XQUERY 3\nXQUERY 4');
  });

  test('an .xq file with variables; content type application/xml', async () => {
    const r = await s.get('/rest?run=double.xq&n=21').expect(200);
    expect(r.headers['content-type']).toBe('application/xml; charset=UTF-8');
    expect(r.text).toBe('42');
  });

  test('suffix search finds NAME.xq, then NAME.bxs', async () => {
    expect((await s.get('/rest?run=double&n=1').expect(200)).text).toBe('2');
    expect((await s.get('/rest?run=script').expect(200)).text).toBe('34');
  });

  test('a .bxs script concatenates outputs, as application/xml', async () => {
    const r = await s.get('/rest?run=script.bxs').expect(200);
    expect(r.headers['content-type']).toBe('application/xml; charset=UTF-8');
    expect(r.text).toBe('34');
  });

  test('the database of the URL is the context; POST <run> works too', async () => {
    await s.put('/rest/db', '<r><i/><i/><i/></r>', 'application/xml').expect(201);
    expect((await s.get('/rest/db?run=sub/count.xq').expect(200)).text).toBe('3');
    expect((await s.post('/rest/db', '<run><text>sub/count.xq</text></run>').expect(200)).text).toBe('3');
  });

  test.each(['missing.xq', '../escape.xq', '/etc/passwd', 'sub'])('%s is 404', async (name) => {
    const r = await s.get(`/rest?run=${encodeURIComponent(name)}`).expect(404);
    expect(r.text).toBe(`Resource "${name}" not found.`);
  });
});
