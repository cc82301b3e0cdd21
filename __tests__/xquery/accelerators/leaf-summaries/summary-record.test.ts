/**
 * A document's summary as the store keeps it (accelerators/leaf-summaries/summary-record.ts):
 * read back, it answers every pair of names as the summary of the document's text does; a
 * document too large or not well-formed gets none, and a record of another format or cut short
 * is not read.
 */
import { DocumentSummary } from '../../../../lib/xquery/accelerators/leaf-summaries/leaf-summaries';
import { summaryOfRecord, summaryRecord } from '../../../../lib/xquery/accelerators/leaf-summaries/summary-record';

const DOCUMENTS = [
  '<items><item id="1"><name>a</name><price>10.5</price></item><item><price>-0</price><price>1e999</price></item><item/></items>',
  '<r><item><price> 1&#x35;<!--c-->0 </price></item><item><price>x</price></item><x><item><item><price>3</price></item></item></x></r>',
  '<r xmlns:p="urn:p"><p:item><p:v>1</p:v><v>2</v></p:item><item xmlns="urn:d"><v>3</v></item></r>',
  '<r><q:item/></r>',
  '<r>élan<é><price>7</price></é></r>',
  '<r/>',
];
const NAMES = ['Q{}item', 'Q{urn:p}item', 'Q{urn:d}item', 'Q{}r', 'Q{}é', 'Q{}none'];
const CHILDREN = ['', 'Q{}price', 'Q{}name', 'Q{urn:p}v', 'Q{}v', 'Q{urn:d}v', 'Q{}item'];

test.each(DOCUMENTS)('answers every pair as the summary of the text: %s', (doc) => {
  const record = summaryRecord(Buffer.from(doc));
  expect(record).toBeDefined();
  const read = summaryOfRecord(record!)!;
  const scanned = DocumentSummary.of(doc);
  for (const name of NAMES) for (const child of CHILDREN) expect([name, child, read.summary(name, child)]).toEqual([name, child, scanned.summary(name, child)]);
  // kept by the worker's cache at about its bytes
  expect(read.size).toBeGreaterThanOrEqual(16 + record!.length / 8);
});

test('keeps the values as they are: -0, infinity, the digits of a double', () => {
  const read = summaryOfRecord(summaryRecord(Buffer.from('<r><item><price>-0</price><price>1e999</price><price>0.1</price></item></r>'))!)!;
  const values = [...read.summary('Q{}item', 'Q{}price')!.values];
  expect(Object.is(values[0], -0)).toBe(true);
  expect(values.slice(1)).toEqual([Infinity, 0.1]);
});

test('none for a document too large to keep whole or not well-formed; a record of another format or cut short is not read', () => {
  expect(summaryRecord(Buffer.from(`<r>${'<item><price>1</price></item>'.repeat(10_000)}</r>`))).toBeUndefined();
  expect(summaryRecord(Buffer.from('<r><item></r>'))).toBeUndefined();
  const record = Buffer.from(summaryRecord(Buffer.from(DOCUMENTS[0]))!);
  expect(summaryOfRecord(record.subarray(0, record.length - 3))).toBeUndefined();
  expect(summaryOfRecord(Buffer.concat([record, Buffer.from([0])]))).toBeUndefined();
  const other = Buffer.from(record);
  other[0] = 2;
  expect(summaryOfRecord(other)).toBeUndefined();
  expect(summaryOfRecord(new Uint8Array(0))).toBeUndefined();
});

test('no prefix of a record is read, nor a record whose counts promise more entries than it holds', () => {
  const record = Buffer.from(summaryRecord(Buffer.from(DOCUMENTS[0]))!);
  for (let length = 0; length < record.length; length++) expect([length, summaryOfRecord(record.subarray(0, length))]).toEqual([length, undefined]);
  const names = Buffer.from(record);
  names.writeUInt32LE(0xffffffff, 2);
  expect(summaryOfRecord(names)).toBeUndefined();
});

test('the summary kept is a copy: the block a record was read from may be reused', () => {
  const record = summaryRecord(Buffer.from('<r><item><price>4</price><price>5</price></item></r>'))!;
  const block = Buffer.concat([Buffer.from([9, 9, 9]), record]);
  const read = summaryOfRecord(block.subarray(3))!;
  block.fill(0);
  expect(read.summary('Q{}item', 'Q{}price')).toEqual({ count: 1, owners: Int32Array.from([0, 0]), values: Float64Array.from([4, 5]) });
});
