// The package's modules: the TypeScript files below a folder, declaration files left out. The
// build transpiles them into dist/ (build.js), and `npm test` into the source loader's cache
// before jest starts (fill-transpile-cache.js).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

/** The paths of the modules below `dir` (joined onto `dir`). */
function tsModules(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsModules(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

module.exports = { tsModules };
