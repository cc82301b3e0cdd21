/**
 * Leaf summaries (accelerators/leaf-summaries/leaf-summaries.ts): element counts and numeric child values read
 * from stored text, and engine:count-summary over a database, which must answer what counting
 * over the parsed documents answers, or false() (the query as written) when it cannot.
 */
import { parseToStoredXml } from '../../../../lib/convert/xml';
import { countWhere, DocumentSummary, type LeafSummary } from '../../../../lib/xquery/accelerators/leaf-summaries/leaf-summaries';
import { SyncReader } from '../../../../lib/store/cache';
import { StoreSource } from '../../../../lib/xquery/worker/documents/store-source';
import { bin, dataFolder, text, xml } from '../../../helpers/worker-queries';

/** The summary of `text` for elements `name` and children `child`, from a scan that keeps that pair's values only. */
function summarize(text: string, name: string, child: string): LeafSummary | null {
  return DocumentSummary.of(text, { name, child }).summary(name, child);
}

const I = 'Q{}item';
const P = 'Q{}price';

/** count(//item[price op value]) as the summary answers it; null: no summary. */
function counted(doc: string, op: '=' | '!=' | '<' | '<=' | '>' | '>=', value: number, name = I, child = P): number | null {
  const summary = summarize(doc, name, child);
  return summary && countWhere(summary, op, value);
}

describe('summarize', () => {
  it('counts elements by expanded name, with or without a child', () => {
    const doc = '<r xmlns:p="urn:p"><item/><p:item/><x><item><item/></item></x><item xmlns="urn:d"/></r>';
    expect(summarize(doc, I, '')?.count).toBe(3);
    expect(summarize(doc, 'Q{urn:p}item', '')?.count).toBe(1);
    expect(summarize(doc, 'Q{urn:d}item', '')?.count).toBe(1);
    expect(summarize(doc, 'Q{}none', '')?.count).toBe(0);
    // an attribute named like the element is not counted
    expect(summarize('<r><a item="1"/></r>', I, '')?.count).toBe(0);
  });

  it('keeps the values of the child of each element, whatever the nesting', () => {
    const doc = '<r><item><price>10</price><item><price>1</price></item><price>600</price></item><item><x><price>900</price></x></item></r>';
    expect(summarize(doc, I, P)?.count).toBe(3);
    expect(counted(doc, '>', 500)).toBe(1);
    expect(counted(doc, '<', 5)).toBe(1);
    expect(counted(doc, '>', 0)).toBe(2);
    expect(counted(doc, '!=', 10)).toBe(2);
    expect(counted(doc, '=', 10)).toBe(1);
    expect(counted(doc, '>=', 600)).toBe(1);
    expect(counted(doc, '<=', 10)).toBe(2);
  });

  it('reads values as their string value: entities, CDATA, comments, white space', () => {
    const doc = '<r><item><price> 1&#x35;<!--c-->0 </price></item><item><price><![CDATA[2]]>e2</price></item><item><price>\n-.5\n</price></item></r>';
    expect(counted(doc, '=', 150)).toBe(1);
    expect(counted(doc, '=', 200)).toBe(1);
    expect(counted(doc, '<', 0)).toBe(1);
  });

  it('tells namespaces apart in the child too', () => {
    const doc = '<r xmlns:p="urn:p"><item><p:price>900</p:price><price>1</price></item></r>';
    expect(counted(doc, '>', 500)).toBe(0);
    expect(counted(doc, '>', 500, I, 'Q{urn:p}price')).toBe(1);
    expect(counted('<item xmlns="urn:d"><price>9</price></item>', '>', 5, 'Q{urn:d}item', 'Q{urn:d}price')).toBe(1);
    expect(counted('<item xmlns="urn:d"><price xmlns="">9</price></item>', '>', 5, 'Q{urn:d}item', P)).toBe(1);
  });

  it.each([
    ['<r><item><price/></item></r>'],
    ['<r><item><price>abc</price></item></r>'],
    ['<r><item><price>INF</price></item></r>'],
    ['<r><item><price>NaN</price></item></r>'],
    ['<r><item><price>+5</price></item></r>'],
    ['<r><item><price>1 2</price></item></r>'],
    ['<r><item><price><b>5</b></price></item></r>'],
  ])('has no summary when a value is not a plain number: %s', (doc) => {
    expect(summarize(doc, I, P)).toBeNull();
  });

  it('reads what the stored-text scanner leaves to the parser: a DOCTYPE, line ends', () => {
    const doc = '<!DOCTYPE r [<!ENTITY n "5">]><r><item><price>&n;00</price></item><item><price>&n;</price></item></r>';
    expect(counted(doc, '>', 400)).toBe(1);
    expect(counted('<r><item><price>\r\n7\r</price></item></r>', '=', 7)).toBe(1);
    // an undeclared prefix: no summary (the query as written raises the parser's error)
    expect(summarize('<r><p:item/></r>', I, '')).toBeNull();
  });

  it('summarises stored text as the text it was stored from', () => {
    const doc = '<r xmlns:p="urn:p"><item a="&quot;>"><p:price>900</p:price><price> 1&#x35;<!--c-->0 </price></item><p:item><price>7</price></p:item><item xmlns="urn:d"><price>3</price></item></r>';
    const stored = parseToStoredXml(doc).xml;
    for (const [name, child] of [[I, P], [I, 'Q{urn:p}price'], ['Q{urn:p}item', P], ['Q{urn:d}item', 'Q{urn:d}price'], [I, '']]) {
      expect(summarize(stored, name, child)).toEqual(summarize(doc, name, child));
    }
    expect(counted(stored, '=', 150)).toBe(1);
  });

  it('ignores children of other elements and values of other children', () => {
    const doc = '<r><price>abc</price><x><price/></x><item><name>n/a</name><price>7</price></item></r>';
    expect(counted(doc, '>', 5)).toBe(1);
  });
});

