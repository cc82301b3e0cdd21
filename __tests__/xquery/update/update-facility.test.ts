/** XQuery Update Facility rules over REST: revalidation declarations and fn:put. */
import { queryBody, startTestServer, type TestServer } from '../../helpers/rest';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  await s.put('/rest/db').expect(201);
  await s.put('/rest/db/a.xml', '<a xmlns:p="urn:p"><p:b n="1"/><c/></a>', 'application/xml').expect(201);
});
afterAll(() => s.close());

const post = (query: string) =>
  s.post('/rest/db', `<query xmlns="http://basex.org/rest"><text>${query.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</text></query>`);

describe('revalidation declarations', () => {
  test.each(['strict', 'lax', 'skip'])('declare revalidation %s is XUST0026 (no revalidation mode is supported)', async (mode) => {
    const r = await post(`declare revalidation ${mode}; 1`);
    expect(r.status).toBe(500);
    expect(r.text).toContain('[XUST0026] Revalidation mode ' + mode + ' is not supported.');
  });
});

describe('fn:put', () => {
  test('stores an element, as it is after the query\'s other updates, with its in-scope namespaces', async () => {
    await post('let $b := doc("db/a.xml")/a/*:b return (put($b, "db/out.xml"), insert node <new/> into $b)').expect(200);
    expect(await queryBody(s, 'doc("db/out.xml")')).toBe('<p:b xmlns:p="urn:p" n="1"><new/></p:b>');
    expect(await queryBody(s, 'doc("db/a.xml")/a/*:b')).toBe('<p:b xmlns:p="urn:p" n="1"><new/></p:b>');
  });

  test('stores a document node, replacing a stored one', async () => {
    await post('put(document { <d>1</d> }, "db/doc.xml")').expect(200);
    await post('put(document { <d>2</d> }, "db/doc.xml")').expect(200);
    expect(await queryBody(s, 'doc("db/doc.xml")')).toBe('<d>2</d>');
  });

  test('is an updating function (XUST0001 where a value is expected)', async () => {
    const r = await post('let $x := put(<a/>, "db/x.xml") return 1');
    expect(r.text).toContain('[XUST0001]');
  });

  test.each([
    ['a processing instruction', 'put(processing-instruction p { "v" }, "db/x.xml")', 'FOUP0001'],
    ['an attribute', 'put(attribute a { "v" }, "db/x.xml")', 'FOUP0001'],
    ['a database that does not exist', 'put(<a/>, "nodb/x.xml")', 'FOUP0002'],
    ['a host file', 'put(<a/>, "file:///tmp/x.xml")', 'FOUP0002'],
    ['a URI without a path', 'put(<a/>, "db")', 'FOUP0002'],
    ['one URI twice', '(put(<a/>, "db/x.xml"), put(<b/>, "db/x.xml"))', 'XUDY0031'],
    ['a modify clause', 'copy $c := <a/> modify put($c, "db/x.xml") return $c', 'XUDY0037'],
  ])('refuses %s', async (_what, query, code) => {
    const r = await post(query);
    expect(r.status).toBe(500);
    expect(r.text).toContain(`[${code}]`);
    expect(await queryBody(s, 'doc-available("db/x.xml")')).toBe('false');
  });
});

describe('rename', () => {
  test('atomizes the new name expression: a node gives its string value', async () => {
    expect(await queryBody(s, 'copy $c := <a/> modify rename node $c as <n> x </n> return $c')).toBe('<x/>');
    const r = await post('copy $c := <a/> modify rename node $c as <!-- not a name --> return $c');
    expect(r.status).toBe(500);
    expect(r.text).toContain('[XQDY0074] Invalid name: not a name.');
  });

  test('a prefix bound to another URI in the element\'s namespaces is XUDY0023, its own name\'s binding included', async () => {
    for (const c of ['<p:a xmlns:p="urn:1"/>', '<r xmlns:p="urn:1"><p:a/></r>/*']) {
      const r = await post(`copy $c := ${c} modify rename node $c as QName("urn:2", "p:a") return $c`);
      expect(r.status).toBe(500);
      expect(r.text).toContain('[XUDY0023] Namespace conflict: prefix p is bound to urn:1, not urn:2.');
    }
    expect(await queryBody(s, 'copy $c := <p:a xmlns:p="urn:1"/> modify rename node $c as QName("urn:1", "p:b") return $c')).toBe('<p:b xmlns:p="urn:1"/>');
  });
});

describe('rename into a default namespace', () => {
  test('binds it on the renamed element only: its element children keep the default namespace they had', async () => {
    const renamed = 'copy $c := <g xmlns:n="urn:n"><n:a><b/></n:a><c/></g> modify rename node $c as QName("urn:t", "g2") return $c';
    expect(await queryBody(s, renamed)).toBe('<g2 xmlns:n="urn:n" xmlns="urn:t"><n:a xmlns=""><b/></n:a><c xmlns=""/></g2>');
    expect(await queryBody(s, `let $r := ${renamed} return string-join((namespace-uri($r/*:c), sort(in-scope-prefixes($r/*:c))), "|")`)).toBe('|n|xml');
  });
});

test('renaming an element and its children into one default namespace declares it once', async () => {
  const q = 'copy $c := <m a="1"><n>x</n><o/></m> modify for $e in $c/descendant-or-self::* return rename node $e as QName("urn:g", local-name($e)) return $c';
  expect(await queryBody(s, q)).toBe('<m xmlns="urn:g" a="1"><n>x</n><o/></m>');
  const reversed = 'copy $c := <m><n><o/></n></m> modify for $e in reverse($c/descendant-or-self::*) return rename node $e as QName("urn:g", local-name($e)) return $c';
  expect(await queryBody(s, reversed)).toBe('<m xmlns="urn:g"><n><o/></n></m>');
});
