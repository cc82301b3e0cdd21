/**
 * XQuery Update conformance: the W3C XQUTS cases of ../shared/xquts, run through the REST
 * interface of one router (scripts/xquts/run.js, as `npm run xquts` runs them), two cases at a
 * time. The run must pass at least as many cases as the committed baseline
 * (scripts/xquts/baseline.json), and every failing case must be a known failure listed there.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeWithShared, sharedPath } from '../../helpers/shared-data';
import { ADMIN, startTestServer, type TestServer } from '../../helpers/rest';

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
  runSuite(o: { url: string; user: string; password: string; suiteDir: string; jobs: number }): Promise<CaseResult[]>;
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
    'passes the baseline, and fails only known failures',
    async () => {
      const results = await runSuite({ url, user: ADMIN.user, password: ADMIN.password, suiteDir: sharedPath('xquts'), jobs: 2 });
      const baseline = readBaseline();
      const { regressions, fixed } = checkAgainst(baseline, results);
      if (fixed.length > 0) process.stderr.write(`XQUTS: known failures that now pass (update the baseline): ${fixed.join(' ')}\n`);
      const failing = results.filter((r) => regressions.includes(r.name)).map((r) => `${r.name}: ${r.cause}: ${r.reason}`);
      expect(failing).toEqual([]);
      expect(results).toHaveLength(baseline.total);
      expect(results.filter((r) => r.ok).length).toBeGreaterThanOrEqual(baseline.passed);
    },
    20 * 60_000,
  );
});
