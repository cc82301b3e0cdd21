// `npm run build`: dist/ from lib/.
// - The JavaScript of each module is sucrase's, with the options that every test and every
//   source-mode process runs the code under (lib/threads/launch.ts SOURCE_TRANSFORM): the code
//   shipped is transformed as the code tested is, and in about a second, where the TypeScript
//   compiler's emit took four (measured on Node 20, 2026-12-05).
// - The declarations are the compiler's (`--emitDeclarationOnly`, without the type check, which
//   `npm run typecheck` does), made in a child process meanwhile.
// - The web console (build-console.js) meanwhile too, then the ES module entry (esm-entry.js).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { transform } = require('sucrase');
const { tsModules } = require('./lib-modules');
// sucrase's require hook, to read the options from the module that defines them
require('sucrase/register/ts');
const { SOURCE_TRANSFORM } = require('../lib/threads/launch');

const root = path.join(__dirname, '..');
const lib = path.join(root, 'lib');
const dist = path.join(root, 'dist');

/** Writes dist/NAME.js and its source map for lib/NAME.ts. */
function transpile(relative) {
  const source = path.join(lib, relative);
  const target = path.join(dist, relative.replace(/\.ts$/, '.js'));
  const js = path.basename(target);
  const { code, sourceMap } = transform(fs.readFileSync(source, 'utf8'), {
    ...SOURCE_TRANSFORM,
    transforms: [...SOURCE_TRANSFORM.transforms],
    filePath: source,
    sourceMapOptions: { compiledFilename: js },
  });
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, `${code}\n//# sourceMappingURL=${js}.map\n`);
  fs.writeFileSync(`${target}.map`, JSON.stringify({ ...sourceMap, sources: [path.relative(path.dirname(target), source).split(path.sep).join('/')] }));
}

/** Runs `command` with `args` in the root; rejects when it fails. */
function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
    child.once('error', reject);
    child.once('close', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${path.basename(command)} ${args.join(' ')} failed (${signal ?? `exit code ${code}`})`))));
  });
}

async function main() {
  fs.rmSync(dist, { recursive: true, force: true });
  const tsc = path.join(path.dirname(require.resolve('typescript/package.json', { paths: [root] })), 'bin', 'tsc');
  const declarations = run(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--noCheck', '--emitDeclarationOnly']);
  const consoleFiles = run(process.execPath, [path.join(__dirname, 'build-console.js')]);
  for (const file of tsModules(lib)) transpile(path.relative(lib, file));
  // the entry re-exports what dist/index.js exports
  const library = run(process.execPath, [path.join(__dirname, 'build-library.js')]);
  await run(process.execPath, [path.join(__dirname, 'esm-entry.js')]);
  await Promise.all([declarations, consoleFiles, library]);
}

main().catch((error) => {
  process.stderr.write(`build: ${error.message}\n`);
  process.exitCode = 1;
});