describe('DocumentSummary of a whole document', () => {
  const D = 'Q{urn:d}';
  const docs = [
    '<r xmlns:p="urn:p"><item><p:price>900</p:price><price> 1&#x35;<!--c-->0 </price><qty>3</qty><name>n/a</name></item><p:item><price>7</price></p:item><item xmlns="urn:d"><price>3</price></item></r>',
    '<r><item><price>10</price><item><price>1</price></item><price>600</price></item><item><x><price>900</price></x></item><x><qty>4</qty></x></r>',
    '<r><item><price><b>5</b></price><qty>2</qty></item><item><price><item><price>5</price></item></price></item></r>',
    '<r><item><price/><qty>1e2</qty></item><p:item/></r>',
  ];
  const pairs = [[I, P], [I, 'Q{}qty'], [I, 'Q{}name'], [I, 'Q{urn:p}price'], ['Q{urn:p}item', P], [`${D}item`, `${D}price`], ['Q{}x', 'Q{}qty'], ['Q{}x', P], [I, ''], ['Q{}none', ''], ['Q{}none', P], ['Q{}r', 'Q{}item']];

  it.each(docs.map((doc, i) => [i, doc]))('answers every pair as a scan for that pair alone does (document %i)', (_i, doc) => {
    const whole = DocumentSummary.of(doc);
    for (const [name, child] of pairs) expect([name, child, whole.summary(name, child)]).toEqual([name, child, summarize(doc, name, child)]);
  });

  it('keeps the values of one pair only when asked for one', () => {
    const doc = docs[0];
    const one = DocumentSummary.of(doc, { name: I, child: P });
    expect(one.summary(I, P)).toEqual(summarize(doc, I, P));
    expect(one.summary(I, 'Q{}qty')).toEqual({ count: 1, owners: new Int32Array(0), values: new Float64Array(0) });
    expect(DocumentSummary.of(doc).summary(I, 'Q{}qty')).toEqual({ count: 1, owners: Int32Array.of(0), values: Float64Array.of(3) });
  });
});

