// Before jest starts (scripts/test.js): every module of lib/ transpiled into the source loader's
// cache (lib/threads/launch.ts `sourceLoader`), in one process. On a fresh clone the cache is
// empty, and the query hosts and worker threads that the first test files start together each
// transpiled the modules they load (about 0.5 s of CPU each); afterwards they read them. Warm,
// this reads the cache and writes nothing (about 0.1 s).
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { tsModules } = require('./lib-modules');

/**
 * Fills the transpile cache with the modules below `folder` (default `root`/lib); a failure
 * only costs time later.
 */
function fillTranspileCache(root, folder = path.join(root, 'lib')) {
  require('sucrase/register/ts');
  const { sourceLoader } = require(path.join(root, 'lib', 'threads', 'launch'));
  // the paths as the loader sees them, which name the cached files: Node's resolved real paths
  // (given on stdin: a list in the script's text would grow towards the limit of one argument)
  const files = tsModules(fs.realpathSync(folder));
  const script = `${sourceLoader()}
for (const file of JSON.parse(fs.readFileSync(0, 'utf8'))) transpile(fs.readFileSync(file, 'utf8'), file);
`;
  spawnSync(process.execPath, ['-e', script], { input: JSON.stringify(files), stdio: ['pipe', 'inherit', 'inherit'] });
}

module.exports = { fillTranspileCache };
