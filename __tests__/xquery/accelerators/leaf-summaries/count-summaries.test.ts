/**
 * A whole query `count(//name)` or `count(//name[child op number])` over a database context is
 * answered from summaries of the stored text (accelerators/leaf-summaries/paths-summary.ts,
 * accelerators/leaf-summaries/leaf-summaries.ts): it must answer what the query answers written out with the axis
 * steps (which no index rewrites), errors included, and follow every write.
 */
import { xpathToRun } from '../../../../lib/xquery/language/translate';
import { startTestServer, type TestServer } from '../../../helpers/rest';
import { translate } from '../../../helpers/translation';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ workers: 1 });
});
afterAll(() => s.close());

const get = (query: string, path = '/db') => s.get(`/rest${path}?query=${encodeURIComponent(query)}`);
const plainOf = (query: string): string => query.replaceAll('//', '/descendant-or-self::node()/');
const SUMMARY = 'Q{urn:xmldb-rest:engine}count-summary';

/** The answer (status and body) of `query`, checked against its form written out. */
async function same(query: string, path = '/db'): Promise<string> {
  const [got, want] = await Promise.all([get(query, path), get(plainOf(query), path)]);
  expect([got.status, got.text]).toEqual([want.status, want.text]);
  return got.text;
}

const runOf = (query: string, database: boolean): string | undefined =>
  xpathToRun(translate(query, 'multi'), database);

test('the summaries are asked first, over a database context only', () => {
  for (const query of ['count(//item[price > 500])', 'count(//item)', 'count(//item[10 >= price])', 'declare namespace p = "urn:p"; count(//p:item[p:v = 1])']) {
    expect(runOf(query, true)).toContain(SUMMARY);
    expect(runOf(query, false)).not.toContain(SUMMARY);
  }
  for (const query of ['count(//item[1])', 'count(//item[price > "5"])', 'count(//item[@price > 5])', 'count(//item/price)', '(count(//item))', 'count(/descendant-or-self::node()/item)', 'sum(//price)']) {
    expect(runOf(query, true)).not.toContain(SUMMARY);
  }
});

test('answers as the query written out, over a database, a folder and a document', async () => {
  await s.put('/rest/db').expect(201);
  expect(await same('count(//item[price > 10])')).toBe('0');
  expect(await same('count(//item)')).toBe('0');
  for (let d = 0; d < 5; d++) {
    await s.put(`/rest/db/d${d % 2}/x${d}.xml`, `<items><item id="${d}a"><price>${d * 5}</price></item><item id="${d}b"><price>${20 - d}</price></item></items>`, 'application/xml').expect(201);
  }
  expect(await same('count(//item[price > 10])')).toBe('7');
  expect(await same('count(//item[10 >= price])')).toBe('3');
  expect(await same('count(//item)')).toBe('10');
  expect(await same('count(//item[price > 10])', '/db/d1')).toBe('3');
  expect(await same('count(//item[price = 20])', '/db/d0/x0.xml')).toBe('1');
});

test('follows PUT, DELETE and updates; raw files are no documents', async () => {
  await s.put('/rest/db/d0/x2.xml', '<items><item><price>3</price></item></items>', 'application/xml').expect(201);
  expect(await same('count(//item[price > 10])')).toBe('6');
  await s.del('/rest/db/d0/x0.xml').expect(200);
  expect(await same('count(//item[price > 10])')).toBe('5');
  await get('replace value of node doc("db/d1/x1.xml")//item[@id = "1a"]/price with "12"').expect(200);
  expect(await same('count(//item[price > 10])')).toBe('6');
  await s.put('/rest/db/raw.xml', '<items><item><price>50</price></item></items>', 'application/octet-stream').expect(201);
  expect(await same('count(//item[price > 10])')).toBe('6');
  expect(await same('count(//item)')).toBe('7');
});

test('a value that does not cast: the error of the comparison, as without the summaries', async () => {
  await get('insert node <price>n/a</price> into doc("db/d0/x2.xml")//item').expect(200);
  const failed = await get('count(//item[price > 10])');
  expect(failed.text).toMatch(/^Stopped at .*\n\[FORG0001\] /);
  await same('count(//item[price > 10])');
  expect(await same('count(//item)')).toBe('7');
});

test('namespaces, nesting, values with comments and an empty or unknown database', async () => {
  await s.put('/rest/ns').expect(201);
  expect(await same('count(//item[price > 1])', '/ns')).toBe('0');
  await s.put('/rest/ns/a.xml', '<r xmlns:p="urn:p"><p:item><p:price>5</p:price></p:item><item price="9"><price>1<!--x-->2</price><item><price>3</price></item></item></r>', 'application/xml').expect(201);
  await s.put('/rest/ns/b.xml', '<item xmlns="urn:p"><price>7</price></item>', 'application/xml').expect(201);
  expect(await same('count(//item[price > 10])', '/ns')).toBe('1');
  expect(await same('count(//item[price < 10])', '/ns')).toBe('1');
  expect(await same('declare default element namespace "urn:p"; count(//item[price > 4])', '/ns')).toBe('2');
  expect(await same('declare default element namespace "urn:p"; count(//item)', '/ns')).toBe('2');
  expect(await same('declare namespace p = "urn:p"; count(//p:item[p:price = 5])', '/ns')).toBe('1');
  const unknown = await get('count(//item[price > 1])', '/nodb');
  expect(unknown.status).toBe(404);
  await same('count(//item[price > 1])', '/nodb');
});
