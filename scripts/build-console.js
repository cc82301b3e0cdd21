// Builds the web console's browser files (console-ui/) into dist/console/ui: one minified
// script bundle (esbuild), its style sheet and the page. Part of `npm run build`; the console's
// tests run it when the bundle is missing or older than its sources. Fails when the bundle
// passes its budget: 350 KB gzipped.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const esbuild = require('esbuild');

const root = path.join(__dirname, '..');
const source = path.join(root, 'console-ui');
const BUDGET = 350 * 1024;

/**
 * Replaces `file` with `data` by a rename: a server reading the folder while tests build in
 * parallel sees the old file or the new one, never half of one.
 */
function replaceFile(file, data) {
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, data);
  fs.renameSync(temp, file);
}

/** Builds into `outdir` (default dist/console/ui); answers the bundle's gzipped size in bytes. */
async function buildConsole(outdir = path.join(root, 'dist', 'console', 'ui')) {
  fs.mkdirSync(outdir, { recursive: true });
  const { outputFiles } = await esbuild.build({
    write: false,
    entryPoints: [path.join(source, 'main.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2020'],
    outfile: path.join(outdir, 'app.js'),
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  const bundle = outputFiles[0].contents;
  const gzipped = zlib.gzipSync(bundle, { level: 9 }).length;
  if (gzipped > BUDGET) throw new Error(`console bundle is ${gzipped} bytes gzipped, over its budget of ${BUDGET}`);
  replaceFile(path.join(outdir, 'app.js'), bundle);
  replaceFile(path.join(outdir, 'app.css'), fs.readFileSync(path.join(source, 'style.css')));
  // the page last: a reader that finds it finds the files it names
  replaceFile(path.join(outdir, 'index.html'), fs.readFileSync(path.join(source, 'index.html')));
  return gzipped;
}

/** Whether the built files are missing or older than a source file. */
function consoleBuildStale(outdir = path.join(root, 'dist', 'console', 'ui')) {
  let built;
  try {
    built = Math.min(...['app.js', 'app.css', 'index.html'].map((f) => fs.statSync(path.join(outdir, f)).mtimeMs));
  } catch {
    return true;
  }
  return fs.readdirSync(source).some((f) => fs.statSync(path.join(source, f)).mtimeMs > built);
}

module.exports = { buildConsole, consoleBuildStale };

if (require.main === module) {
  buildConsole().then(
    (size) => console.log(`console bundle: ${(size / 1024).toFixed(1)} KB gzipped (budget ${BUDGET / 1024} KB)`),
    (error) => {
      console.error(error.message);
      process.exitCode = 1;
    },
  );
}
