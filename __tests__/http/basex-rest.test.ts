/**
 * BaseX's own REST test cases (basex-api, org.basex.http.rest: RESTGetTest, RESTPostTest,
 * RESTPutTest, RESTDeleteTest, RESTQueryTest), restated as requests and expected answers.
 * Where the expectation differs from BaseX, the test name cites the spec section that decides it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { NS, startTestServer, type TestServer } from '../helpers/rest';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const NAME = 'BaseXRestTest';
/** The input document of BaseX's REST tests: 5 text nodes without whitespace-only ones, 22 with. */
const INPUT = `<?xml version='1.0' encoding='iso-8859-1'?>
<html>
  <!-- Header -->
  <head id='0'>
    <title>XML</title>
  </head>
  <!-- Body -->
  <body id='1' bgcolor='#FFFFFF' text='#000000' link='#0000CC'>
    <h1>Databases &amp; XML</h1>
    <div align = 'right' >
      <b>Assignments</b>
      <ul>
        <li>Exercise 1</li>
        <li>Exercise 2</li>
      </ul>
    </div>
  </body>
  <?pi bogus?>
</html>`;
const input = () => Buffer.from(INPUT, 'latin1');

const get = (url: string) => s.get(`/rest${url}`);
const text = async (url: string, status = 200) => (await get(url).expect(status)).text;
const postQuery = (body: string) => s.post('/rest', `<query xmlns="${NS}">${body}</query>`, 'application/xml');
const dropAll = async () => {
  await s.del(`/rest/${NAME}`);
};

describe('RESTGetTest', () => {
  afterEach(dropAll);

  test('basic: queries, an XML document and a raw resource', async () => {
    expect(await text('?query=1')).toBe('1');
    expect(await text(`?query=${encodeURIComponent("string-join(('a','b'),',')")}`)).toBe('a,b');
    await s.put(`/rest/${NAME}`, '<a/>', 'application/xml').expect(201);
    await s.put(`/rest/${NAME}/raw`, 'XXX', 'application/octet-stream').expect(201);
    expect(await text(`/${NAME}/${NAME}.xml`)).toBe('<a/>');
    expect((await get(`/${NAME}/raw`).buffer(true).expect(200)).body.toString()).toBe('XXX');
  });

  test('input: context parameter, and a malformed context fails', async () => {
    expect(await text(`?query=.&context=${encodeURIComponent('<a/>')}`)).toBe('<a/>');
    // a malformed context is a query error: 500 with a [CODE] body (spec §9.2, §12)
    const r = await get(`?query=.&context=${encodeURIComponent('<')}`);
    expect(r.status).toBe(500);
    expect(r.text).toMatch(/\[[A-Z]{4}\d{4}\]/);
  });

  test('bind: external variables before or after the query', async () => {
    expect(await text('?query=declare+variable+$x+as+xs:integer+external;$x&$x=123')).toBe('123');
    expect(await text('?$x=123&query=declare+variable+$x+as+xs:integer+external;$x%2b1')).toBe('124');
    expect(
      await text(
        '?query=declare+variable+$a++as+xs:integer+external;declare+variable+$b+as+xs:integer+external;' +
          'declare+variable+$c+as+xs:integer+external;$a*$b*$c&$a=1&$b=2&$c=3',
      ),
    ).toBe('6');
  });

  test('error1: a syntax error names XPST0003', async () => {
    const r = await get('?query=(');
    expect(r.status).toBe(500);
    expect(r.text).toContain('[XPST0003]');
  });

  test('error2: an unknown serialization method fails', async () => {
    const r = await get('?query=()&method=xxx');
    expect(r.status).toBe(400);
  });

  test.each([
    ['?query=1', 'application/xml'],
    ['?command=info', 'text/plain'],
    ['?query=1&method=xml', 'application/xml'],
    ['?query=1&method=xhtml', 'text/html'],
    ['?query=1&method=html', 'text/html'],
    ['?query=1&method=text', 'text/plain'],
    [`?query=${encodeURIComponent('map { }')}&method=json`, 'application/json'],
    ['?query=1&media-type=application/octet-stream', 'application/octet-stream'],
    ['?query=1&media-type=application/xml', 'application/xml'],
    ['?query=1&media-type=text/html', 'text/html'],
    ['?query=1&media-type=xxx', 'xxx'],
  ])('contentType: %s → %s', async (url, type) => {
    const r = await get(url).buffer(true).expect(200);
    expect(String(r.headers['content-type']).split(';')[0]).toBe(type);
  });

  test('queryOption: MIXUPDATES=true allows mixing updates with values, =false does not', async () => {
    expect(await text(`?query=${encodeURIComponent('2, delete node <a/>')}&MIXUPDATES=true`)).toBe('2');
    const r = await get(`?query=${encodeURIComponent('1, delete node <a/>')}&mixupdates=false`);
    expect(r.status).toBe(500);
    expect(r.text).toContain('[XUST0001]');
  });

  test('MIXUPDATES: the values are returned and the updates applied to the store', async () => {
    const q = `for $i in 1 to 2 return if ($i = 1) then db:create('rest-mix', <a/>, 'a.xml') else 'created'`;
    expect(await text(`?query=${encodeURIComponent(q)}&mixupdates=true`)).toBe('created');
    expect(await text(`/rest-mix/a.xml`)).toBe('<a/>');
    await s.get(`/rest?command=${encodeURIComponent('DROP DB rest-mix')}`).expect(200);
  });

  test('queryOption: without MIXUPDATES, mixing updates with values fails with XUST0001', async () => {
    const r = await get(`?query=${encodeURIComponent('1, delete node <a/>')}`);
    expect(r.status).toBe(500);
    expect(r.text).toContain('[XUST0001]');
  });

  describe('runOption: files of the run folder', () => {
    const write = (name: string, content: string) => fs.writeFileSync(path.join(s.restPath, name), content);
    test.each([
      ['an XQuery file', 'x.xq', '1', '1'],
      ['a command script', 'x.bxs', 'xquery 2', '2'],
      ['a command script of two lines', 'x.bxs', 'xquery 3\nxquery 4', '34'],
      ['a command script in XML syntax', 'x.bxs', '<commands><xquery>5</xquery></commands>', '5'],
      ['a command script setting an option prints nothing', 'x.bxs', "<set option='maxlen'>123</set>", ''],
    ])('%s', async (_, name, content, result) => {
      write(name, content);
      expect(await text(`?run=${name}`)).toBe(result);
    });
    test('an unknown file is not found (spec §12)', async () => {
      expect((await get('?run=unknown.abc')).status).toBe(404);
    });
    test('a script setting an unknown option fails (a command error: 500, spec §12)', async () => {
      write('x.bxs', "<set option='unknown'>123</set>");
      const r = await get('?run=x.bxs');
      expect(r.status).toBe(500);
      expect(r.text).toBe("Unknown option 'UNKNOWN'.");
    });
  });
});