describe('engine:count-summary over a database', () => {
  const data = dataFolder();
  const call = (uri: string, child: string, op: string, value: string): string =>
    `Q{urn:xmldb-rest:engine}count-summary('${uri}', '${I}', '${child}', '${op}', ${value})`;
  const plain = (uri: string): string => `count(collection('${uri}') ! (/descendant-or-self::node()/item[price > 5]))`;

  beforeEach(async () => {
    await data.store.write(['many', 'none'], async (w) => {
      await w.createDatabase('many');
      await w.createDatabase('none');
      await w.putResource('many', 'a.xml', xml('<r><item><price>10</price></item><item><price>1</price></item></r>'));
      await w.putResource('many', 'd/b.xml', xml('<r><item><price>6</price><price>2</price></item><x><item/></x></r>'));
      await w.putResource('many', 'd/c.xml', xml('<item><price>99</price></item>'));
      await w.putResource('many', 'raw.xml', bin('<r><item><price>50</price></item></r>'));
    });
  });

  it('answers from stored text, without parsing the documents', () => {
    const source = new StoreSource({ dbPath: data.path });
    expect(text(source, `${call('many', P, '>', '5')}, ${call('many', '', '', '()')}, ${call('many/d', P, '>', '5')}, ${call('many/d/c.xml', P, '>', '5')}`)).toBe('3|5|2|1');
    expect(text(source, `${call('none', P, '>', '5')}, ${call('many/nothing', P, '>', '5')}`)).toBe('0|0');
    expect(source.parses).toBe(0);
    // what counting over the parsed documents answers
    expect(text(source, `${plain('many')}, ${plain('many/d')}, ${plain('many/d/c.xml')}`)).toBe('3|2|1');
  });

  it('reads the documents once for counts over other names and children', () => {
    const reader = new SyncReader(data.path);
    const reads: string[] = [];
    const source = new StoreSource({ reader: { versions: (dbs) => reader.versions(dbs), catalog: (db) => reader.catalog(db), read: (db, paths) => (reads.push(...paths), reader.read(db, paths)) } });
    const other = (name: string, child: string, op: string, value: string): string =>
      `Q{urn:xmldb-rest:engine}count-summary('many', '${name}', '${child}', '${op}', ${value})`;
    expect(text(source, call('many', P, '>', '5'))).toBe('3');
    expect(reads.sort()).toEqual(['a.xml', 'd/b.xml', 'd/c.xml']);
    expect(text(source, `${other('Q{}r', '', '', '()')}, ${other(I, 'Q{}qty', '>', '0')}, ${other('Q{}x', '', '', '()')}, ${other(P, '', '', '()')}, ${other('Q{}r', I, '=', '1')}`)).toBe('2|0|1|5|false');
    expect(reads).toHaveLength(3);
  });

  it('follows writes: a new version is summarised again, a deleted document is gone', async () => {
    const source = new StoreSource({ dbPath: data.path });
    expect(text(source, call('many', P, '>', '5'))).toBe('3');
    await data.store.write(['many'], async (w) => {
      await w.putResource('many', 'a.xml', xml('<r><item><price>10</price></item><item><price>11</price></item></r>'));
      await w.deleteResources('many', 'd/c.xml');
    });
    expect(text(source, call('many', P, '>', '5'))).toBe('3');
    expect(text(source, plain('many'))).toBe('3');
  });

  it('answers false() when it cannot answer exactly', async () => {
    const source = new StoreSource({ dbPath: data.path });
    await data.store.write(['many'], (w) => w.putResource('many', 'e.xml', xml('<r><item><price>n/a</price></item></r>')));
    expect(text(source, `${call('many', P, '>', '5')}, ${call('many', '', '', '()')}`)).toBe('false|6');
    // not a database collection: the query as written raises the error
    expect(text(source, `${call('nodb', P, '>', '5')}, ${call('file:///tmp', P, '>', '5')}, ${call('many', P, '>', "'5'")}, ${call('many', P, 'eq', '5')}`)).toBe('false|false|false|false');
    expect(source.parses).toBe(0);
  });
});
