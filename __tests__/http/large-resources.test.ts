/**
 * Large resources over REST (spec §5): stored and answered byte for byte, and streamed from the
 * store as the client reads them instead of read whole first. Run on the PostgreSQL store too
 * (pg-parity), whose blobs are kept in chunks: the sizes here span several chunks.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { STREAM_FROM_BYTES } from '../../lib/operations/retrieve';
import { CHUNK_BYTES } from '../../lib/store/postgres/blobs';
import { PgReadView } from '../../lib/store/postgres/read-view';
import { StoreReadView } from '../../lib/store/file/views';
import { ADMIN, asBytes, startTestServer, type TestServer } from '../helpers/rest';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ workers: 1 });
  await s.put('/rest/big').expect(201);
});
afterAll(() => s.close());

const SIZE = 2 * Math.max(STREAM_FROM_BYTES, 2 * CHUNK_BYTES) + 12345;

function pattern(size: number, seed: number): Buffer {
  const data = Buffer.alloc(size);
  for (let i = 0; i < size; i++) data[i] = (i * 7 + seed) % 251;
  return data;
}

/** Spies on a read view method of both stores. */
function spyOnViews(method: 'readBytes' | 'openStream') {
  const spies = [jest.spyOn(StoreReadView.prototype, method), jest.spyOn(PgReadView.prototype, method)];
  return {
    calls: () => spies.reduce((n, spy) => n + spy.mock.calls.length, 0),
    restore: () => spies.forEach((spy) => spy.mockRestore()),
  };
}

test('a binary resource larger than the stream threshold round-trips byte-exact, streamed from the store', async () => {
  const data = pattern(SIZE, 1);
  await s.put('/rest/big/data.bin', data, 'application/octet-stream').expect(201);
  const reads = spyOnViews('readBytes');
  const streams = spyOnViews('openStream');
  try {
    const r = await asBytes(s.get('/rest/big/data.bin')).expect(200);
    expect(r.headers['content-type']).toBe('application/x-binary');
    expect(r.headers['content-length']).toBe(String(SIZE));
    expect((r.body as Buffer).equals(data)).toBe(true);
    expect([reads.calls(), streams.calls()]).toEqual([0, 1]);
  } finally {
    reads.restore();
    streams.restore();
  }
});

test('HEAD of a large resource answers its length and no body', async () => {
  await s.put('/rest/big/head.bin', pattern(SIZE, 2), 'application/octet-stream').expect(201);
  const r = await request(s.app).head('/rest/big/head.bin').auth(ADMIN.user, ADMIN.password).expect(200);
  expect(r.headers['content-length']).toBe(String(SIZE));
  expect(r.headers['content-type']).toBe('application/x-binary');
  expect(r.headers.etag).toBeDefined();
  expect(r.text).toBeUndefined(); // no body received
});

test('a large XML document round-trips byte-exact', async () => {
  const items = Array.from({ length: Math.ceil(SIZE / 40) }, (_, i) => `<item n="${i}">${'x'.repeat((i % 20) + 1)}</item>`).join('');
  const xml = `<items>${items}</items>`;
  await s.put('/rest/big/items.xml', xml, 'application/xml').expect(201);
  const r = await s.get('/rest/big/items.xml').expect(200);
  expect(r.headers['content-type']).toBe('application/xml; charset=UTF-8');
  expect(r.headers['content-length']).toBe(String(Buffer.byteLength(xml)));
  expect(r.text === xml).toBe(true);
  expect((await s.get(`/rest/big?query=${encodeURIComponent("count(doc('big/items.xml')//item)")}`).expect(200)).text).toBe(String(Math.ceil(SIZE / 40)));
});

test('a range across chunk boundaries is answered byte-exact', async () => {
  const data = pattern(SIZE, 3);
  await s.put('/rest/big/range.bin', data, 'application/octet-stream').expect(201);
  const start = CHUNK_BYTES - 5;
  const end = 2 * CHUNK_BYTES + 5;
  const r = await asBytes(s.get('/rest/big/range.bin').set('Range', `bytes=${start}-${end}`)).expect(206);
  expect(r.headers['content-range']).toBe(`bytes ${start}-${end}/${SIZE}`);
  expect((r.body as Buffer).equals(data.subarray(start, end + 1))).toBe(true);
});

test('a body being streamed is not torn by a write that replaces the resource meanwhile', async () => {
  const before = pattern(SIZE, 4);
  const after = pattern(SIZE, 5);
  await s.put('/rest/big/moving.bin', before, 'application/octet-stream').expect(201);
  const server = http.createServer(s.app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const auth = `Basic ${Buffer.from(`${ADMIN.user}:${ADMIN.password}`).toString('base64')}`;
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port, path: '/rest/big/moving.bin', headers: { Authorization: auth } }, resolve).on('error', reject);
    });
    expect(response.statusCode).toBe(200);
    response.pause();
    // the read's locks are released once the answer started: the write does not wait for it
    await s.put('/rest/big/moving.bin', after, 'application/octet-stream').expect(201);
    const chunks: Buffer[] = [];
    for await (const chunk of response) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(before)).toBe(true);
    expect(((await asBytes(s.get('/rest/big/moving.bin')).expect(200)).body as Buffer).equals(after)).toBe(true);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
