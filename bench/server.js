// Starts the standalone server (dist/) on a data folder for the benchmarks.
'use strict';
const path = require('node:path');
const { spawn } = require('node:child_process');

/** The admin password the benchmarks' servers get. */
const PASSWORD = 'bench-admin';

/** Resolves with the child process and the server's `/rest` URL once it listens. */
async function startServer(dbPath) {
  const child = spawn(process.execPath, [path.join(__dirname, '..', 'dist', 'bin.js'), '--port', '0', '--db-path', dbPath], {
    env: { ...process.env, XMLDB_ADMIN_PASSWORD: PASSWORD },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { child, url };
}

module.exports = { PASSWORD, startServer };
