/**
 * The full-text index (accelerators/fulltext-index/fulltext-index.ts) in the thread that runs the query: `//name[text()
 * contains text …]` and ft:search look up its postings over a database that has it, and none over
 * one without, with the same answers; postings follow writes (a new etag, a new tree) and are
 * small beside the tree.
 */
import { StoreSource } from '../../../../lib/xquery/worker/documents/store-source';
import { fullTextIndexBytes, fullTextLookups } from '../../../../lib/xquery/accelerators/fulltext-index/fulltext-index';
import { dataFolder, run, text, xml } from '../../../helpers/worker-queries';
import { translate } from '../../../helpers/translation';

const data = dataFolder();

const DOC = '<r><p>The quick brown fox</p><p>jumps over <b>the</b> lazy dog</p><q>Quick dogs</q></r>';

beforeEach(async () => {
  await data.store.write(['on', 'off'], async (w) => {
    await w.createDatabase('on', { ftindex: true });
    await w.createDatabase('off');
    for (const db of ['on', 'off']) await w.putResource(db, 'a.xml', xml(DOC));
  });
});

function xpathOf(query: string, db: string): string {
  const q = `let $d := doc("${db}/a.xml") return ${query.replaceAll('//', '$d//')}`;
  const t = translate(q, 'none', { literalParams: false });
  return t.xpath?.expression ?? '';
}

const QUERIES: [string, string][] = [
  ['//p[text() contains text "quick"] ! string()', 'The quick brown fox'],
  ['//*[text() contains text "dog" using stemming] ! name()', 'p|q'],
  ['//q[. contains text "quick dogs"] ! name()', 'q'],
  ['count(//p[text() contains text "the lazy"])', '0'],
];

test('over a database with the index, the predicates look up postings; without, none; the answers are the same', () => {
  const source = new StoreSource({ dbPath: data.path });
  for (const [q, expected] of QUERIES) {
    const before = fullTextLookups();
    expect(text(source, xpathOf(q, 'on'))).toBe(expected);
    const used = fullTextLookups() - before;
    expect(text(source, xpathOf(q, 'off'))).toBe(expected);
    expect([q, fullTextLookups() - before]).toEqual([q, used]);
    expect(used).toBeGreaterThan(0);
  }
});

test('a write makes a new version: its postings answer', async () => {
  const source = new StoreSource({ dbPath: data.path });
  const query = xpathOf(QUERIES[0][0], 'on');
  expect(text(source, query)).toBe('The quick brown fox');
  await data.store.write(['on'], (w) => w.putResource('on', 'a.xml', xml('<r><p>quick again</p></r>')).then(() => undefined));
  expect(text(source, query)).toBe('quick again');
});

test('the postings of a document are small beside its tree', () => {
  const source = new StoreSource({ dbPath: data.path });
  const [doc] = run(source, 'Q{urn:xmldb-rest:engine}doc("on/a.xml")');
  const fold = { caseSensitive: false, diacriticsSensitive: false };
  // 11 occurrences of 9 distinct tokens in 5 indexed text nodes: per occurrence a text (4 bytes) and
  // a 16-bit position; per token a Map entry (about 40 bytes), its characters and where its
  // occurrences start (4 bytes); per text node its row (4 bytes)
  const bytes = fullTextIndexBytes(doc as never, fold);
  expect(bytes).toBeGreaterThan(11 * 6 + 9 * (40 + 4));
  expect(bytes).toBeLessThan(11 * 6 + 9 * (40 + 4 + 2 * 5) + 4 + 5 * 8);
});
