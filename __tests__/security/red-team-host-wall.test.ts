/**
 * The host wall (lib/xquery/worker/host-wall.ts) alone, as code that holds the global object
 * would try it after the translator and the engine wall had both failed: what reaches past the
 * worker thread. A worker shares the server's process: `process.kill(process.pid)` ends the
 * server, `process.report` shows the host's real environment (the worker's `process.env` is a
 * copy) and writes files, `process.loadEnvFile` reads files; a worker evaluated from a string
 * (how the package starts workers from its TypeScript source) has `require` as a global.
 * Signal 0 only asks whether a process exists, so the attempt below is harmless if it runs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { inFreshThread } from '../helpers/fresh-thread';
import { tempDir } from '../helpers/rest';

let dir: string;
let alone: Record<string, string>;
beforeAll(async () => {
  dir = tempDir('xmldb-host-wall-');
  fs.writeFileSync(path.join(dir, 'secrets.env'), 'HOST_SECRET=red-team-7c21\n');
  alone = (await inFreshThread(`
    lib('xquery/worker/host-wall').raiseHostWall();
    const out = {};
    const attempt = (name, f) => {
      try { out[name] = 'ran: ' + String(f()); } catch (e) { out[name] = e.message; }
    };
    attempt('kill', () => process.kill(process.pid, 0));
    attempt('_kill', () => process._kill(process.pid, 0));
    attempt('report', () => Object.keys(process.report.getReport().environmentVariables).length);
    attempt('writeReport', () => process.report.writeReport(${JSON.stringify(path.join(dir, 'report.json'))}));
    attempt('loadEnvFile', () => { process.loadEnvFile(${JSON.stringify(path.join(dir, 'secrets.env'))}); return process.env.HOST_SECRET; });
    for (const name of ['require', 'module', 'exports', '__filename', '__dirname']) out[name] = typeof globalThis[name];
    return out;
  `)) as Record<string, string>;
}, 60_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the host wall alone: nothing past the worker thread', () => {
  test('process.kill and process._kill refuse: the worker shares the server’s process id', () => {
    expect(alone.kill).toBe('process.kill is disabled in query workers.');
    expect(alone._kill).toBe('process._kill is disabled in query workers.');
  });

  test('process.report refuses: neither the host’s environment nor a written file', () => {
    expect(alone.report).toBe('process.report is disabled in query workers.');
    expect(alone.writeReport).toBe('process.report is disabled in query workers.');
    expect(fs.existsSync(path.join(dir, 'report.json'))).toBe(false);
  });

  test('process.loadEnvFile reads no file', () => {
    expect(alone.loadEnvFile).toBe('process.loadEnvFile is disabled in query workers.');
  });

  test('no module system among the globals of a worker evaluated from a string', () => {
    for (const name of ['require', 'module', 'exports', '__filename', '__dirname']) expect(alone[name]).toBe('undefined');
  });
});
