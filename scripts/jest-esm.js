// Jest transform for ESM-only packages (jest.config.js `ESM_ONLY`): jest's module registry loads
// CommonJS, so their `import`/`export` are rewritten to `require`/`exports` by esbuild.
'use strict';
const { transformSync } = require('esbuild');

module.exports = {
  process(source, file) {
    const { code, map } = transformSync(source, { format: 'cjs', target: 'node20', sourcemap: true, sourcefile: file, loader: 'js' });
    return { code, map };
  },
};
