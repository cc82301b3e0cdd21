import fs from 'node:fs';
import path from 'node:path';
import { getQuery, NS, queryRequest, startTestServer, ADMIN, type TestServer } from '../helpers/rest';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ workers: 1 });
  await s.put('/rest/db', '<r><i>1</i><i>2</i></r>', 'application/xml').expect(201);
  await s.put('/rest/db/dir/x.xml', '<x>3</x>', 'application/xml').expect(201);
  await s.put('/rest/empty').expect(201);
});
afterAll(() => s.close());


describe('GET ?query= (spec §6.1, §11)', () => {
  test.each([
    ['1 + 1', '2'],
    ['1 to 3', '1\n2\n3'],
    ['"a", "b"', 'a\nb'],
    ['true()', 'true'],
    ['()', ''],
  ])('%s → %j with the default method', async (query, body) => {
    const r = await getQuery(s, query).expect(200);
    expect(r.headers['content-type']).toBe('application/xml; charset=UTF-8');
    expect(r.text).toBe(body);
  });

  test('method=xml separates atomic values by spaces', async () => {
    expect((await getQuery(s, '1 to 3', '', '&method=xml').expect(200)).text).toBe('1 2 3');
  });

  test('item-separator overrides', async () => {
    expect((await getQuery(s, '1 to 3', '', '&item-separator=,').expect(200)).text).toBe('1,2,3');
  });

  test('method decides the content type; media-type wins', async () => {
    expect((await getQuery(s, '1', '', '&method=text').expect(200)).headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect((await getQuery(s, '1', '', '&method=json').expect(200)).headers['content-type']).toBe('application/json; charset=UTF-8');
    expect((await getQuery(s, '1', '', '&media-type=xxx').expect(200)).headers['content-type']).toBe('xxx; charset=UTF-8');
  });

  test('method=json serializes maps', async () => {
    expect((await getQuery(s, "map{'a':1}", '', '&method=json').expect(200)).text).toBe('{"a":1}');
  });

  test('the prolog output declaration wins over the URL parameter', async () => {
    const r = await getQuery(s, 'declare option output:method "json"; [1,2]', '', '&method=xml').expect(200);
    expect(r.headers['content-type']).toBe('application/json; charset=UTF-8');
    expect(r.text).toBe('[1,2]');
  });

  test('the database is the context: a sequence of its documents', async () => {
    expect((await s.get('/rest/db?query=count(.)').expect(200)).text).toBe('2');
    expect((await s.get('/rest/db?query=sum(//i)').expect(200)).text).toBe('3');
    expect((await s.get('/rest/db/dir?query=string(.)').expect(200)).text).toBe('3');
    expect((await s.get('/rest/empty?query=count(/)').expect(200)).text).toBe('0');
  });

  test('doc(), collection() and uri-collection() read stored databases', async () => {
    expect((await getQuery(s, 'uri-collection("db")').expect(200)).text).toBe('/db/db.xml\n/db/dir/x.xml');
    expect((await getQuery(s, 'uri-collection("db/dir") ! doc(.) ! string()').expect(200)).text).toBe('3');
    expect((await getQuery(s, 'count(collection("db")), doc("db/dir/x.xml")/x/string()').expect(200)).text).toBe('2\n3');
    // without an argument: the database of the URL (all of it, as BaseX's opened database)
    expect((await s.get(`/rest/db/dir?query=${encodeURIComponent('uri-collection()')}`).expect(200)).text).toBe('/db/db.xml\n/db/dir/x.xml');
    expect((await s.get(`/rest/db?query=${encodeURIComponent('collection() ! name(*)')}`).expect(200)).text).toBe('r\nx');
    expect((await getQuery(s, 'collection()').expect(500)).text).toBe('Stopped at ., 1/1:\n[FODC0002] No default collection is available.');
  });

  test('without a database there is no context: XPDY0002', async () => {
    const r = await getQuery(s, '.').expect(500);
    expect(r.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(r.text).toMatch(/\[XPDY0002\]/);
  });

  test('context parameters are documents and replace the database context', async () => {
    const r = await s.get(`/rest/db?query=${encodeURIComponent('count(.)')}&context=${encodeURIComponent('<a/>')}`).expect(200);
    expect(r.text).toBe('1');
    const r2 = await s.get(`/rest?query=${encodeURIComponent('. instance of document-node()')}&context=${encodeURIComponent('<a/>')}`).expect(200);
    expect(r2.text).toBe('true');
  });

  test('an unknown database is 404', async () => {
    expect((await s.get('/rest/nodb?query=1').expect(404)).text).toBe("Database 'nodb' was not found.");
  });
});

describe('variables (spec §9.1)', () => {
  test('undeclared bindings are ignored; values are strings by default', async () => {
    const r = await getQuery(s, 'declare variable $x external; $x instance of xs:string', '', '&x=5&y=7').expect(200);
    expect(r.text).toBe('true');
  });

  test('a declared type casts the value; repeated names give a sequence; $ prefix', async () => {
    expect((await getQuery(s, 'declare variable $x as xs:integer external; $x + 1', '', '&x=41').expect(200)).text).toBe('42');
    expect((await getQuery(s, 'declare variable $x as xs:integer* external; sum($x)', '', '&x=1&x=2&$x=3').expect(200)).text).toBe('6');
  });

  test('an invalid value for the type is FORG0001', async () => {
    expect((await getQuery(s, 'declare variable $x as xs:integer external; $x', '', '&x=abc').expect(500)).text).toMatch(/\[FORG0001\]/);
  });

  test('an external variable without value is XPDY0002', async () => {
    expect((await getQuery(s, 'declare variable $x external; $x').expect(500)).text).toMatch(/\[XPDY0002\]/);
  });

  test('$ lets a variable take a reserved name', async () => {
    expect((await getQuery(s, 'declare variable $method external; $method', '', '&$method=m').expect(200)).text).toBe('m');
  });
});

describe('errors (spec §12)', () => {
  test.each([
    ['1 +', 'XPST0003'],
    ['$undeclared', 'XPST0008'],
    ['unknown-function()', 'XPST0017'],
    ['1 div 0', 'FOAR0001'],
    ['xs:integer("x")', 'FORG0001'],
    ["error(xs:QName('err:FOER0000'), 'boom')", 'FOER0000'],
  ])('%s is %s with 500 and a position', async (query, code) => {
    const r = await getQuery(s, query).expect(500);
    expect(r.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(r.text).toMatch(new RegExp(`^Stopped at .*\\d+/\\d+:\\n\\[${code}\\] `));
  });
});

describe('the QUERY method (spec §6.2)', () => {
  test('the body is the query; query parameters bind variables', async () => {
    const r = await s.query('/rest/db?query=7', 'declare variable $query external; count(//i) + xs:integer($query)').expect(200);
    expect(r.text).toBe('9');
  });

  test('CR LF in the body is normalised', async () => {
    const r = await queryRequest(s.app, '/rest').auth(ADMIN.user, ADMIN.password).set('Content-Type', 'text/plain').send('string-length("a\r\nb")').expect(200);
    expect(r.text).toBe('3');
  });
});

describe('POST <query> (spec §7)', () => {
  test('text, parameters, typed variables and a context', async () => {
    const body = `<query xmlns="${NS}"><text><![CDATA[declare variable $n as xs:integer external; declare variable $s external; (count(/a/b) + $n, $s)]]></text>
      <parameter name="method" value="xml"/><parameter name="method" value="adaptive"/>
      <variable name="n" value="2" type="xs:integer"/><variable name="$s" value="x"/>
      <context><a xmlns="${NS}"><b/><b/></a></context></query>`;
    const r = await s.post('/rest', body).expect(200);
    expect(r.text).toBe('4\n"x"');
  });

  test('the context keeps the namespaces its elements declare, used by a name or not', async () => {
    const body =
      `<query xmlns="${NS}"><text>let $b := //*:b return (string-join(sort(in-scope-prefixes($b)), ","), namespace-uri-for-prefix("p", $b), namespace-uri-for-prefix("q", $b), namespace-uri($b))</text>` +
      '<context><r xmlns:p="urn:p" xmlns="urn:d"><a><b xmlns:q="urn:q"/></a></r></context></query>';
    expect((await s.post('/rest', body).expect(200)).text).toBe(',p,q,xml\nurn:p\nurn:q\nurn:d');
  });

  test('comments and processing instructions around the context element belong to the document', async () => {
    const body = '<query><text>(count(/node()), name(/processing-instruction()), string(/comment()))</text><context><!--c--><?p x?><a/></context></query>';
    expect((await s.post('/rest', body).expect(200)).text).toBe('3\np\nc');
  });

  test('unprefixed elements work too; the database of the URL is the context', async () => {
    expect((await s.post('/rest/db', '<query><text>count(//i)</text></query>').expect(200)).text).toBe('2');
  });
});

describe('run files of the cases below', () => {
  beforeAll(() => {
    fs.writeFileSync(path.join(s.restPath, 'typed.xq'), 'declare variable $a as xs:integer external;\n$a + 1');
    fs.writeFileSync(path.join(s.restPath, 'broken.xq'), '1 +\n(: nothing :)\n  $undeclared');
  });

  describe('POST variables are cast to their declared type (spec §9.1)', () => {
    test('in <query> and <run>, as with GET', async () => {
      const query = '<query><text>declare variable $a as xs:integer external; $a + 1</text><variable name="a" value="123"/></query>';
      expect((await s.post('/rest', query).expect(200)).text).toBe('124');
      expect((await s.post('/rest', '<run><text>typed.xq</text><variable name="a" value="41"/></run>').expect(200)).text).toBe('42');
    });

    test('a value that does not fit names the variable, not XSLT internals', async () => {
      const bad = await s.post('/rest', '<query><text>declare variable $a as xs:integer external; $a</text><variable name="a" value="x"/></query>').expect(500);
      expect(bad.text).toBe((await getQuery(s, 'declare variable $a as xs:integer external; $a', '', '&a=x').expect(500)).text);
      expect(bad.text).toBe('[FORG0001] Supplied value "x" is not a valid xs:integer');
      const node = await s.post('/rest', '<query><text>declare variable $a as element() external; $a</text><variable name="a" value="x"/></query>').expect(500);
      expect(node.text).toBe('Stopped at ., 1/44:\n[XPTY0004] $a does not match the declared type element().');
    });
  });

  describe('error positions (spec §12)', () => {
    test('an error in a run file names the file, lines counted from 1', async () => {
      const r = await s.get('/rest?run=broken.xq').expect(500);
      expect(r.text).toBe('Stopped at broken.xq, 3/3:\n[XPST0008] Undeclared variable: $undeclared.');
      const posted = await s.post('/rest', '<run><text>broken.xq</text></run>').expect(500);
      expect(posted.text).toBe(r.text);
    });

    test('XML parse errors report their real line', async () => {
      const post = await s.post('/rest', '<query>\n<text>1</text>\n<bad></query>').expect(400);
      expect(post.text).toBe('The POST body is not well-formed XML: Unexpected close tag at line 3 column 13');
      const parsed = await getQuery(s, "parse-xml('<a>\n<b></a>')").expect(500);
      expect(parsed.text).toBe('Stopped at ., 1/1:\n[FODC0006] Unexpected close tag at line 2 column 7');
      const context = await s.post('/rest', '<query><text>.</text><context>&lt;a&gt;\n&lt;/b&gt;</context></query>').expect(500);
      expect(context.text).toBe('Stopped at ., 1/1:\n[FODC0006] Context is not well-formed XML: Unexpected close tag at line 2 column 4');
    });
  });
});
