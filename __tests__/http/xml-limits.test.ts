/**
 * Nesting and attribute limits of XML input (our decision, XML_LIMITS): PUT bodies, POST bodies,
 * context documents and XML command scripts past them answer 400, never a stack overflow.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { XML_LIMITS } from '../../lib/convert/xml-limits';
import request from 'supertest';
import { ADMIN, NS, startTestServer, type TestServer } from '../helpers/rest';

const DEPTH = `Elements are nested deeper than ${XML_LIMITS.depth} levels.`;
const ATTRIBUTES = `An element has more than ${XML_LIMITS.attributes} attributes.`;
const nested = (depth: number, name = 'a') => `<${name}>`.repeat(depth) + `</${name}>`.repeat(depth);
const attributes = (n: number) => `<a${Array.from({ length: n }, (_, i) => ` a${i}="x"`).join('')}/>`;

let s: TestServer;
beforeAll(async () => {
  // bodies far past the nesting limit are larger than the default POST limit (maxQueryBodySize),
  // and contexts past it longer than the default URL limit (maxUrlLength)
  s = await startTestServer({ maxQueryBodySize: 8 * 1024 * 1024, maxUrlLength: 1024 * 1024 });
  await s.put('/rest/db').expect(201);
});
afterAll(() => s.close());

describe('PUT', () => {
  test('a document at the limits is stored; past them: 400 with the place', async () => {
    await s.put('/rest/db/deep.xml', nested(XML_LIMITS.depth), 'application/xml').expect(201);
    await s.put('/rest/db/wide.xml', attributes(XML_LIMITS.attributes), 'application/xml').expect(201);
    const deep = await s.put('/rest/db/deeper.xml', nested(100_000), 'application/xml').expect(400);
    expect(deep.text).toBe(`(Line 1, Column ${3 * XML_LIMITS.depth + 1}): ${DEPTH}`);
    const wide = await s.put('/rest/db/wider.xml', attributes(50_000), 'application/xml').expect(400);
    expect(wide.text).toBe(`(Line 1, Column 1): ${ATTRIBUTES}`);
    const html = await s.put('/rest/db/deep.html', '<div>'.repeat(100_000), 'text/html').expect(400);
    expect(html.text).toBe(DEPTH);
    expect((await s.get('/rest/db').expect(200)).text).not.toMatch(/deeper|wider|deep\.html/);
  });

  test('a stored document at the depth limit can be queried', async () => {
    const r = await s.get(`/rest/db/deep.xml?query=${encodeURIComponent('count(//a)')}`).expect(200);
    expect(r.text).toBe(String(XML_LIMITS.depth));
  });
});

describe('POST', () => {
  test('a deep body: 400', async () => {
    const body = `<query xmlns="${NS}"><text>1</text><context>${nested(100_000)}</context></query>`;
    const r = await s.post('/rest', body).expect(400);
    expect(r.text).toBe(`(Line 1, Column ${body.indexOf('<a>') + 3 * (XML_LIMITS.depth - 2) + 1}): ${DEPTH}`);
  });

  test('an element with too many attributes: 400', async () => {
    const r = await s.post('/rest', `<query xmlns="${NS}"><text>1</text><context>${attributes(XML_LIMITS.attributes + 1)}</context></query>`).expect(400);
    expect(r.text).toMatch(new RegExp(`^\\(Line 1, Column \\d+\\): ${ATTRIBUTES}$`));
  });

  test('a deep command script: 400', async () => {
    const r = await s.post('/rest', `<commands>${nested(100_000, 'info')}</commands>`).expect(400);
    expect(r.text).toMatch(new RegExp(`^\\(Line 1, Column \\d+\\): ${DEPTH}$`));
  });
});

describe('context documents of GET and QUERY', () => {
  // A deep context does not fit in Node's default 16 KiB of request head.
  const server = () => http.createServer({ maxHeaderSize: 1 << 20 }, s.app);
  const context = encodeURIComponent(nested(XML_LIMITS.depth + 1));
  test.each([
    ['GET', () => request(server()).get(`/rest?query=.&context=${context}`)],
    ['QUERY', () => new request.Test(server(), 'QUERY', `/rest?context=${context}`).set('Content-Type', 'text/plain').send('.')],
  ])('%s: a deep context: 400', async (_method, send) => {
    const r = await send().auth(ADMIN.user, ADMIN.password).expect(400);
    expect(r.text).toBe(`(Line 1, Column ${3 * XML_LIMITS.depth + 1}): ${DEPTH}`);
  });

  test('a context within the limits still works', async () => {
    const r = await s.get(`/rest?query=count(//a)&context=${encodeURIComponent(nested(10))}`).expect(200);
    expect(r.text).toBe('10');
  });
});

describe('command scripts run from the REST path', () => {
  test('a deep .bxs file: 400', async () => {
    fs.writeFileSync(path.join(s.restPath, 'deep.bxs'), `<commands>${nested(100_000, 'info')}</commands>`);
    const r = await s.get('/rest?run=deep.bxs').expect(400);
    expect(r.text).toMatch(new RegExp(`^\\(Line 1, Column \\d+\\): ${DEPTH}$`));
  });
});
