/**
 * `//name[child op number]` over stored documents (accelerators/leaf-columns/leaf-values.ts): the typed value
 * arrays follow every write, whether by PUT, DELETE or XQuery Update, in the next query.
 */
import { queryBody, startTestServer, type TestServer } from '../../../helpers/rest';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ workers: 1 });
});
afterAll(() => s.close());

const QUERY = 'string-join(//item[price > 10]/@id, ",")';

test('answers over many documents and follows PUT, DELETE and updates', async () => {
  await s.put('/rest/db').expect(201);
  for (let d = 0; d < 5; d++) {
    await s.put(`/rest/db/d${d}.xml`, `<items><item id="${d}a"><price>${d * 5}</price></item><item id="${d}b"><price>${20 - d}</price></item></items>`, 'application/xml').expect(201);
  }
  expect(await queryBody(s, QUERY, '/db')).toBe('0b,1b,2b,3a,3b,4a,4b');
  expect(await queryBody(s, 'count(//item[price > 10]), count(//item[10 >= price])', '/db')).toBe('7\n3');

  await s.put('/rest/db/d3.xml', '<items><item id="3c"><price>11</price></item></items>', 'application/xml').expect(201);
  expect(await queryBody(s, QUERY, '/db')).toBe('0b,1b,2b,3c,4a,4b');

  await s.del('/rest/db/d0.xml').expect(200);
  expect(await queryBody(s, QUERY, '/db')).toBe('1b,2b,3c,4a,4b');

  await queryBody(s, 'replace value of node doc("db/d1.xml")//item[@id = "1a"]/price with "12"', '/db');
  expect(await queryBody(s, QUERY, '/db')).toBe('1a,1b,2b,3c,4a,4b');

  // a value that does not cast: the error of the comparison, as without the arrays
  await queryBody(s, 'insert node <price>n/a</price> into doc("db/d2.xml")//item[@id = "2a"]', '/db');
  const r = await s.get(`/rest/db?query=${encodeURIComponent(QUERY)}`);
  const plain = await s.get(`/rest/db?query=${encodeURIComponent(QUERY.replace('//', '/descendant-or-self::node()/'))}`);
  expect(r.text).toMatch(/^Stopped at .*\n\[FORG0001\] /);
  expect([r.status, r.text]).toEqual([plain.status, plain.text]);
});
