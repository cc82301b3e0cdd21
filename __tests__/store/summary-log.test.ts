/**
 * The file store's summary logs (store/file/summary-log.ts): what the `summarize` option made of
 * each XML document stored is kept by the document's etag after its commit, read back by the
 * server's read views and by a worker's direct reader, never for an uncommitted or other
 * version; a log cut by a crash, rewritten, or belonging to a database dropped and created again
 * never yields a wrong record.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { createFileStore, type FileStore } from '../../lib/store/file/file-store';
import { SummaryLogReader, summaryLogFile } from '../../lib/store/file/summary-log';
import type { ResourceInfo } from '../../lib/store/types';
import { tempFolder, xml } from './helpers';

const dir = tempFolder();

/** The summary the tests' stores keep: the document's text, marked (none for a document without `keep`). */
const summarize = (data: Buffer): Uint8Array | undefined => (data.includes('keep') ? Buffer.from(`summary of ${data.toString('utf8')}`) : undefined);
const textOf = (bytes: Uint8Array | null | undefined): string | undefined => (bytes ? Buffer.from(bytes).toString('utf8') : undefined);

let store: FileStore;
beforeEach(async () => {
  store = await createFileStore(dir.path, { summarize });
  await store.write(['db'], (w) => w.createDatabase('db'));
});
afterEach(async () => {
  await store.close();
});

async function put(documents: Readonly<Record<string, string>>): Promise<ResourceInfo[]> {
  return store.write(['db'], async (w) => {
    const infos: ResourceInfo[] = [];
    for (const [p, content] of Object.entries(documents)) infos.push((await w.putResource('db', p, xml(content)))!);
    return infos;
  });
}

/** The summaries of `etags` as the server's read view and a worker's reader find them. */
async function found(etags: readonly string[]): Promise<{ view: (string | undefined)[]; worker: (string | undefined)[] }> {
  const view = await store.read(['db'], (r) => r.summaries!('db', etags));
  return { view: view.map(textOf), worker: new SummaryLogReader(dir.path).summaries('db', etags).map(textOf) };
}

test('each committed XML document is summarised once, by its etag; binaries, documents without a summary and other etags have none', async () => {
  const [a, b, c] = await put({ 'a.xml': '<a>keep</a>', 'b.xml': '<b>keep</b>', 'c.xml': '<c/>' });
  const bin = await store.write(['db'], (w) => w.putResource('db', 'r.bin', { type: 'binary', data: Buffer.from('keep') }));
  const all = await found([a.etag, b.etag, c.etag, bin!.etag, 'no-such-etag']);
  expect(all.view).toEqual(['summary of <a>keep</a>', 'summary of <b>keep</b>', undefined, undefined, undefined]);
  expect(all.worker).toEqual(all.view);
  // a new version has its own; the old one's record is still right for the old version only
  const [a2] = await put({ 'a.xml': '<a>keep 2</a>' });
  expect((await found([a2.etag, a.etag])).view).toEqual(['summary of <a>keep 2</a>', 'summary of <a>keep</a>']);
});

test('a write that fails keeps nothing; a reader that indexed the log sees what is appended later', async () => {
  const reader = new SummaryLogReader(dir.path);
  const [a] = await put({ 'a.xml': '<a>keep</a>' });
  expect(reader.summaries('db', [a.etag]).map(textOf)).toEqual(['summary of <a>keep</a>']);
  let lost: ResourceInfo | undefined;
  await expect(
    store.write(['db'], async (w) => {
      lost = await w.putResource('db', 'b.xml', xml('<b>keep</b>'));
      throw new Error('abandoned');
    }),
  ).rejects.toThrow('abandoned');
  const [c] = await put({ 'c.xml': '<c>keep</c>' });
  expect(reader.summaries('db', [lost!.etag, c.etag]).map(textOf)).toEqual([undefined, 'summary of <c>keep</c>']);
  expect((await found([lost!.etag])).view).toEqual([undefined]);
});

