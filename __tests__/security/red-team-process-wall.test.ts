/**
 * The process wall alone (xquery/engine/host-flags.ts): code that already runs JavaScript in a
 * process started with the query host's flags, as if the translator, the engine wall and the
 * host wall had all failed. Node's permission model (a seat belt, not a sandbox) limits files,
 * child processes, addons and the inspector; what it leaves open is a gap of this wall, shown by
 * the failing tests below. Signal 0 only asks whether a process exists; the network target is
 * a server of this test on 127.0.0.1.
 */
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostFlags } from '../../lib/xquery/engine/host-flags';

let server: http.Server;
let outcome: Record<string, string>;
beforeAll(async () => {
  server = http.createServer((_request, response) => response.end('reached'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const script = `
    const out = {};
    const attempt = (name, f) => { try { out[name] = 'allowed: ' + String(f()); } catch (e) { out[name] = e.code || e.message; } };
    attempt('kill', () => process.kill(process.ppid, 0));
    attempt('loadEnvFile', () => process.loadEnvFile('/etc/hostname'));
    require('http').get('http://127.0.0.1:${port}/', (r) => {
      let body = '';
      r.on('data', (c) => (body += c));
      r.on('end', () => { out.network = 'allowed: ' + body; console.log(JSON.stringify(out)); });
    }).on('error', (e) => { out.network = e.code; console.log(JSON.stringify(out)); });
  `;
  const printed = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, [...hostFlags(), '-e', script], { encoding: 'utf8', env: {} }, (error, stdout) => (error ? reject(error) : resolve(stdout))),
  );
  outcome = JSON.parse(printed) as Record<string, string>;
}, 60_000);
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the process wall alone', () => {
  test('holds: loadEnvFile reads no file outside the grants', () => {
    expect(outcome.loadEnvFile).toBe('ERR_ACCESS_DENIED');
  });

  /**
   * Gap: Node's permission model does not cover signals, and the query host is the server's
   * child, so `process.kill(process.ppid, 'SIGKILL')` ends the server. The host wall refuses
   * `process.kill` in the threads that run queries (host-wall.ts), so this needs all four walls
   * to fail. Suggested fix: start the host in a process of its own that may not signal the
   * server (another user id, or seccomp), or detached in a session of its own so that at least
   * the process group cannot be signalled.
   */
  test.failing('gap: the host cannot signal the server', () => {
    expect(outcome.kill).not.toMatch(/^allowed/);
  });

  /**
   * Gap: Node 20 and 22's permission model has no network permission (`--allow-net` came in
   * Node 25), so the host reaches any address the server reaches (services on 127.0.0.1, the
   * cloud metadata address). The host wall removes `fetch` and `require` from query threads;
   * suggested fix for this wall: run the host in a network namespace without interfaces
   * (`unshare -n` where allowed) or pass `--allow-net` where Node has it.
   */
  test.failing('gap: the host reaches no network', () => {
    expect(outcome.network).not.toMatch(/^allowed/);
  });

  /**
   * Gap (running from the TypeScript source only): the host may write the workers' transpile
   * cache (threads/launch.ts), whose files every thread started from source later runs as code,
   * the server's own threads included, which have no permission model. Code in the host could
   * plant JavaScript there. Suggested fix: let the server transpile what the host loads before
   * starting it and grant the host read access only.
   */
  test.failing('gap: the host writes nothing that other processes run as code', () => {
    expect(hostFlags().filter((flag) => flag.includes('--allow-fs-write'))).toEqual([]);
  });
});
