// Writes dist/index.mjs, the ES module entry: it re-exports the CommonJS build, so ESM and
// CommonJS consumers share one instance of the package.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const out = path.join(__dirname, '..', 'dist', 'index.mjs');
// The names are those the CommonJS build exports, so the two entries cannot drift apart.
const names = Object.keys(require(path.join(__dirname, '..', 'dist', 'index.js'))).filter((n) => n !== '__esModule');
fs.writeFileSync(out, `import lib from './index.js';\nexport const { ${names.join(', ')} } = lib;\nexport default lib;\n`);
fs.chmodSync(path.join(__dirname, '..', 'dist', 'bin.js'), 0o755);
