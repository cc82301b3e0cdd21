/**
 * A query host process kept between test files (helpers/kept-hosts.ts, query-host.ts KeptHosts)
 * serves the next file's routers as a new one would: each file is a fresh instance of the
 * package's modules (jest's module registry, made here with `jest.isolateModules`), and no file is
 * answered from the catalogs or documents that the process's workers cached for an earlier one.
 */
import fs from 'node:fs';
import { KeptHostProcesses } from '../../helpers/kept-hosts';
import { hostPids } from '../../helpers/query-host';
import { startTestServer, tempDir } from '../../helpers/rest';

type Rest = typeof import('../../helpers/rest');
type SharedHosts = typeof import('../../../lib/xquery/engine/shared-hosts');

/** Runs `body` with a fresh instance of the package's modules (another test file, to jest). */
async function asAnotherFile(body: (rest: Rest, hosts: SharedHosts) => Promise<void>): Promise<void> {
  let modules: [Rest, SharedHosts] | undefined;
  jest.isolateModules(() => {
    modules = [require('../../helpers/rest') as Rest, require('../../../lib/xquery/engine/shared-hosts') as SharedHosts];
  });
  if (!modules) throw new Error('no modules');
  await body(...modules);
}

/** The texts of database `d`. */
const TEXTS = 'string-join(sort(collection("d")//text()), ",")';

const kept = new KeptHostProcesses();
afterAll(() => kept.endAll());

test("the next file's router takes up the process, and is answered from its own data folder only", async () => {
  // the same database at the same version in two folders, then one write in each
  const folder = tempDir();
  const copy = tempDir();
  const setup = await startTestServer({ dbPath: folder });
  await setup.put('/rest/d', '<x>old</x>').expect(201);
  await setup.router.close();
  fs.cpSync(folder, copy, { recursive: true });
  let pid: number | undefined;
  await asAnotherFile(async (rest, hosts) => {
    await hosts.keepIdleHosts(true, kept);
    const s = await rest.startTestServer({ dbPath: folder });
    await s.put('/rest/d/x.xml', '<x>first file</x>').expect(201);
    // the workers cache this folder's catalog and document at that version
    expect((await rest.getQuery(s, TEXTS).expect(200)).text).toBe('first file,old');
    await s.close();
    await hosts.keepIdleHosts(false);
    expect(kept.pids).toHaveLength(1);
    [pid] = kept.pids;
  });
  expect(hostPids()).toContain(pid);
  await asAnotherFile(async (rest, hosts) => {
    await hosts.keepIdleHosts(true, kept);
    const s = await rest.startTestServer({ dbPath: copy });
    await s.put('/rest/d/x.xml', '<x>next file</x>').expect(201);
    expect((await rest.getQuery(s, TEXTS).expect(200)).text).toBe('next file,old');
    expect(kept.pids).toEqual([]);
    await s.close();
    await hosts.keepIdleHosts(false);
    // the same process, handed back
    expect(kept.pids).toEqual([pid]);
  });
});

test("the next file's router with another pool size and time limit takes up the process, and runs by its own", async () => {
  let pid: number | undefined;
  await asAnotherFile(async (rest, hosts) => {
    await hosts.keepIdleHosts(true, kept);
    const s = await rest.startTestServer({ workers: 2 });
    expect((await rest.getQuery(s, '1').expect(200)).text).toBe('1');
    await s.close();
    await hosts.keepIdleHosts(false);
    [pid] = kept.pids;
  });
  expect(pid).toBeDefined();
  await asAnotherFile(async (rest, hosts) => {
    await hosts.keepIdleHosts(true, kept);
    const s = await rest.startTestServer({ workers: 1, queryTimeout: 1000 });
    const r = await rest.getQuery(s, 'prof:sleep(100000)').expect(500);
    expect(r.text).toContain('[BASX0003] Timeout exceeded (1000 ms).');
    expect(kept.pids).toEqual([]);
    expect(hostPids()).toContain(pid);
    await s.close();
    await hosts.keepIdleHosts(false);
    expect(kept.pids).toEqual([pid]);
  });
});

test('a process that ended while kept is not taken up', async () => {
  await asAnotherFile(async (rest, hosts) => {
    await hosts.keepIdleHosts(true, kept);
    const s = await rest.startTestServer();
    await rest.getQuery(s, '1').expect(200);
    await s.close();
    await hosts.keepIdleHosts(false);
  });
  const [pid] = kept.pids;
  expect(pid).toBeDefined();
  process.kill(pid as number, 'SIGKILL');
  for (let i = 0; i < 500 && kept.pids.length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(kept.pids).toEqual([]);
  await asAnotherFile(async (rest, hosts) => {
    await hosts.keepIdleHosts(true, kept);
    const s = await rest.startTestServer();
    expect((await rest.getQuery(s, '1 + 1').expect(200)).text).toBe('2');
    await s.close();
    await hosts.keepIdleHosts(false);
  });
  expect(kept.pids).toHaveLength(1);
  expect(kept.pids).not.toContain(pid);
});
