// Writes dist/xquery/worker/runtime-library.sef.json: the runtime library's stylesheet compiled
// with the built package, which its query hosts then read instead of compiling it
// (lib/xquery/worker/shipped-library.ts).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const dist = path.join(__dirname, '..', 'dist');
const { registerExtensionFunctions } = require(path.join(dist, 'xquery', 'functions', 'extension-functions.js'));
const { libraryStylesheet } = require(path.join(dist, 'xquery', 'language', 'translate', 'index.js'));
const { compileUncached } = require(path.join(dist, 'xquery', 'worker', 'compile.js'));
const { SHIPPED_LIBRARY_FILE, shippedLibraryText } = require(path.join(dist, 'xquery', 'worker', 'shipped-library.js'));

// the library calls the engine's extension functions, which the compiler checks
registerExtensionFunctions();
fs.writeFileSync(path.join(dist, 'xquery', 'worker', SHIPPED_LIBRARY_FILE), shippedLibraryText(compileUncached(libraryStylesheet())));
