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
  // the package's sources and tests, then the console's browser sources (their own DOM settings)
  const tsc = bin('typescript', 'bin/tsc');
  const typecheck = run(tsc, ['-p', 'tsconfig.json', '--noEmit'], 'pipe').then(async (first) => {
    if (first.code !== 0) return first;
    return run(tsc, ['-p', 'console-ui/tsconfig.json'], 'pipe');
  });
  const tests = run(bin('jest', 'bin/jest.js'), process.argv.slice(2), 'inherit');
  const [checked, jest] = await Promise.all([typecheck, tests]);
  if (checked.code !== 0) {
    process.stderr.write(`\nType check failed (tsc -p tsconfig.json --noEmit, then -p console-ui/tsconfig.json):\n${checked.output}`);
  } else {
    process.stderr.write('Type check passed (tsc -p tsconfig.json --noEmit, tsc -p console-ui/tsconfig.json).\n');
  }
  process.exitCode = checked.code !== 0 ? 1 : jest.code;
}

main();
