// Jest transform for saxon-js's script: the source patches that load.ts applies wherever Node
// loads it (lib/saxon/patches/package-walk.ts), applied here too, so that the code a test runs in
// jest's registry is the code the query workers run, at their speed.
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const { transformSync } = require('esbuild');

const PATCH = path.join(__dirname, '..', 'lib', 'saxon', 'patches', 'package-walk.ts');

let patch;
/** package-walk.ts's `patchPackageWalk`, compiled from its TypeScript once per process. */
function patchPackageWalk() {
  if (!patch) {
    const { code } = transformSync(fs.readFileSync(PATCH, 'utf8'), { format: 'cjs', target: 'node20', loader: 'ts', sourcefile: PATCH });
    const mod = new Module(PATCH, module);
    mod.filename = PATCH;
    mod._compile(code, PATCH);
    patch = mod.exports.patchPackageWalk;
  }
  return patch;
}

module.exports = {
  getCacheKey(source, file) {
    return crypto.createHash('sha256').update(fs.readFileSync(__filename)).update(fs.readFileSync(PATCH)).update(file).update(source).digest('hex');
  },
  process(source) {
    return { code: patchPackageWalk()(source) };
  },
};
