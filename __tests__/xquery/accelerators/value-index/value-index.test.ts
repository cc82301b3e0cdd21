/**
 * The value indexes are what answers `//name[text() = $v]` and the like over a database that has
 * them (accelerators/value-index/paths-value-index.ts, accelerators/value-index/value-index.ts): counted here in the thread
 * that runs the query, with the answers compared to those over a database without the indexes.
 * Postings are built once per document version and follow writes (a new etag, a new tree).
 */
import { StoreSource } from '../../../../lib/xquery/worker/documents/store-source';
import { indexBytes, valueIndexLookups } from '../../../../lib/xquery/accelerators/value-index/value-index';
import { dataFolder, run, text, xml } from '../../../helpers/worker-queries';
import { translate } from '../../../helpers/translation';

const data = dataFolder();

const DOC = '<r><x id="1" c="p q">v</x><x id="2">w</x><y id="3">v</y><x id="4">v<!--c--></x></r>';

beforeEach(async () => {
  await data.store.write(['on', 'off'], async (w) => {
    await w.createDatabase('on');
    await w.createDatabase('off', { textindex: false, attrindex: false, tokenindex: false });
    for (const db of ['on', 'off']) await w.putResource(db, 'a.xml', xml(DOC));
  });
});

/** The XPath the translator makes of `query`, reading database `db` through fn:doc. */
function xpathOf(query: string, db: string): string {
  const text = `let $d := doc("${db}/a.xml") return ${query.replaceAll('//', '$d//')}`;
  const t = translate(text, 'none', { literalParams: false });
  return t.xpath?.expression ?? '';
}

const QUERIES = [
  '//x[text() = "v"] ! string(@id)',
  '//*[@id = ("2", "3")] ! name()',
  '//x[. = ("v", "w")] ! string(@id)',
  '//x[contains-token(@c, "q")] ! string(@id)',
];

test('over a database with the indexes, each query looks up postings; without, none', () => {
  const source = new StoreSource({ dbPath: data.path });
  const expected = ['1|4', 'x|y', '1|2|4', '1'];
  QUERIES.forEach((q, i) => {
    const before = valueIndexLookups();
    expect(text(source, xpathOf(q, 'on'))).toBe(expected[i]);
    const used = valueIndexLookups() - before;
    expect(text(source, xpathOf(q, 'off'))).toBe(expected[i]);
    expect([q, used, valueIndexLookups() - before]).toEqual([q, used, used]);
    expect(used).toBeGreaterThan(0);
  });
});

test('a write makes a new version: its postings answer, the others are kept', async () => {
  const source = new StoreSource({ dbPath: data.path });
  const query = xpathOf('//x[text() = "v"] ! string(@id)', 'on');
  expect(text(source, query)).toBe('1|4');
  const [old] = run(source, 'e:doc("on/a.xml")');
  await data.store.write(['on'], (w) => w.putResource('on', 'a.xml', xml('<r><x id="7">v</x></r>')).then(() => undefined));
  const before = valueIndexLookups();
  expect(text(source, query)).toBe('7');
  expect(valueIndexLookups() - before).toBe(1);
  expect(run(source, 'e:doc("on/a.xml")')[0]).not.toBe(old);
});

test('the postings of a document are small beside its tree', () => {
  const source = new StoreSource({ dbPath: data.path });
  text(source, xpathOf(QUERIES[0], 'on') + ', ' + xpathOf(QUERIES[1], 'on') + ', ' + xpathOf(QUERIES[3], 'on'));
  const [doc] = run(source, 'e:doc("on/a.xml")');
  // per value (13 of them in three kinds) a map entry and its postings; the numbering of a
  // compact tree without namespace declarations holds nothing of its own (pre-numbering.ts)
  expect(indexBytes(doc as never)).toBeGreaterThan(13 * 32);
  expect(indexBytes(doc as never)).toBeLessThan(13 * 100);
});

describe('a child path whose last step has a value predicate', () => {
  const NESTED = '<r><x id="1">v</x><s><x id="1">v</x><x id="2">w</x></s><x id="2">v</x></r>';
  beforeEach(async () => {
    await data.store.write(['on', 'off'], async (w) => {
      for (const db of ['on', 'off']) await w.putResource(db, 'n.xml', xml(NESTED));
    });
  });

  /** The XPath the translator makes of `query` with `$d` the document `n.xml` of database `db`. */
  const over = (query: string, db: string) => translate(`let $d := doc("${db}/n.xml") return ${query}`, 'none', { literalParams: false }).xpath?.expression ?? '';

  test.each([
    ['$d/r/x[@id = "1"] ! string()', 'v'],
    ['$d/r/s/x[@id = ("1", "2")] ! string()', 'v|w'],
    ['$d/r/x[text() = "v"] ! string(@id)', '1|2'],
    ['$d/r/s/x[. = "w"] ! string(@id)', '2'],
    ['count($d/r/x[@id = "3"])', '0'],
  ])('%s: from the index, only the elements at that path', (query, expected) => {
    const source = new StoreSource({ dbPath: data.path });
    const before = valueIndexLookups();
    expect(text(source, over(query, 'on'))).toBe(expected);
    expect(valueIndexLookups() - before).toBeGreaterThan(0);
    const without = valueIndexLookups();
    expect(text(source, over(query, 'off'))).toBe(expected);
    expect(valueIndexLookups()).toBe(without);
  });

  test('below an element rather than a document, the steps as written', () => {
    const source = new StoreSource({ dbPath: data.path });
    const before = valueIndexLookups();
    expect(text(source, over('$d/r ! s/x[@id = "2"] ! string()', 'on'))).toBe('w');
    expect(valueIndexLookups()).toBe(before);
  });
});
