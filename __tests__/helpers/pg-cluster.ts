/**
 * A throwaway PostgreSQL cluster for the tests: created in a temporary folder with the machine's
 * PostgreSQL binaries (Debian's `postgresql` package, or any `initdb`/`pg_ctl` on the PATH), on a
 * free loopback port, with durability switched off (the cluster lives as long as one jest run).
 *
 * One cluster serves the whole run: jest's global setup names a state folder (`PG_STATE_ENV`);
 * the first test file that needs PostgreSQL creates the cluster there under a lock folder, the
 * others wait for it and reuse it, and the global teardown stops it. PostgreSQL refuses to run as
 * root, so as root the cluster runs as the `postgres` system user (or `nobody`) via `runuser`.
 *
 * Set `XMLDB_TEST_PG_URL` (a superuser URL) to use an existing server instead.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The environment variable naming the state folder of this run's cluster. */
export const PG_STATE_ENV = 'XMLDB_TEST_PG_STATE';
/** An existing server to use instead of a throwaway cluster: a superuser URL. */
export const PG_URL_ENV = 'XMLDB_TEST_PG_URL';
/** A folder holding `initdb` and `pg_ctl`, when they are elsewhere. */
export const PG_BIN_ENV = 'XMLDB_TEST_PG_BIN';

export interface ClusterInfo {
  /** Superuser URL of the cluster's `postgres` database. */
  readonly url: string;
  readonly dataDir?: string;
  readonly bin?: string;
  readonly runAs?: string;
}

/** The folder with `initdb` and `pg_ctl`, or undefined when PostgreSQL is not installed. */
export function findPgBin(): string | undefined {
  const candidates: string[] = [];
  if (process.env[PG_BIN_ENV]) candidates.push(process.env[PG_BIN_ENV] as string);
  const debian = '/usr/lib/postgresql';
  if (fs.existsSync(debian)) {
    const versions = fs.readdirSync(debian).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => path.join(debian, v, 'bin')));
  }
  candidates.push(...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean));
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl')));
}

/** The system user to run PostgreSQL as: none unless we are root. */
async function runAsUser(): Promise<string | undefined> {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    try {
      await run('id', ['-u', name]);
      return name;
    } catch {
      // try the next one
    }
  }
  throw new Error('Running as root, and neither a "postgres" nor a "nobody" user exists to run PostgreSQL as.');
}

/** Runs a PostgreSQL binary, as `user` when given (root cannot run them). */
function runPg(bin: string, tool: string, args: string[], user: string | undefined): Promise<unknown> {
  const file = path.join(bin, tool);
  if (user === undefined) return run(file, args);
  return run('runuser', ['-u', user, '--', file, ...args]);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Creates and starts a cluster in `dir` (which must not exist yet). */
async function createCluster(dir: string): Promise<ClusterInfo> {
  const bin = findPgBin();
  if (bin === undefined) throw new Error('no PostgreSQL binaries (initdb, pg_ctl) found');
  const runAs = await runAsUser();
  fs.mkdirSync(dir, { mode: 0o700 });
  if (runAs !== undefined) {
    fs.chmodSync(path.dirname(dir), 0o711); // the user must reach its folder through ours
    await run('chown', [runAs, dir]);
  }
  const dataDir = path.join(dir, 'data');
  await runPg(bin, 'initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'], runAs);
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    const settings = [
      `-p ${port}`,
      '-c listen_addresses=127.0.0.1',
      `-c unix_socket_directories=${dir}`,
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=300',
      '-c shared_buffers=32MB',
    ].join(' ');
    try {
      await runPg(bin, 'pg_ctl', ['-D', dataDir, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', '-o', settings, 'start'], runAs);
      return { url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`, dataDir, bin, runAs };
    } catch (error) {
      lastError = error; // most likely the port was taken meanwhile: try another one
    }
  }
  throw lastError;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The cluster of this run, created by the first caller (of any jest worker) and reused by the
 * others. Rejects when PostgreSQL is unavailable or failed to start.
 */
export async function sharedCluster(): Promise<ClusterInfo> {
  const external = process.env[PG_URL_ENV];
  if (external) return { url: external };
  const state = process.env[PG_STATE_ENV];
  if (!state) throw new Error(`${PG_STATE_ENV} is not set: run the tests with the jest configuration (global setup)`);
  const infoFile = path.join(state, 'cluster.json');
  const failedFile = path.join(state, 'failed.txt');
  const lock = path.join(state, 'lock');
  for (;;) {
    if (fs.existsSync(infoFile)) return JSON.parse(fs.readFileSync(infoFile, 'utf8')) as ClusterInfo;
    if (fs.existsSync(failedFile)) throw new Error(fs.readFileSync(failedFile, 'utf8'));
    try {
      fs.mkdirSync(lock);
    } catch {
      await sleep(100); // another worker is creating it
      continue;
    }
    try {
      const info = await createCluster(path.join(state, 'cluster'));
      fs.writeFileSync(`${infoFile}.tmp`, JSON.stringify(info));
      fs.renameSync(`${infoFile}.tmp`, infoFile);
      return info;
    } catch (error) {
      fs.writeFileSync(failedFile, `PostgreSQL could not be started: ${(error as Error).message}`);
      throw error;
    }
  }
}

/** Stops the run's cluster, if one was started, and removes its folder. */
export async function stopSharedCluster(state: string): Promise<void> {
  const infoFile = path.join(state, 'cluster.json');
  if (fs.existsSync(infoFile)) {
    const info = JSON.parse(fs.readFileSync(infoFile, 'utf8')) as ClusterInfo;
    if (info.bin && info.dataDir) {
      await runPg(info.bin, 'pg_ctl', ['-D', info.dataDir, '-m', 'immediate', '-w', 'stop'], info.runAs).catch(() => undefined);
    }
  }
  fs.rmSync(state, { recursive: true, force: true });
}
