// `npm run xquts`: XQuery Update conformance with the W3C XQUTS cases of ../shared/xquts, run
// through the REST interface of the standalone server on a fresh data folder (or of a server
// already running: --url URL --user U --password P). Writes xquts/report.md and
// xquts/results.json and checks the run against scripts/xquts/baseline.json. XMLDB_SHARED_DIR
// names the folder holding xquts/ when it is not ../shared.
//   npm run xquts -- --filter '^insert-'     cases whose name matches
//   npm run xquts -- --jobs 2                cases at a time (default 2)
//   npm run xquts -- --write-baseline        keep this run as the baseline
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { startServer, stopServer } = require('./standalone-server');
const { runSuite } = require('./xquts/run');
const { readBaseline, writeBaseline, checkAgainst } = require('./xquts/baseline');

const root = path.join(__dirname, '..');
const suiteDir = path.resolve(process.env.XMLDB_SHARED_DIR ?? path.join(root, '..', 'shared'), 'xquts');
const PASSWORD = 'xquts-admin';

function parseArgs(argv) {
  const o = { jobs: 2, writeBaseline: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--write-baseline') o.writeBaseline = true;
    else if (a === '--filter') o.filter = new RegExp(argv[++i]);
    else if (a === '--jobs') o.jobs = Number(argv[++i]);
    else if (a === '--url') o.url = argv[++i];
    else if (a === '--user') o.user = argv[++i];
    else if (a === '--password') o.password = argv[++i];
    else throw new Error(`unknown argument ${a}`);
  }
  return o;
}

function report(results) {
  const passed = results.filter((r) => r.ok);
  const lines = [
    '# XQUTS over REST',
    '',
    `${passed.length} of ${results.length} cases pass (${((100 * passed.length) / results.length).toFixed(1)}%);` +
      ` ${passed.filter((r) => r.whitespace).length} of them only when whitespace-only text is ignored.`,
    '',
    '| case | state | cause | reason |',
    '|---|---|---|---|',
  ];
  for (const r of results.filter((x) => !x.ok)) {
    lines.push(`| ${r.name} | ${r.state ?? ''} | ${r.cause} | ${String(r.reason).replace(/\|/g, '\\|').replace(/\n/g, ' ')} |`);
  }
  return `${lines.join('\n')}\n`;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(path.join(suiteDir, 'XQUTSCatalog.xml'))) {
    console.error(`npm run xquts needs the XQUTS suite beside this repository (${path.relative(root, suiteDir)}).`);
    process.exitCode = 1;
    return;
  }
  let server;
  let dbPath;
  if (o.url === undefined) {
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
    dbPath = fs.mkdtempSync(path.join(os.tmpdir(), 'xmldb-xquts-'));
    server = await startServer(dbPath, PASSWORD);
  }
  try {
    const results = await runSuite({
      url: o.url ?? server.url,
      user: o.user ?? 'admin',
      password: o.password ?? PASSWORD,
      suiteDir,
      jobs: o.jobs,
      filter: o.filter,
    });
    const outDir = path.join(root, 'xquts');
    fs.mkdirSync(outDir, { recursive: true });
    fs.writeFileSync(path.join(outDir, 'report.md'), report(results));
    fs.writeFileSync(path.join(outDir, 'results.json'), `${JSON.stringify(results, null, 1)}\n`);
    const passed = results.filter((r) => r.ok).length;
    console.log(`${passed} passed, ${results.length - passed} failed (report: xquts/report.md)`);
    if (o.writeBaseline) {
      if (o.filter) throw new Error('--write-baseline needs a run of the whole suite (no --filter)');
      writeBaseline(results);
      console.log('baseline written: scripts/xquts/baseline.json');
    } else if (fs.existsSync(path.join(__dirname, 'xquts', 'baseline.json'))) {
      const { regressions, fixed } = checkAgainst(readBaseline(), results);
      if (fixed.length) console.log(`now passing (known failures in the baseline): ${fixed.join(' ')}`);
      if (regressions.length) {
        console.log(`regressions (not known failures): ${regressions.join(' ')}`);
        process.exitCode = 1;
      }
    }
  } finally {
    if (server) await stopServer(server.child);
    if (dbPath) fs.rmSync(dbPath, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
