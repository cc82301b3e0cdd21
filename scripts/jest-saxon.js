// Jest transform for saxon-js's script: the source patches that load.ts applies wherever Node
// loads it (lib/saxon/patches/source.ts), applied here too, so that the code a test runs in
// jest's registry is the code the query workers run, at their speed.
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const { buildSync } = require('esbuild');

const PATCHES = path.join(__dirname, '..', 'lib', 'saxon', 'patches');
const ENTRY = path.join(PATCHES, 'source.ts');

let patch;
/** source.ts's `patchSaxonSource`, bundled from its TypeScript once per process. */
function patchSaxonSource() {
  if (!patch) {
    const { outputFiles } = buildSync({ entryPoints: [ENTRY], bundle: true, write: false, format: 'cjs', platform: 'node', target: 'node20' });
    const mod = new Module(ENTRY, module);
    mod.filename = ENTRY;
    mod._compile(outputFiles[0].text, ENTRY);
    patch = mod.exports.patchSaxonSource;
  }
  return patch;
}

let patchesDigest;
/** A digest of this transform and the patches' sources, read once per process (they do not change during a run). */
function patchesKey() {
  if (patchesDigest === undefined) {
    const hash = crypto.createHash('sha256').update(fs.readFileSync(__filename));
    for (const name of fs.readdirSync(PATCHES).sort()) hash.update(name).update(fs.readFileSync(path.join(PATCHES, name)));
    patchesDigest = hash.digest('hex');
  }
  return patchesDigest;
}

module.exports = {
  getCacheKey(source, file) {
    return crypto.createHash('sha256').update(patchesKey()).update(file).update(source).digest('hex');
  },
  process(source) {
    return { code: patchSaxonSource()(source) };
  },
};