test('a log cut short by a crash ends at its last whole record, and is started afresh by the next write', async () => {
  const [a, b] = await put({ 'a.xml': '<a>keep</a>', 'b.xml': '<b>keep</b>' });
  const file = summaryLogFile(dir.path, 'db');
  const whole = await fs.readFile(file);
  // the second record half written, then a torn header
  const firstLength = 8 + whole.readUInt32LE(0);
  await fs.writeFile(file, Buffer.concat([whole.subarray(0, firstLength + 20)]));
  expect(await found([a.etag, b.etag])).toEqual({ view: ['summary of <a>keep</a>', undefined], worker: ['summary of <a>keep</a>', undefined] });
  // a record whose bytes changed fails its hash
  const flipped = Buffer.from(whole);
  flipped[firstLength - 1] ^= 1;
  await fs.writeFile(file, flipped);
  expect((await found([a.etag, b.etag])).worker).toEqual([undefined, undefined]);
  // the next write of a store opened again finds a log that does not end in a whole record: it starts afresh
  await fs.writeFile(file, whole.subarray(0, firstLength + 20));
  await store.close();
  store = await createFileStore(dir.path, { summarize });
  const [c] = await put({ 'c.xml': '<c>keep</c>' });
  expect(await found([a.etag, c.etag])).toEqual({ view: [undefined, 'summary of <c>keep</c>'], worker: [undefined, 'summary of <c>keep</c>'] });
});

test('a log grown past twice its size is rewritten with the records of the versions the catalog holds', async () => {
  const reader = new SummaryLogReader(dir.path);
  const big = 'keep'.repeat(35_000);
  const first = await put({ 'a.xml': `<a>${big}</a>`, 'b.xml': `<b>${big}</b>` });
  expect(reader.summaries('db', [first[0].etag]).map((s) => s?.length)).toEqual([Buffer.byteLength(`summary of <a>${big}</a>`)]);
  let latest = first;
  for (let i = 0; i < 8; i++) latest = await put({ 'a.xml': `<a>${i}${big}</a>` });
  const size = (await fs.stat(summaryLogFile(dir.path, 'db'))).size;
  // ten records of about 140 KB appended, past the first rewrite's 1 MB: not all are kept
  expect(size).toBeLessThan(5 * 140_000);
  const etags = [latest[0].etag, first[1].etag, first[0].etag];
  const expected = [`summary of <a>7${big}</a>`, `summary of <b>${big}</b>`];
  expect((await found(etags)).view.map((s) => s?.slice(0, 20))).toEqual([...expected.map((s) => s.slice(0, 20)), undefined]);
  // the reader that indexed the old log reads the rewritten one from its start
  expect(reader.summaries('db', etags).map((s) => textOf(s)?.slice(0, 20))).toEqual([...expected.map((s) => s.slice(0, 20)), undefined]);
});

test('a database dropped and created again: readers that indexed the old log find the new records', async () => {
  const reader = new SummaryLogReader(dir.path);
  const [a] = await put({ 'a.xml': '<a>keep</a>', 'b.xml': '<b>keep</b>' });
  expect(reader.summaries('db', [a.etag]).map(textOf)).toEqual(['summary of <a>keep</a>']);
  expect((await found([a.etag])).view).toEqual(['summary of <a>keep</a>']);
  await store.write(['db'], async (w) => {
    await w.dropDatabase('db');
  });
  await store.write(['db'], (w) => w.createDatabase('db'));
  const [c] = await put({ 'c.xml': '<c>keep</c>' });
  expect(await found([c.etag, a.etag])).toEqual({ view: ['summary of <c>keep</c>', undefined], worker: ['summary of <c>keep</c>', undefined] });
  expect(reader.summaries('db', [c.etag, a.etag]).map(textOf)).toEqual(['summary of <c>keep</c>', undefined]);
  expect(path.basename(summaryLogFile(dir.path, 'db'))).toBe('.summaries.');
});
