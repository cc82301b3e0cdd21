/**
 * XQuery Update conformance: the W3C XQUTS cases of ../shared/xquts, run through the REST
 * interface of one router (scripts/xquts/run.js, as `npm run xquts` runs them), two cases at a
 * time. The run must pass at least as many cases as the committed baseline
 * (scripts/xquts/baseline.json), and every failing case must be a known failure listed there.
 * `npm test` runs a slice of the cases, `npm run test:parity` all of them (helpers/parity.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeWithShared, sharedPath } from '../../helpers/shared-data';
import { ADMIN, startTestServer, type TestServer } from '../../helpers/rest';
import { paritySlice, sliceNote } from '../../helpers/parity';

/** The slice of `npm test`: every 12th applicable case, in catalog order. */
const EVERY = 12;

interface CaseResult {
  readonly name: string;
  readonly ok: boolean;
  readonly cause?: string;
  readonly reason?: string;
}
interface Baseline {
  readonly total: number;
  readonly passed: number;
  readonly failures: Record<string, string>;
}
const { runSuite } = require('../../../scripts/xquts/run') as {
  runSuite(o: { url: string; user: string; password: string; suiteDir: string; jobs: number; select<T>(cases: T[]): T[] }): Promise<CaseResult[]>;
};
const { readBaseline, checkAgainst } = require('../../../scripts/xquts/baseline') as {
  readBaseline(): Baseline;
  checkAgainst(b: Baseline, results: readonly CaseResult[]): { regressions: string[]; fixed: string[] };
};

describeWithShared('XQUTS over REST', ['xquts/XQUTSCatalog.xml'], () => {
  let server: TestServer;
  let listener: http.Server;
  let url: string;

  beforeAll(async () => {
    // two query workers for the two cases at a time: the run is mostly query compilation
    server = await startTestServer({ workers: 2 });
    listener = http.createServer(server.app);
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/rest`;
  });

  afterAll(async () => {
    await new Promise((resolve) => listener.close(resolve));
    await server.close();
  });

  test(
    `passes the baseline, and fails only known failures${sliceNote(EVERY)}`,
    async () => {
      const select = <T>(cases: T[]) => paritySlice(cases, EVERY);
      const results = await runSuite({ url, user: ADMIN.user, password: ADMIN.password, suiteDir: sharedPath('xquts'), jobs: 2, select });
      const baseline = readBaseline();
      // the baseline's cases are the applicable ones in catalog order; the run took this slice of them
      const total = select(Array.from({ length: baseline.total })).length;
      // at least the baseline's passes: all of the run's cases but its known failures (in a full
      // run, total - knownFailures >= baseline.passed)
      const knownFailures = results.filter((r) => r.name in baseline.failures).length;
      const { regressions, fixed } = checkAgainst(baseline, results);
      if (fixed.length > 0) process.stderr.write(`XQUTS: known failures that now pass (update the baseline): ${fixed.join(' ')}\n`);
      const failing = results.filter((r) => regressions.includes(r.name)).map((r) => `${r.name}: ${r.cause}: ${r.reason}`);
      expect(failing).toEqual([]);
      expect(results).toHaveLength(total);
      expect(results.filter((r) => r.ok).length).toBeGreaterThanOrEqual(total - knownFailures);
    },
    20 * 60_000,
  );
});
