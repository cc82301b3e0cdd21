// Starts the built standalone server (dist/bin.js) on a free port over a data folder, for the
// conformance scripts; answers `{ child, url }` once it prints the address it listens on.
'use strict';
const path = require('node:path');
const { spawn } = require('node:child_process');

const root = path.join(__dirname, '..');

function startServer(dbPath, adminPassword) {
  const child = spawn(process.execPath, [path.join(root, 'dist', 'bin.js'), '--port', '0', '--db-path', dbPath], {
    env: { ...process.env, XMLDB_ADMIN_PASSWORD: adminPassword },
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

/** Stops a server of startServer (SIGTERM) and waits for it to end. */
function stopServer(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

module.exports = { startServer, stopServer };
