/** One store per data folder: a second opener fails before it touches anything (folder-lock.ts). */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRestRouter } from '../../lib';
import { createFileStore } from '../../lib/store/file-store';
import { LOCK_FILE } from '../../lib/store/folder-lock';
import { ADMIN, startTestServer, tempDir } from '../helpers/rest';

const quiet = { adminPassword: ADMIN.password, log: () => undefined };

/** The pid of a process that has ended. */
function deadPid(): number {
  return Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).toString());
}

describe('the data folder lock', () => {
  test('a second router on an open folder refuses to start and touches nothing; the first keeps its data', async () => {
    const s = await startTestServer();
    await s.put('/rest/db', '<a/>', 'application/xml').expect(201);
    // a temp file of a write in flight: a second opener must not sweep it
    const temp = path.join(s.dbPath, '.abcdefghijkl.tmp.');
    fs.writeFileSync(temp, 'in flight');
    const second = createRestRouter({ ...quiet, dbPath: s.dbPath, restPath: s.restPath });
    await expect(second.ready()).rejects.toThrow(
      `Data folder '${s.dbPath}' is in use by process ${process.pid} on ${os.hostname()}; it cannot be opened twice (remove its .lock. file only if that process is gone).`,
    );
    expect(fs.readFileSync(temp, 'utf8')).toBe('in flight');
    expect((await s.get('/rest/db/db.xml').expect(200)).text).toBe('<a/>');
    fs.rmSync(temp);
    await s.close();
  });

  test('the lock is released on close: the folder opens again', async () => {
    const dbPath = tempDir();
    const first = createRestRouter({ ...quiet, dbPath, restPath: tempDir() });
    await first.ready();
    expect(JSON.parse(fs.readFileSync(path.join(dbPath, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid, host: os.hostname() });
    await first.close();
    expect(fs.existsSync(path.join(dbPath, LOCK_FILE))).toBe(false);
    const again = createRestRouter({ ...quiet, dbPath, restPath: tempDir() });
    await again.ready();
    await again.close();
  });

  test('a stale lock of a process that is gone is taken over', async () => {
    const dbPath = tempDir();
    fs.writeFileSync(path.join(dbPath, LOCK_FILE), JSON.stringify({ pid: deadPid(), host: os.hostname(), token: 'old' }));
    const store = await createFileStore(dbPath, { exclusive: true });
    expect(JSON.parse(fs.readFileSync(path.join(dbPath, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    await store.close();
    expect(fs.readdirSync(dbPath)).toEqual([]);
  });

  test('a lock held on another host is respected', async () => {
    const dbPath = tempDir();
    fs.writeFileSync(path.join(dbPath, LOCK_FILE), JSON.stringify({ pid: 1, host: 'elsewhere.example', token: 't' }));
    await expect(createFileStore(dbPath, { exclusive: true })).rejects.toMatchObject({ status: 503, code: 'FOLDER_LOCKED_XX' });
    expect(fs.readdirSync(dbPath)).toEqual([LOCK_FILE]);
  });

  test('a router whose start failed tries again on the next request', async () => {
    const s = await startTestServer();
    const second = createRestRouter({ ...quiet, dbPath: s.dbPath, restPath: s.restPath });
    await expect(second.ready()).rejects.toMatchObject({ code: 'FOLDER_LOCKED_XX' });
    await s.router.close(); // the first one releases the folder
    await second.ready();
    await second.close();
    await s.close();
  });
});
