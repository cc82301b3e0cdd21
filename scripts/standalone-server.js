// Starts the built standalone server (dist/bin.js) on a free port for the conformance runners
// (`npm run qt3`, `npm run xqftts`); resolves with the child process and the URL it listens on.
'use strict';
const path = require('node:path');
const { spawn } = require('node:child_process');

function startServer(root, dbPath, password) {
  const child = spawn(process.execPath, [path.join(root, 'dist', 'bin.js'), '--port', '0', '--db-path', dbPath], {
    env: { ...process.env, XMLDB_ADMIN_PASSWORD: password },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

module.exports = { startServer };
