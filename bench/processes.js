// Processes the benchmarks start and stop: the standalone server (dist/bin.js), the round-robin
// proxy (round-robin.js) and BaseX (through the comparison kit's scripts). Each start resolves once
// the process answers, with its REST URL, its pid and a stop().
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const net = require('node:net');
const path = require('node:path');
const { spawn, execFile } = require('node:child_process');
const { promisify } = require('node:util');

/** The admin password the benchmarks' servers get. */
const PASSWORD = 'bench-admin';

/** A free loopback port (for servers that cannot be told to pick one themselves). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Spawns a node script and resolves once it prints `listening on URL`. */
function startListening(args, env, name) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  // Whatever way this process ends (an error, Ctrl-C), the child does not outlive it.
  const orphaned = () => child.kill('SIGTERM');
  process.once('exit', orphaned);
  const exited = new Promise((resolve) => child.once('exit', resolve)).then(() => process.off('exit', orphaned));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /listening on (\S+)/.exec(out);
      if (!m) return;
      child.stdout.resume(); // keep draining: a full pipe would block the child's log writes
      resolve({
        url: m[1],
        pid: child.pid,
        child,
        stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          return exited;
        },
      });
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before listening: ${out.slice(-500)}`)));
  });
}

/** The standalone server on `dbPath` (a fresh folder), optionally over a PostgreSQL store. */
function startServer(dbPath, { storeUrl, port = 0, maxBodyMib } = {}) {
  const env = { XMLDB_ADMIN_PASSWORD: PASSWORD, ...(storeUrl ? { XMLDB_STORE_URL: storeUrl } : {}), ...(maxBodyMib ? { XMLDB_MAX_BODY_SIZE: String(maxBodyMib) } : {}) };
  return startListening([path.join(__dirname, '..', 'dist', 'bin.js'), '--port', String(port), '--db-path', dbPath], env, 'xmldb-rest');
}

/** round-robin.js in front of `urls` (REST URLs of servers); answers the proxy's REST URL. */
async function startRoundRobin(urls, port = 0) {
  const proxy = await startListening([path.join(__dirname, 'round-robin.js'), String(port), ...urls], {}, 'round-robin proxy');
  return { ...proxy, url: `${proxy.url}${new URL(urls[0]).pathname}` };
}

/** Whether BaseX can start: the layout of setup-basex.sh (BASEX_DIR, as the kit's scripts read it, or `kit`/.basex) and java. */
function basexLayout(kit) {
  const layout = process.env.BASEX_DIR || path.join(kit, '.basex');
  if (!fs.existsSync(path.join(kit, 'start-basex.sh')) || !fs.existsSync(path.join(layout, 'lib/basex-api-9.7.2.jar'))) return false;
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && fs.existsSync(path.join(dir, 'java')));
}

/** Whether the kit in `kit` can run its comparison: compare.mjs, its node_modules and BaseX. */
function basexReady(kit) {
  const has = (p) => fs.existsSync(path.join(kit, p));
  return has('compare.mjs') && has('node_modules/autocannon') && basexLayout(kit);
}

/** BaseX with a fresh data folder `dataDir`, through the kit's start-basex.sh/stop-basex.sh. */
async function startBasex(kit, dataDir, port) {
  port ||= await freePort();
  await promisify(execFile)(path.join(kit, 'start-basex.sh'), [String(port), dataDir]);
  const pid = Number(fs.readFileSync(path.join(dataDir, 'basexhttp.pid'), 'utf8'));
  const stop = () => promisify(execFile)(path.join(kit, 'stop-basex.sh'), [dataDir]).then(() => undefined);
  return { url: `http://127.0.0.1:${port}/rest`, pid, stop };
}

/**
 * Runs `start(cleanups, folder)`: it starts processes and pushes their stops to `cleanups`; `folder(name)`
 * makes a temporary folder. Everything is stopped and removed afterwards, the last started first.
 */
async function withProcesses(start) {
  const cleanups = [];
  const folder = (name) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `xmldb-bench-${name}-`));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    return dir;
  };
  const stopAll = async () => {
    for (const stop of cleanups.splice(0).reverse()) await stop().catch((e) => console.error(`cleanup: ${e.message}`));
  };
  // Interrupted (Ctrl-C): stop what was started too; BaseX, started in the background by the kit's
  // script, would not get the terminal's signal.
  const interrupted = () => stopAll().then(() => process.exit(130));
  process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
  try {
    return await start(cleanups, folder);
  } finally {
    process.off('SIGINT', interrupted).off('SIGTERM', interrupted);
    await stopAll();
  }
}

module.exports = { PASSWORD, freePort, startServer, startRoundRobin, basexLayout, basexReady, startBasex, withProcesses };
