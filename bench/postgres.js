// A throwaway PostgreSQL cluster for `npm run bench -- --store postgres`: initdb in a temporary
// folder, pg_ctl on a loopback port, one database per server group, removed afterwards. Unlike the
// tests' cluster it keeps PostgreSQL's durable defaults (fsync, synchronous commit), as a
// deployment would, so its figures compare with the file store's, which syncs every write too.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { Client } = require('pg');
const { freePort } = require('./processes');

const run = promisify(execFile);

/** The folder with initdb and pg_ctl (XMLDB_PG_BIN, Debian's newest, or the PATH), or undefined. */
function pgBin() {
  const candidates = [process.env.XMLDB_PG_BIN];
  const debian = '/usr/lib/postgresql';
  if (fs.existsSync(debian)) candidates.push(...fs.readdirSync(debian).sort((a, b) => Number(b) - Number(a)).map((v) => path.join(debian, v, 'bin')));
  candidates.push(...(process.env.PATH ?? '').split(path.delimiter));
  return candidates.find((dir) => dir && fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl')));
}

/** Starts a cluster; answers { url(database), stop() }. PostgreSQL refuses root: as root it runs as `postgres`. */
async function startCluster(port) {
  const bin = pgBin();
  if (bin === undefined) throw new Error('--store postgres needs PostgreSQL binaries (initdb, pg_ctl): install Debian\'s "postgresql" package or set XMLDB_PG_BIN');
  const asRoot = process.getuid?.() === 0;
  const pg = (tool, args) => (asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]) : run(path.join(bin, tool), args));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xmldb-bench-pg-'));
  const data = path.join(dir, 'data');
  if (asRoot) {
    fs.chmodSync(dir, 0o755);
    await run('chown', ['postgres', dir]);
  }
  port ||= await freePort();
  await pg('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C']);
  const settings = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c max_connections=200`;
  await pg('pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', '-o', settings, 'start']);
  const admin = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    /** A new, empty database: its URL. */
    async database(name) {
      const client = new Client({ connectionString: admin });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    log: path.join(dir, 'server.log'),
    async stop() {
      await pg('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

module.exports = { startCluster };
