/**
 * The process wall: queries run in a child process of the server (the query host), so a heap
 * abort or a crash there ends the host only; the server answers the next query.
 */
import fs from 'node:fs';
import request from 'supertest';
import { HOST_MALLOC_ENVIRONMENT } from '../../lib/xquery/engine/host-connection';
import { hostFlags, permissionFlag } from '../../lib/xquery/engine/host-flags';
import { queryUrl, seedUsers, startTestServer, tempDir, type TestServer } from '../helpers/rest';
import { hostPids } from '../helpers/query-host';
import { ownHostProcessesOnly } from '../helpers/shared-hosts';

const NOBODY = { user: 'nobody', password: 'pw' };

describe('the query host process', () => {
  let s: TestServer;
  const debug: string[] = [];
  beforeAll(async () => {
    // the one host process is this file's: none of an earlier file is kept
    await ownHostProcessesOnly();
    process.env.XMLDB_TEST_SERVER_SECRET = 'server-secret-9d2e';
    const dbPath = tempDir();
    await seedUsers(dbPath, [{ name: NOBODY.user, password: NOBODY.password, perm: 'none' }]);
    const logger = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: (_o: unknown, line?: string) => void debug.push(String(line)) };
    s = await startTestServer({ dbPath, workerMemory: 64 * 1024 * 1024, logger });
  });
  afterAll(async () => {
    delete process.env.XMLDB_TEST_SERVER_SECRET;
    await s.close();
  });

  const asNobody = (query: string) => request(s.app).get(queryUrl(query)).auth(NOBODY.user, NOBODY.password);

  test.each([
    ['a huge array', 'array { (1 to 20000000) } => array:size()'],
    ['an array doubled thirty times', 'count(fold-left(1 to 30, [1], function($a, $i) { array:join(($a, $a)) }))'],
  ])('%s fails alone as out of memory, from a user without permissions; the next query is answered', async (_name, bomb) => {
    const r = await asNobody(bomb).timeout(120_000);
    expect(r.status).toBe(500);
    expect(r.text).toBe("[XPDY0130] Out of main memory: the query needed more than its worker's heap (64 MiB).");
    const next = await asNobody('1+1').timeout(60_000);
    expect([next.status, next.text]).toEqual([200, '2']);
  }, 180_000);

  test("runs under Node's permission model with the host's grants and no others (host-flags.ts)", async () => {
    // host-permissions.test.ts tries these flags as an attacker; this checks the server starts its host with them
    expect((await asNobody('1+1').expect(200)).text).toBe('2');
    const [pid] = hostPids();
    expect(pid).toBeDefined();
    const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const flags = argv.slice(1, argv.findIndex((arg) => arg === '-e' || arg.endsWith('.js')));
    expect(flags).toContain(permissionFlag());
    expect(flags.filter((flag) => flag.startsWith('--allow-')).sort()).toEqual(hostFlags().filter((flag) => flag.startsWith('--allow-')).sort());
  });

  test("gets none of the server's environment but its time zone, and its own malloc settings (host-connection.ts)", async () => {
    expect((await asNobody('1+1').expect(200)).text).toBe('2');
    const [pid] = hostPids();
    expect(pid).toBeDefined();
    // Node adds NODE_CHANNEL_FD and NODE_CHANNEL_SERIALIZATION_MODE for the IPC channel it opens
    const environment = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter((v) => v !== '' && !v.startsWith('NODE_CHANNEL_')).sort();
    const expected = { ...HOST_MALLOC_ENVIRONMENT, ...(process.env.TZ !== undefined ? { TZ: process.env.TZ } : {}) };
    expect(environment).toEqual(Object.entries(expected).map(([name, value]) => `${name}=${value}`).sort());
    expect(HOST_MALLOC_ENVIRONMENT).toEqual({ MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_ARENA_MAX: '1' });
  });

  test('a query running when the host is killed fails with an internal error; the next query is answered', async () => {
    expect((await asNobody('1+1').expect(200)).text).toBe('2');
    const [pid] = hostPids();
    expect(pid).toBeDefined();
    const running = asNobody('(trace("started", "run"), count((1 to 2000000000)[. = -1]))').timeout(60_000);
    const answered = running.then((r) => r);
    // fn:trace's line (to logger.debug) says the query runs in a worker of the host
    for (let i = 0; i < 3000 && !debug.some((line) => line.includes('started')); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(debug.some((line) => line.includes('started'))).toBe(true);
    process.kill(pid, 'SIGKILL');
    const r = await answered;
    expect([r.status, r.text]).toEqual([500, 'Internal error.']);
    const next = await asNobody('1+1').timeout(60_000);
    expect([next.status, next.text]).toEqual([200, '2']);
    expect(hostPids()).not.toContain(pid);
  }, 120_000);
});
