/**
 * XQFTTS (W3C XQuery and XPath Full Text 1.0 test suite) through the REST router, with the runner
 * of `npm run xqftts` (scripts/xqftts.js). Runs when the suite is beside the repository
 * (../shared/xqftts) or at XQFTTS_DIR; otherwise it is skipped visibly, and fails under CI=true.
 * Every case of the committed baseline must pass; a case passing beyond it is reported.
 * `npm test` runs a slice of the cases, `npm run test:parity` all of them (helpers/parity.ts).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ADMIN, startTestServer, type TestServer } from '../../helpers/rest';
import { paritySlice, sliceNote } from '../../helpers/parity';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { runSuite, readCatalog } = require('../../../scripts/xqftts.js') as {
  runSuite(o: { url: string; user: string; password: string; suite: string; filter?: { test(name: string): boolean } }): Promise<{ results: { name: string; pass: boolean; detail: string }[] }>;
  readCatalog(suite: string): { cases: { name: string }[] };
};

/** The slice of `npm test`: every 9th case, in catalog order. */
const EVERY = 9;

const SUITE = process.env.XQFTTS_DIR ?? path.join(__dirname, '..', '..', '..', '..', 'shared', 'xqftts');
const BASELINE = path.join(__dirname, 'xqftts-baseline.txt');
const present = fs.existsSync(path.join(SUITE, 'XQFTTSCatalog.xml'));

if (!present) {
  test('XQFTTS suite present', () => {
    if (process.env.CI === 'true') throw new Error(`XQFTTS suite missing at ${SUITE} (set XQFTTS_DIR)`);
    console.warn(`SKIPPED: XQFTTS suite not found at ${SUITE} (set XQFTTS_DIR to run it)`);
  });
} else {
  let s: TestServer;
  let server: http.Server;
  beforeAll(async () => {
    s = await startTestServer();
    server = http.createServer(s.app).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await s.close();
  });

  test(`every case of the baseline passes${sliceNote(EVERY)}`, async () => {
    const port = (server.address() as AddressInfo).port;
    // XQFTTS_TESTS (a regular expression over case names) runs a part of the suite.
    const named = process.env.XQFTTS_TESTS ? new RegExp(process.env.XQFTTS_TESTS) : undefined;
    const { cases } = readCatalog(SUITE);
    const sliced = new Set(paritySlice(cases, EVERY).map((c) => c.name));
    const filter = named ?? (sliced.size < cases.length ? { test: (name: string) => sliced.has(name) } : undefined);
    const { results } = await runSuite({ url: `http://127.0.0.1:${port}/rest`, user: ADMIN.user, password: ADMIN.password, suite: SUITE, filter });
    if (process.env.XQFTTS_REPORT) fs.writeFileSync(process.env.XQFTTS_REPORT, JSON.stringify(results, null, 1));
    const baseline = fs.readFileSync(BASELINE, 'utf8').split('\n').filter((l) => l.length > 0 && (!filter || filter.test(l)));
    const passed = new Set(results.filter((r) => r.pass).map((r) => r.name));
    const regressions = baseline.filter((name) => !passed.has(name)).map((name) => `${name}: ${results.find((r) => r.name === name)?.detail ?? 'missing'}`);
    const gained = [...passed].filter((name) => !baseline.includes(name));
    if (gained.length > 0) console.log(`XQFTTS: ${gained.length} cases pass beyond the baseline: ${gained.join(' ')}`);
    console.log(`XQFTTS: ${passed.size}/${results.length} passed`);
    if (process.env.XQFTTS_WRITE_BASELINE === '1' && !filter) fs.writeFileSync(BASELINE, `${[...passed].sort().join('\n')}\n`);
    expect(regressions).toEqual([]);
  }, 600_000);
}
