// `npm test`: the jest suite, with the parity and conformance suites run as a slice of their
// cases (__tests__/helpers/parity.ts); arguments go to jest (`npm test -- __tests__/http`).
// `npm run test:parity` (`--parity`): those suites with every case, and nothing else.
// `--cpu-report[=N]`: also prints the N test files (default 20) that took the most CPU
// (scripts/test-cpu-report.js).
// `--record-durations`: writes each test file's wall time of this run into
// scripts/test-durations.json (scripts/test-durations.js), by which jest's order starts the long
// files first on a clone that has no timings of its own (scripts/jest-sequencer.js).
// Before jest, the source loader's transpile cache is filled in one process
// (scripts/fill-transpile-cache.js).
// Prints the run's wall time; `.ci/run` holds `npm test` to its time budget. The type check is
// `npm run typecheck` (CI runs it too): run beside jest it took one of a small machine's two
// cores for half a minute.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { cpuReport, machineTimes } = require('./test-cpu-report');
const { recordDurations } = require('./test-durations');
const { fillTranspileCache } = require('./fill-transpile-cache');

const root = path.join(__dirname, '..');
const jest = path.join(path.dirname(require.resolve('jest/package.json', { paths: [root] })), 'bin', 'jest.js');

/** The suites `--parity` runs whole: jest path patterns. */
const PARITY_SUITES = ['__tests__/xquery/update/xquts\\.test\\.ts$', '__tests__/xquery/fulltext/xqftts\\.test\\.ts$', '__tests__/xquery/engine/literal-variants\\.test\\.ts$', '__tests__/security/permission-matrix-', '__tests__/pg-parity/'];

const parity = process.argv[2] === '--parity';
const given = process.argv.slice(parity ? 3 : 2);
const report = given.find((a) => /^--cpu-report(=\d+)?$/.test(a));
const record = given.includes('--record-durations');
const args = [...(parity ? PARITY_SUITES : []), ...given.filter((a) => a !== report && a !== '--record-durations')];
const env = { ...process.env };
// PARITY_ENV of __tests__/helpers/parity.ts
if (parity) env.XMLDB_TEST_PARITY = 'full';
let cpuLog;
if (report || record) {
  cpuLog = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'xmldb-cpu-')), 'files.jsonl');
  env.XMLDB_TEST_CPU_LOG = cpuLog; // CPU_LOG_ENV of __tests__/helpers/file-cpu.ts
}

const machineBefore = machineTimes();
const started = Date.now();
fillTranspileCache(root);
// A larger young generation for jest and its workers (which inherit jest's Node flags): the tests
// allocate many short-lived objects (requests, parsed queries, translations), and with V8's
// default semi-space of 16 MiB the workers spent a tenth of their time in scavenges. On an idle
// 2-core machine the suite took 7 s of CPU less (250 s of user time against 243).
// `--expose-gc`, as query hosts have it (lib/xquery/engine/host-flags.ts): the query workers that
// tests start in jest's workers take V8's `gc` from their globals instead of making a context to
// get it (lib/threads/collect-garbage.ts).
const NODE_FLAGS = ['--max-semi-space-size=64', '--expose-gc'];
const child = spawn(process.execPath, [...NODE_FLAGS, jest, ...args], { cwd: root, stdio: 'inherit', env });
child.once('close', (code, signal) => {
  if (cpuLog) {
    if (report) process.stderr.write(cpuReport(cpuLog, Number(report.split('=')[1] ?? 20), machineBefore, machineTimes()));
    if (record) process.stderr.write(recordDurations(cpuLog, root));
    fs.rmSync(path.dirname(cpuLog), { recursive: true, force: true });
  }
  process.stderr.write(`${parity ? 'npm run test:parity' : 'npm test'}: ${((Date.now() - started) / 1000).toFixed(1)} s wall\n`);
  process.exitCode = code ?? (signal ? 1 : 0);
});
