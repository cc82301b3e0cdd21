/**
 * The query host's seat belt (xquery/engine/host-flags.ts), tested as an attacker who already
 * runs JavaScript in the host: a process started with the host's flags runs a script that tries
 * to read the data folder's secrets, write, start a process, load native code, and do the same
 * from a worker thread.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CODE_ROOT } from '../../lib/threads/launch';
import { hostFlags } from '../../lib/xquery/engine/host-flags';
import { tempDir } from '../helpers/rest';

/** Runs `script` in a Node process with `flags`; answers what it printed (one JSON value). */
function runWith(flags: readonly string[], script: string): Record<string, string> {
  return JSON.parse(execFileSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8', env: {} })) as Record<string, string>;
}

/** A script that tries each attack and prints what each gave: 'allowed' or the error code. */
function attacks(dbPath: string): string {
  const users = JSON.stringify(path.join(dbPath, 'users.json'));
  const password = JSON.stringify(path.join(dbPath, 'admin-password.txt'));
  const written = JSON.stringify(path.join(dbPath, 'written.txt'));
  const ownCode = JSON.stringify(path.join(CODE_ROOT, 'index.ts'));
  return `
const fs = require('fs');
const { Worker } = require('worker_threads');
const outcome = (f) => { try { f(); return 'allowed'; } catch (e) { return e.code || e.message; } };
const result = {
  ownCode: outcome(() => fs.readFileSync(${ownCode})),
  users: outcome(() => fs.readFileSync(${users})),
  password: outcome(() => fs.readFileSync(${password})),
  listing: outcome(() => fs.readdirSync(${JSON.stringify(dbPath)})),
  write: outcome(() => fs.writeFileSync(${written}, 'x')),
  childProcess: outcome(() => require('child_process').execFileSync(process.execPath, ['-v'])),
  nativeAddon: outcome(() => process.dlopen({ exports: {} }, '/nonexistent.node')),
};
const worker = new Worker("const { parentPort } = require('worker_threads'); const fs = require('fs'); try { fs.readFileSync(" + JSON.stringify(${users}) + "); parentPort.postMessage('allowed') } catch (e) { parentPort.postMessage(e.code) }", { eval: true });
worker.once('message', (m) => { result.workerUsers = m; console.log(JSON.stringify(result)); worker.terminate(); });
`;
}

describe('the query host process flags', () => {
  const dbPath = tempDir();
  beforeAll(() => {
    fs.writeFileSync(path.join(dbPath, 'users.json'), '{"users":[]}');
    fs.writeFileSync(path.join(dbPath, 'admin-password.txt'), 'secret');
  });
  afterAll(() => fs.rmSync(dbPath, { recursive: true, force: true }));

  test('code in the host reads its own code but not the data folder, writes nothing and starts no process', () => {
    expect(runWith(hostFlags({ heapMb: 64 }), attacks(dbPath))).toEqual({
      ownCode: 'allowed',
      users: 'ERR_ACCESS_DENIED',
      password: 'ERR_ACCESS_DENIED',
      listing: 'ERR_ACCESS_DENIED',
      write: 'ERR_ACCESS_DENIED',
      childProcess: 'ERR_ACCESS_DENIED',
      nativeAddon: 'ERR_DLOPEN_DISABLED',
      workerUsers: 'ERR_ACCESS_DENIED',
    });
    expect(fs.existsSync(path.join(dbPath, 'written.txt'))).toBe(false);
  });

  test('with file access for queries (allowFileAccess), the host reads every file but still writes nothing', () => {
    const result = runWith(hostFlags({ fileAccess: true }), attacks(dbPath));
    expect(result).toMatchObject({ users: 'allowed', write: 'ERR_ACCESS_DENIED', childProcess: 'ERR_ACCESS_DENIED' });
  });

  test('the flags name the heap limit', () => {
    expect(hostFlags({ heapMb: 64 })).toContain('--max-old-space-size=64');
  });
});
