// `npm run qt3`: measures XQuery conformance with the QT3 runner of ../shared/tools/qt3 against
// the standalone server on a fresh data folder. Writes qt3/report.md and qt3/results.json.
// Extra arguments go to the runner (e.g. `npm run qt3 -- --sets '^prod-IfExpr$'`).
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, execFileSync } = require('node:child_process');
const { startServer } = require('./standalone-server');

const root = path.join(__dirname, '..');
const tools = path.resolve(root, '..', 'shared', 'tools', 'qt3');
const PASSWORD = 'qt3-admin';

async function main() {
  if (!fs.existsSync(path.join(tools, 'qt3.mjs'))) {
    console.error(`npm run qt3 needs the QT3 runner and test suite beside this repository (${path.relative(root, tools)}).`);
    process.exitCode = 1;
    return;
  }
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  const dbPath = fs.mkdtempSync(path.join(os.tmpdir(), 'xmldb-qt3-'));
  const { child, url } = await startServer(root, dbPath, PASSWORD);
  const outDir = path.join(root, 'qt3');
  fs.mkdirSync(outDir, { recursive: true });
  const extra = process.argv.slice(2);
  const args = [
    path.join(tools, 'qt3.mjs'), '--target', 'rest', '--url', url, '--user', 'admin', '--password', PASSWORD,
    '--jobs', '2', '--report', path.join(outDir, 'report.md'), '--json', path.join(outDir, 'results.json'),
    ...(extra.some((a) => a === '--sets' || a === '--tests') ? [] : ['--sets-file', path.join(tools, 'public-sets.txt')]),
    ...extra,
  ];
  const code = await new Promise((resolve) => {
    const runner = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
    runner.once('exit', resolve);
  });
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
  fs.rmSync(dbPath, { recursive: true, force: true });
  process.exitCode = code ?? 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
