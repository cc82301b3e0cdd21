// `npm test`: the type check (tsc --noEmit over lib, tests and benches) and the jest suite, run
// side by side: jest alone keeps both cores of a small machine busy only part of the time.
// Arguments go to jest (`npm test -- __tests__/http`). Exits non-zero when either fails; the type
// check's report is printed after jest's summary.
'use strict';
const path = require('node:path');
const { spawn } = require('node:child_process');

const root = path.join(__dirname, '..');
const bin = (pkg, file) => path.join(path.dirname(require.resolve(`${pkg}/package.json`, { paths: [root] })), file);

function run(file, args, stdio) {
  const child = spawn(process.execPath, [file, ...args], { cwd: root, stdio });
  let output = '';
  if (stdio === 'pipe') {
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
  }
  return new Promise((resolve) => child.once('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output })));
}

async function main() {
  const typecheck = run(bin('typescript', 'bin/tsc'), ['-p', 'tsconfig.json', '--noEmit'], 'pipe');
  const tests = run(bin('jest', 'bin/jest.js'), process.argv.slice(2), 'inherit');
  const [tsc, jest] = await Promise.all([typecheck, tests]);
  if (tsc.code !== 0) {
    process.stderr.write(`\nType check failed (tsc -p tsconfig.json --noEmit):\n${tsc.output}`);
  } else {
    process.stderr.write('Type check passed (tsc -p tsconfig.json --noEmit).\n');
  }
  process.exitCode = tsc.code !== 0 ? 1 : jest.code;
}

main();
