/** XQuery Update and db: write functions over REST (spec §6, §7, §16, §16.1). */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { getQuery, startTestServer, type TestServer } from '../helpers/rest';

// One server for the file (a worker takes seconds to start from source); the database is
// created afresh (PUT replaces it) for every test.
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ workers: 1 });
});
beforeEach(async () => {
  await s.put('/rest/db').expect(201);
  await s.put('/rest/db/doc.xml', '<r><a>1</a><b x="1"/></r>', 'application/xml').expect(201);
  await getQuery(s, 'if (db:exists("other")) then db:drop("other") else ()').expect(200);
});
afterAll(() => s.close());

const doc = async (p = 'db/doc.xml'): Promise<string> => (await s.get(`/rest/${p}`).expect(200)).text;

describe('updating queries over REST', () => {
  test('GET ?query= inserts into a stored document; later reads see it', async () => {
    const r = await getQuery(s, 'insert node <c/> into doc("db/doc.xml")/r').expect(200);
    expect(r.text).toBe('');
    expect(await doc()).toBe('<r><a>1</a><b x="1"/><c/></r>');
    expect((await getQuery(s, 'count(doc("db/doc.xml")//c)').expect(200)).text).toBe('1');
  });

  test('the database context: relative paths reach the stored documents', async () => {
    await s.get(`/rest/db?query=${encodeURIComponent('delete node //a')}`).expect(200);
    expect(await doc()).toBe('<r><b x="1"/></r>');
  });

  test('QUERY method and POST <query>', async () => {
    await s.query('/rest/db', 'replace value of node //a with "2"').expect(200);
    expect(await doc()).toBe('<r><a>2</a><b x="1"/></r>');
    await s.post('/rest/db', '<query xmlns="http://basex.org/rest"><text>rename node //b as "bb"</text></query>').expect(200);
    expect(await doc()).toBe('<r><a>2</a><bb x="1"/></r>');
  });

  test('run of an .xq file', async () => {
    fs.copyFileSync(path.join(__dirname, '../../fixtures/xquery/update/insert-first.xq'), path.join(s.restPath, 'up.xq'));
    await s.get('/rest?run=up.xq').expect(200);
    expect(await doc()).toBe('<r><z/><a>1</a><b x="1"/></r>');
  });

  test('XQUERY command', async () => {
    await s.get(`/rest/db?command=${encodeURIComponent('XQUERY delete node //b/@x')}`).expect(200);
    expect(await doc()).toBe('<r><a>1</a><b/></r>');
  });

  test('a script: each XQUERY commits, the next one sees its changes', async () => {
    const script = '<commands><xquery>db:put("db", &lt;n/&gt;, "n.xml")</xquery><xquery>db:list("db") =&gt; string-join(",")</xquery></commands>';
    const r = await s.post('/rest', script).expect(200);
    expect(r.text).toBe('doc.xml,n.xml');
  });

  test('update:output returns a result with the update', async () => {
    const r = await getQuery(s, '(insert node <c/> into doc("db/doc.xml")/r, update:output("done"))').expect(200);
    expect(r.text).toBe('done');
    expect(await doc()).toBe('<r><a>1</a><b x="1"/><c/></r>');
  });

  test('listing sizes follow the update', async () => {
    await getQuery(s, 'insert node <c>text</c> into doc("db/doc.xml")/r').expect(200);
    const list = await s.get('/rest/db').expect(200);
    // document + r + a + text + b + @x + c + text = 8 nodes
    expect(list.text).toContain('size="8"');
  });

  test('an error after scheduling updates changes nothing', async () => {
    const r = await getQuery(s, '(insert node <c/> into doc("db/doc.xml")/r, delete node doc("db/doc.xml")//a, error(xs:QName("err:X"), "stop"))').expect(500);
    expect(r.text).toContain('stop');
    expect(await doc()).toBe('<r><a>1</a><b x="1"/></r>');
  });

  test('a conflict error changes nothing', async () => {
    const r = await getQuery(s, 'let $d := doc("db/doc.xml") return (insert node <c/> into $d/r, rename node $d//a as "x", rename node $d//a as "y")').expect(500);
    expect(r.text).toContain('[XUDY0015]');
    expect(await doc()).toBe('<r><a>1</a><b x="1"/></r>');
  });

  test('XUST0001: updating expression in a non-updating position', async () => {
    const r = await getQuery(s, 'let $x := delete node doc("db/doc.xml")//a return 1').expect(500);
    expect(r.text).toContain('[XUST0001]');
  });

  test('db:put, db:delete, db:rename, db:create, db:drop', async () => {
    await getQuery(s, 'db:put("db", <n>1</n>, "new.xml")').expect(200);
    expect(await doc('db/new.xml')).toBe('<n>1</n>');
    await getQuery(s, 'db:rename("db", "new.xml", "dir/moved.xml")').expect(200);
    expect(await doc('db/dir/moved.xml')).toBe('<n>1</n>');
    await getQuery(s, 'db:delete("db", "dir")').expect(200);
    expect((await getQuery(s, 'db:list("db")').expect(200)).text).toBe('doc.xml');
    await getQuery(s, 'db:create("other", <x/>, "x.xml")').expect(200);
    expect(await doc('other/x.xml')).toBe('<x/>');
    await getQuery(s, 'db:drop("other")').expect(200);
    await s.get('/rest/other').expect(404);
  });

  test('persistence across a restart (a new router on the same data folder)', async () => {
    await getQuery(s, 'insert node <persist/> into doc("db/doc.xml")/r').expect(200);
    // a data folder is open in one router at a time: the first one stops, the second one starts
    await s.router.close();
    const s2 = await startTestServer({ workers: 1, dbPath: s.dbPath, restPath: s.restPath });
    try {
      expect((await s2.get('/rest/db/doc.xml').expect(200)).text).toBe('<r><a>1</a><b x="1"/><persist/></r>');
      expect((await s2.get(`/rest?query=${encodeURIComponent('doc("db/doc.xml")//persist ! name()')}`).expect(200)).text).toBe('persist');
    } finally {
      await s2.router.close();
      s = await startTestServer({ workers: 1, dbPath: s.dbPath, restPath: s.restPath });
    }
  });

  test('an updating query needs the write permission', async () => {
    await s.put('/rest/db/doc.xml', '<r/>', 'application/xml').expect(201);
    const r = await s.get(`/rest?command=${encodeURIComponent('CREATE USER reader pw')}`).expect(200);
    expect(r.text).toBe('');
    const denied = await request(s.app).get(`/rest?query=${encodeURIComponent('delete node doc("db/doc.xml")/r')}`).auth('reader', 'pw');
    expect(denied.status).toBe(403);
    expect(await doc()).toBe('<r/>');
  });
});

