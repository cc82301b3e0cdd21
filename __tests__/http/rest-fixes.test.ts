/**
 * REST behaviours found wrong with the reference server's own REST tests (spec §9.1, §6.4, §11,
 * §12): typed POST variables, value resources over GET, listings after a rename, html output
 * after a document type declaration, and the positions in error messages.
 */
import fs from 'node:fs';
import path from 'node:path';
import { getQuery, startTestServer, type TestServer } from '../helpers/rest';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ workers: 1 });
  fs.writeFileSync(path.join(s.restPath, 'typed.xq'), 'declare variable $a as xs:integer external;\n$a + 1');
  fs.writeFileSync(path.join(s.restPath, 'broken.xq'), '1 +\n(: nothing :)\n  $undeclared');
});
afterAll(() => s.close());

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
    expect(node.text).toBe("Stopped at ., 1/44:\n[XPTY0004] Supplied value xs:string('x') does not match required type element(*) for $a");
  });
});

describe('value resources (db:put-value)', () => {
  test('GET answers the serialized value, as a query of db:get-value would', async () => {
    await s.put('/rest/vals').expect(201);
    await getQuery(s, "db:put-value('vals', map { 'a': (1, 'x') }, 'm'), db:put-value('vals', (42, <x/>), 'dir/n')").expect(200);
    const m = await s.get('/rest/vals/m').expect(200);
    expect(m.headers['content-type']).toBe('application/xml; charset=UTF-8');
    expect(m.text).toBe('map{"a":(1,"x")}');
    expect((await s.get('/rest/vals/dir/n').expect(200)).text).toBe('42\n<x/>');
    expect((await s.get('/rest/vals/dir/n?method=json').expect(500)).text).toMatch(/^\[SERE0023\] /);
    expect((await s.get('/rest/vals/dir/n?method=text&item-separator=,').expect(200)).text).toBe('42,');
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

describe('html output (spec §11)', () => {
  test('no newline follows the document type declaration unless indenting', async () => {
    const html = encodeURIComponent('<html><body/></html>');
    expect((await s.get(`/rest?query=${html}&method=html`).expect(200)).text).toBe('<!DOCTYPE html><html><body></body></html>');
    expect((await s.get(`/rest?query=${html}&method=html&omit-xml-declaration=no`).expect(200)).text).toBe('<!DOCTYPE html><html><body></body></html>');
    expect((await s.get(`/rest?query=${html}&method=html&indent=yes`).expect(200)).text).toBe('<!DOCTYPE html>\n<html>\n  <body></body>\n</html>');
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
