// Jest transform for saxon-js's script: the source patches that load.ts applies wherever Node
// loads it (lib/saxon/patches/source.ts), applied here too, so that the code a test runs in
// jest's registry is the code the query workers run, at their speed.
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const { buildSync } = require('esbuild');

const ROOT = path.join(__dirname, '..');
const ENTRY = path.join(ROOT, 'lib', 'saxon', 'patches', 'source.ts');

let bundled;
/**
 * source.ts bundled from its TypeScript once per process: its `patchSaxonSource`, and a digest of
 * this transform and of every source the bundle was made from (they do not change during a run).
 */
function bundle() {
  if (!bundled) {
    const { outputFiles, metafile } = buildSync({ entryPoints: [ENTRY], bundle: true, write: false, metafile: true, format: 'cjs', platform: 'node', target: 'node20', outdir: path.dirname(ENTRY) });
    const mod = new Module(ENTRY, module);
    mod.filename = ENTRY;
    mod._compile(outputFiles[0].text, ENTRY);
    const hash = crypto.createHash('sha256').update(fs.readFileSync(__filename));
    for (const input of Object.keys(metafile.inputs).sort()) hash.update(input).update(fs.readFileSync(path.resolve(ROOT, input)));
    bundled = { patch: mod.exports.patchSaxonSource, digest: hash.digest('hex') };
  }
  return bundled;
}

module.exports = {
  getCacheKey(source, file) {
    return crypto.createHash('sha256').update(bundle().digest).update(file).update(source).digest('hex');
  },
  process(source) {
    return { code: bundle().patch(source) };
  },
};