describe('RESTPostTest', () => {
  test('post1: a query', async () => {
    expect((await postQuery('<text>123</text>').expect(200)).text).toBe('123');
  });
  test('post2: an empty result', async () => {
    expect((await postQuery('<text>()</text>').expect(200)).text).toBe('');
  });
  // BaseX's case predates `basex` as the default method; the declaration is written by the xml
  // method only (spec §2.3), so the case names that method.
  test('post3: omit-xml-declaration=no with method=xml (spec §2.3)', async () => {
    const r = await postQuery(
      "<text>123</text><parameter name='omit-xml-declaration' value='no'/><parameter name='method' value='xml'/>",
    ).expect(200);
    expect(r.text).toBe('<?xml version="1.0" encoding="UTF-8"?>123');
  });
  test('post3: omit-xml-declaration=no with the default method writes no declaration (spec §2.3)', async () => {
    const r = await postQuery("<text>123</text><parameter name='omit-xml-declaration' value='no'/>").expect(200);
    expect(r.text).toBe('123');
  });
  // Since BaseX 10 the xhtml method writes HTML5 unless html-version says otherwise, so
  // `<!DOCTYPE html>` comes first (BaseX 9.7.2 wrote `<html></html>`; spec §11.2).
  test('post4: the last of duplicate parameters wins; xhtml method (spec §11.2)', async () => {
    const r = await postQuery(
      "<text><![CDATA[<html/>]]></text><parameter name='omit-xml-declaration' value='no'/>" +
        "<parameter name='omit-xml-declaration' value='yes'/><parameter name='method' value='xhtml'/>",
    ).expect(200);
    expect(r.text).toBe('<!DOCTYPE html><html></html>');
  });
  test('post5: the last of duplicate parameters wins', async () => {
    const r = await postQuery(
      "<text>123</text><parameter name='omit-xml-declaration' value='no'/><parameter name='omit-xml-declaration' value='yes'/>",
    ).expect(200);
    expect(r.text).toBe('123');
  });
  test('post6: an initial context', async () => {
    expect((await postQuery('<text>.</text><context><a/></context>').expect(200)).text).toBe('<a/>');
  });
  test('postOption: MIXUPDATES=true allows mixing updates with values, =false does not', async () => {
    const mixed = (value: string) => postQuery(`<text>2, delete node &lt;a/&gt;</text><option name='mixupdates' value='${value}'/>`);
    expect((await mixed('true').expect(200)).text).toBe('2');
    expect((await mixed('false').expect(500)).text).toContain('[XUST0001]');
  });
  test('postErr: a syntax error names XPST0003', async () => {
    const r = await postQuery('<text>(</text>');
    expect(r.status).toBe(500);
    expect(r.text).toContain('[XPST0003]');
  });
});

