// Writes dist/index.mjs, the ES module entry: it re-exports the CommonJS build, so ESM and
// CommonJS consumers share one instance of the package.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const out = path.join(__dirname, '..', 'dist', 'index.mjs');
fs.writeFileSync(
  out,
  "import lib from './index.js';\nexport const { createRestRouter, XmldbError } = lib;\nexport default lib;\n",
);
fs.chmodSync(path.join(__dirname, '..', 'dist', 'bin.js'), 0o755);
