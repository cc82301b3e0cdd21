/**
 * order by over leaves and return clauses reading a leaf, over stored documents (compact trees;
 * accelerators/leaf-order/, accelerators/leaf-returns/): from the database context, across
 * documents, with a where clause answered from the leaf columns; each must answer what the same
 * FLWOR answers with a constant last order key (`, 0`) and the return clause mapped (` ! .`),
 * which no rewrite takes.
 */
import { getQuery, serverOfFile } from '../helpers/rest';

const server = serverOfFile();
const plainOf = (query: string): string => query.replace(' return ', ', 0 return ').replace(/ return (.*)$/, ' return ($1) ! .');

const A = '<items><item id="1"><name>one</name><price>582.30</price></item><item id="2"><name>two</name><price>56</price></item><item id="4"><name>b</name></item></items>';
const B = '<items><item id="3"><name>three</name><price>900</price>x</item><item id="31"><price>56.0</price><name>a</name></item><item id="5"><price>n/a</price></item></items>';

async function same(query: string): Promise<string> {
  const [got, want] = await Promise.all([getQuery(server(), query, '/lo'), getQuery(server(), plainOf(query), '/lo')]);
  expect([got.status, got.text]).toEqual([want.status, want.text]);
  return `${got.status} ${got.text}`;
}

beforeAll(async () => {
  await server().put('/rest/lo').expect(201);
  await server().put('/rest/lo/a.xml', A, 'application/xml').expect(201);
  await server().put('/rest/lo/d/b.xml', B, 'application/xml').expect(201);
});

test('sorts the items of several documents by their leaves', async () => {
  expect(await same('for $i in //item order by number($i/price) descending return string($i/@id)')).toBe('200 3\n1\n2\n31\n4\n5');
  expect(await same('for $i in //item order by $i/name, number($i/price) return data($i/@id)')).toBe('200 5\n31\n4\n1\n3\n2');
  expect(await same('for $i in //item where $i/@id > 1 order by string($i/name) descending empty greatest return number($i/price)')).toBe('200 56\n900\nNaN\n56\nNaN');
  expect(await same('for $i in //item order by number($i/price) return $i/name')).toBe('200 <name>b</name>\n<name>two</name>\n<name>a</name>\n<name>one</name>\n<name>three</name>');
});

test('reads a leaf of each item after a where clause', async () => {
  const query = 'for $i in //item where $i/name != "two" return string($i/@id)';
  const [got, want] = await Promise.all([getQuery(server(), query, '/lo'), getQuery(server(), `${query} ! .`, '/lo')]);
  expect([got.status, got.text]).toEqual([want.status, want.text]);
  expect(got.text).toBe('1\n4\n3\n31');
});

test('errors as written', async () => {
  const got = await getQuery(server(), 'for $i in //item where $i/price > 100 order by number($i/price) return string($i/@id)', '/lo');
  expect(got.status).toBe(500);
  expect(got.text).toMatch(/\[FORG0001\]/);
});