describe('RESTPutTest', () => {
  afterEach(dropAll);

  test('put1: an empty database', async () => {
    await s.put(`/rest/${NAME}`).expect(201);
    expect(await text(`/${NAME}?query=count(/)`)).toBe('0');
  });
  test('put2: a database of one document', async () => {
    await s.put(`/rest/${NAME}`, '<a>A</a>', 'application/xml').expect(201);
    expect(await text(`/${NAME}?query=/*/text()`)).toBe('A');
  });
  test('put3: creating twice overwrites', async () => {
    await s.put(`/rest/${NAME}`, input(), 'application/xml').expect(201);
    await s.put(`/rest/${NAME}`, input(), 'application/xml').expect(201);
    expect(await text(`/${NAME}?query=//title/text()`)).toBe('XML');
  });
  test('put4: two documents in one database', async () => {
    await s.put(`/rest/${NAME}`).expect(201);
    await s.put(`/rest/${NAME}/a`, '<a>A</a>', 'application/xml').expect(201);
    await s.put(`/rest/${NAME}/b`, '<b>B</b>', 'application/xml').expect(201);
    expect(await text(`/${NAME}?query=count(//text())`)).toBe('2');
    expect(await text(`?query=${encodeURIComponent(`count(db:open('${NAME}')//text())`)}`)).toBe('2');
    expect(await text(`?query=${encodeURIComponent(`count(db:open('${NAME}','b')/*)`)}`)).toBe('1');
  });
  test('putOption: CHOP=true strips whitespace-only text', async () => {
    await s.put(`/rest/${NAME}?CHOP=true`, input(), 'application/xml').expect(201);
    expect(await text(`/${NAME}?query=count(//text())`)).toBe('5');
  });
  test('putOption: CHOP=false keeps whitespace-only text', async () => {
    await s.put(`/rest/${NAME}?CHOP=false`, input(), 'application/xml').expect(201);
    expect(await text(`/${NAME}?query=count(//text())`)).toBe('22');
  });
  test('putOption: an unknown option fails', async () => {
    const r = await s.put(`/rest/${NAME}?xxx=yyy`, input(), 'application/xml');
    expect(r.status).toBe(400);
  });
});

describe('RESTDeleteTest', () => {
  test('delete1: dropping a database, then nothing is left', async () => {
    await s.put(`/rest/${NAME}`, input(), 'application/xml').expect(201);
    expect((await s.del(`/rest/${NAME}`).expect(200)).text.trim()).toBe(`Database '${NAME}' was dropped.`);
    expect((await s.del(`/rest/${NAME}`)).status).toBe(404);
  });
  test('delete2: deleting resources one by one, then the database', async () => {
    await s.put(`/rest/${NAME}`).expect(201);
    await s.put(`/rest/${NAME}/a`, '<a/>', 'application/xml').expect(201);
    await s.put(`/rest/${NAME}/b`, '<b/>', 'application/xml').expect(201);
    expect((await s.del(`/rest/${NAME}/a`).expect(200)).text).toMatch(/^1 /);
    expect((await s.del(`/rest/${NAME}/b`).expect(200)).text).toMatch(/^1 /);
    expect((await s.del(`/rest/${NAME}/b`).expect(200)).text).toMatch(/^0 /);
    expect((await s.del(`/rest/${NAME}`).expect(200)).text.trim()).toBe(`Database '${NAME}' was dropped.`);
    expect((await s.del(`/rest/${NAME}`)).status).toBe(404);
  });
  test('deleteOption: a known option is accepted, an unknown one fails', async () => {
    await s.put(`/rest/${NAME}`).expect(201);
    await s.del(`/rest/${NAME}/a?CHOP=true`).expect(200);
    expect((await s.del(`/rest/${NAME}/a?xxx=true`)).status).toBe(400);
    await dropAll();
  });
});

describe('RESTQueryTest', () => {
  test('query: values and elements', async () => {
    expect((await s.query('/rest', '123').expect(200)).text).toBe('123');
    expect((await s.query('/rest', '<a/>').expect(200)).text).toBe('<a/>');
  });
  test('queryVariable: a bound variable', async () => {
    const r = await s.query('/rest?$a=123', 'declare variable $a as xs:integer external; $a').expect(200);
    expect(r.text).toBe('123');
  });
  test('queryParameter: a serialization parameter', async () => {
    expect((await s.query('/rest?method=text', '<a>1</a>').expect(200)).text).toBe('1');
  });
  test('queryErr: a syntax error fails', async () => {
    const r = await s.query('/rest', '(');
    expect(r.status).toBe(500);
    expect(r.text).toContain('[XPST0003]');
  });
});

describe('RESTParallelGetTest, RESTConcurrencyTest', () => {
  test('10 clients of 10 requests each: reads, adds and deletes on one database all answer 200', async () => {
    await s.get(`/rest?command=${encodeURIComponent('CREATE DB rest <a/>')}`).expect(200);
    const queries = ['count(.)', "db:delete('rest', '/')", "db:add('rest', <a/>, 'x')"];
    // BaseX draws each request at random; here client c sends query (c + i) mod 3 in its run i
    const client = async (c: number) => {
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) {
        statuses.push((await s.get(`/rest/rest?query=${encodeURIComponent(queries[(c + i) % 3])}`)).status);
      }
      return statuses;
    };
    const results = await Promise.all(Array.from({ length: 10 }, (_, c) => client(c)));
    expect(results.flat()).toEqual(Array(100).fill(200));
    await s.get(`/rest?command=${encodeURIComponent('DROP DB rest')}`).expect(200);
  });
});

describe('RESTParallelPutTest', () => {
  test('10 clients storing 10 documents each into one database all succeed', async () => {
    await s.put(`/rest/${NAME}`, '').expect(201);
    const client = async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) statuses.push((await s.put(`/rest/${NAME}/${i}.xml`, '<x/>', 'application/xml')).status);
      return statuses;
    };
    const results = await Promise.all(Array.from({ length: 10 }, client));
    expect(results.flat()).toEqual(Array(100).fill(201));
    expect(await text(`/${NAME}?query=count(/x)`)).toBe('10');
    await s.del(`/rest/${NAME}`).expect(200);
  });
});

describe('RESTDeadlockTest', () => {
  const DBS = ['rest-deadlock-p', 'rest-deadlock-a', 'rest-deadlock-b'];
  const commands = (body: string) => s.post('/rest', `<commands>${body}</commands>`, 'application/xml');
  afterEach(async () => {
    await commands(`<xquery>for $d in (${DBS.map((d) => `'${d}'`).join(', ')})[db:exists(.)] return db:drop($d)</xquery>`).expect(200);
  });

  test('a local writer and two jobs that list all databases and create one all complete', async () => {
    const [p, a, b] = DBS;
    // BaseX's writer: one updating query that sleeps while it holds its write lock
    const writer = commands(`<xquery>db:create('${p}'), prof:sleep(1000)</xquery>`).then((r) => r.status);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const hybrids = [a, b].map((db) => commands(`<list/><xquery>db:create('${db}')</xquery>`).then((r) => r.status));
    expect(await Promise.all([writer, ...hybrids])).toEqual([200, 200, 200]);
    expect(await text(`?query=${encodeURIComponent(`(${DBS.map((d) => `'${d}'`).join(', ')}) ! db:exists(.)`)}`)).toBe('true\ntrue\ntrue');
  }, 30_000);

  test('prof:sleep, prof:void and prof:dump return nothing and may stand beside updates, as in BaseX', async () => {
    const [p] = DBS;
    const q = `db:create('${p}'), prof:sleep(1), prof:void(1), prof:dump(1)`;
    expect(await text(`?query=${encodeURIComponent(q)}`)).toBe('');
    expect(await text(`?query=${encodeURIComponent(`db:exists('${p}')`)}`)).toBe('true');
    const r = await s.get(`/rest?query=${encodeURIComponent(`db:drop('${p}'), prof:current-ms()`)}`);
    expect(r.status).toBe(500);
    expect(r.text).toContain('[XUST0001]');
  });
});
