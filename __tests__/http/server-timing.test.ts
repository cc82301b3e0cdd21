/** The `Server-Timing` header of query responses (operations/server-timing.ts). */
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/rest';

const METRIC = /^(parse|compile|evaluate|serialize|total);dur=(\d+\.\d)$/;

/** The header's metrics by name; fails unless it names exactly the five, in order. */
function metrics(header: string | undefined): Map<string, number> {
  expect(typeof header).toBe('string');
  const parts = header!.split(', ').map((part) => METRIC.exec(part));
  expect(parts.map((m) => m?.[1])).toEqual(['parse', 'compile', 'evaluate', 'serialize', 'total']);
  return new Map(parts.map((m) => [m![1], Number(m![2])]));
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await server.put('/rest/db', '<r><a>1</a><a>2</a><a>3</a></r>', 'application/xml').expect(201);
});
afterAll(() => server.close());

describe('Server-Timing on query responses', () => {
  test('GET ?query= names parse, compile, evaluate, serialize and total', async () => {
    const res = await server.get('/rest/db?query=count(//a)').expect(200);
    expect(res.text).toBe('3');
    const m = metrics(res.headers['server-timing']);
    // the parts happen one after the other inside the total
    expect(m.get('parse')! + m.get('compile')! + m.get('evaluate')! + m.get('serialize')!).toBeLessThanOrEqual(m.get('total')! + 0.4);
  });

  test('the QUERY method, POST <query> and a page of items carry it too', async () => {
    metrics((await server.query('/rest/db', '//a/string()').expect(200)).headers['server-timing']);
    metrics((await server.post('/rest', '<query><text>1 to 5</text></query>').expect(200)).headers['server-timing']);
    const paged = await server.get('/rest?query=1+to+100').set('Range', 'items=10-19').expect(206);
    expect(paged.headers['content-range']).toBe('items 10-19/100');
    metrics(paged.headers['server-timing']);
    fs.writeFileSync(path.join(server.restPath, 'count.xq'), 'count(1 to 7)');
    const run = await server.get('/rest?run=count.xq').expect(200);
    expect(run.text).toBe('7');
    metrics(run.headers['server-timing']);
  });

  test('listings, stored resources, commands and query errors carry none', async () => {
    expect((await server.get('/rest/db').expect(200)).headers['server-timing']).toBeUndefined();
    expect((await server.get('/rest?command=LIST').expect(200)).headers['server-timing']).toBeUndefined();
    expect((await server.get('/rest?query=1+%2B').expect(500)).headers['server-timing']).toBeUndefined();
  });
});