describe('concurrency (spec §16.1)', () => {
  test('20 parallel updating queries on one document all take effect', async () => {
    await Promise.all(Array.from({ length: 20 }, (_, i) => getQuery(s, `insert node <n i="${i}"/> into doc("db/doc.xml")/r`).expect(200)));
    expect((await getQuery(s, 'count(doc("db/doc.xml")//n)').expect(200)).text).toBe('20');
    expect((await getQuery(s, 'sort(doc("db/doc.xml")//n/@i ! xs:integer(.)) => string-join(",")').expect(200)).text).toBe(
      Array.from({ length: 20 }, (_, i) => i).join(','),
    );
  });

  test('readers never see a half-applied update', async () => {
    const update = getQuery(s, 'let $r := doc("db/doc.xml")/r return (insert node <c/> into $r, insert node <d/> into $r, delete node $r/a)');
    const reads = Array.from({ length: 20 }, () => getQuery(s, 'let $r := doc("db/doc.xml")/r return concat(count($r/c), count($r/d), count($r/a))'));
    const results = await Promise.all([update, ...reads]);
    for (const r of results.slice(1)) expect(['001', '110']).toContain(r.text);
  });
});

describe('db:list after db:rename', () => {
  test('lists the renamed path', async () => {
    await s.put('/rest/ren').expect(201);
    await getQuery(s, "db:put('ren', <e/>, 'e.xml')").expect(200);
    await getQuery(s, "db:rename('ren', 'e.xml', 'dir/e.xml')").expect(200);
    expect((await getQuery(s, "db:list('ren')").expect(200)).text).toBe('dir/e.xml');
    expect((await getQuery(s, "db:list('ren', 'dir')").expect(200)).text).toBe('dir/e.xml');
  });
});
