/**
 * Routers of one process with equal query settings and one logger share a query host
 * (xquery/engine/shared-hosts.ts): one child process, its jobs still each router's own.
 */
import fs from 'node:fs';
import { createRestRouter } from '../../../lib';
import { hostPids } from '../../helpers/query-host';
import { ownHostProcessesOnly } from '../../helpers/shared-hosts';
import type { RestOptions } from '../../../lib/router-options';
import { getQuery, QUIET, startTestServer, tempDir, type TestServer } from '../../helpers/rest';

/** A query that runs until it is stopped (its time limit is far away): it sleeps, holding its worker without taking a core. */
const LONG = 'prof:sleep(100000)';

const text = async (s: TestServer, query: string, path = '') => {
  const r = await getQuery(s, query, path);
  return [r.status, r.text];
};

/** Runs `body` with the servers started with `options` (one each), then closes them. */
async function withServers(options: RestOptions[], body: (servers: TestServer[]) => Promise<void>): Promise<void> {
  const servers = await Promise.all(options.map((o) => startTestServer(o)));
  try {
    await body(servers);
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
}

// the routers of this file close their host as production does, not kept for the next test
// (nor for the next file), and no process of an earlier file is left to count
beforeAll(ownHostProcessesOnly);
afterEach(() => expect(hostPids()).toEqual([]));

test('two routers on two data folders run in one host, each on its own data', () =>
  withServers([{}, {}], async ([a, b]) => {
    await a.put('/rest/d', '<a>one</a>').expect(201);
    await b.put('/rest/d', '<b>two</b>').expect(201);
    expect(await text(a, 'string(.)', '/d')).toEqual([200, 'one']);
    expect(await text(b, 'string(.)', '/d')).toEqual([200, 'two']);
    expect(await text(a, 'count(collection("d"))')).toEqual([200, '1']);
    expect(hostPids()).toHaveLength(1);
  }));

test('routers over copies of one data folder are not answered from each other’s catalogs', async () => {
  const first = await startTestServer();
  await first.put('/rest/d', '<x>old</x>').expect(201);
  await first.router.close();
  const copy = tempDir();
  fs.cpSync(first.dbPath, copy, { recursive: true });
  // the same database at the same version in both folders, then one write in each
  await withServers([{ dbPath: first.dbPath, restPath: first.restPath }, { dbPath: copy }], async ([a, b]) => {
    await a.put('/rest/d/y.xml', '<y>a</y>').expect(201);
    await b.put('/rest/d/z.xml', '<z>b</z>').expect(201);
    expect(await text(a, 'string-join(sort(collection("d")/*/name()), ",")')).toEqual([200, 'x,y']);
    expect(await text(b, 'string-join(sort(collection("d")/*/name()), ",")')).toEqual([200, 'x,z']);
    expect(hostPids()).toHaveLength(1);
  });
});

test('routers with other query settings, another logger or ownQueryHost have hosts of their own', () =>
  withServers([{}, { queryTimeout: 20_000 }, { logger: { ...QUIET } }, { ownQueryHost: true }], async (servers) => {
    for (const s of servers) expect(await text(s, '1 + 1')).toEqual([200, '2']);
    expect(hostPids()).toHaveLength(4);
  }));

test('ownQueryHost is a boolean', () => {
  expect(() => createRestRouter({ dbPath: tempDir(), ownQueryHost: 'yes' as unknown as boolean })).toThrow(
    new TypeError('xmldb-rest: invalid options: "ownQueryHost" must be a boolean.'),
  );
});

test('a router closed while its query runs ends that query; the other router keeps the host', async () => {
  const a = await startTestServer();
  const b = await startTestServer();
  let aOpen = true;
  try {
    expect(await text(b, '1 + 1')).toEqual([200, '2']);
    const [pid] = hostPids();
    const running = getQuery(a, LONG).then((r) => r.status);
    // (the query may be running or still waiting for the host: either way it is `a`'s)
    await new Promise((resolve) => setTimeout(resolve, 500));
    aOpen = false;
    await a.close();
    expect(await running).toBe(500);
    // the only worker, which ran it, was stopped: `b`'s query does not wait for the long one
    expect(await text(b, 'sum(1 to 10)')).toEqual([200, '55']);
    expect(hostPids()).toEqual([pid]);
  } finally {
    if (aOpen) await a.close();
    await b.close();
  }
});

test('a host that ends fails the running queries of both routers and is started again for both', () =>
  withServers([{}, {}], async ([a, b]) => {
    expect(await text(a, '1 + 1')).toEqual([200, '2']);
    const [pid] = hostPids();
    const running = [getQuery(a, LONG), getQuery(b, LONG)].map((t) => t.then((r) => [r.status, r.text]));
    await new Promise((resolve) => setTimeout(resolve, 500));
    process.kill(pid, 'SIGKILL');
    expect(await Promise.all(running)).toEqual([
      [500, 'Internal error.'],
      [500, 'Internal error.'],
    ]);
    expect(await text(a, '2 + 2')).toEqual([200, '4']);
    expect(await text(b, '3 + 3')).toEqual([200, '6']);
    expect(hostPids()).toHaveLength(1);
    expect(hostPids()).not.toContain(pid);
  }));
