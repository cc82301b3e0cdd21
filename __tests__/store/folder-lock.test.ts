/**
 * One store per data folder: a second opener fails before it touches anything, and a holder that
 * ended, however it ended, never blocks the next opener (folder-lock.ts).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRestRouter } from '../../lib';
import { createFileStore } from '../../lib/store/file/file-store';
import { LOCK_FILE, lockFolder } from '../../lib/store/file/folder-lock';
import { LEASE_MS } from '../../lib/store/file/lock-holder';
import * as lockSocket from '../../lib/store/file/lock-socket';
import { startLockProcess, type LockProcess } from '../helpers/lock-process';
import { describeWithPostgres, freshDatabase } from '../helpers/postgres';
import { startServerProcess } from '../helpers/server-process';
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
    const since = JSON.parse(fs.readFileSync(path.join(s.dbPath, LOCK_FILE), 'utf8')).since;
    await expect(second.ready()).rejects.toThrow(
      `Data folder '${s.dbPath}' is in use by process ${process.pid} on ${os.hostname()}, holding it since ${since} ` +
        '(this very process); it cannot be opened twice. Close the router of this process that has it open first. ' +
        'Nothing needs removing: the lock ends with its process, so a server that crashed or was killed never blocks a restart.',
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
    expect(fs.readdirSync(dbPath).filter((name) => name.startsWith('.lock'))).toEqual([]);
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

  test('a lock of an earlier version held on another host is respected while its file is younger than the lease', async () => {
    const dbPath = tempDir();
    fs.writeFileSync(path.join(dbPath, LOCK_FILE), JSON.stringify({ pid: 1, host: 'elsewhere.example', token: 't' }));
    await expect(createFileStore(dbPath, { exclusive: true })).rejects.toMatchObject({ status: 503, code: 'FOLDER_LOCKED_XXX' });
    expect(fs.readdirSync(dbPath)).toEqual([LOCK_FILE]);
  });

  test('a router whose start failed tries again on the next request', async () => {
    const s = await startTestServer();
    const second = createRestRouter({ ...quiet, dbPath: s.dbPath, restPath: s.restPath });
    await expect(second.ready()).rejects.toMatchObject({ code: 'FOLDER_LOCKED_XXX' });
    await s.router.close(); // the first one releases the folder
    await second.ready();
    await second.close();
    await s.close();
  });
});

/** The lock files of a folder: its record and its sockets. */
function lockEntries(dbPath: string): string[] {
  return fs.readdirSync(dbPath).filter((name) => name.startsWith('.lock')).sort();
}

/** Rewrites the record a killed holder left, as a record of another life of a process. */
function rewriteRecord(dbPath: string, changes: Record<string, unknown>): void {
  const file = path.join(dbPath, LOCK_FILE);
  fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), ...changes }));
}

/** A folder whose holder, a child process, was killed with SIGKILL: its socket and record stay. */
async function killedHolder(): Promise<string> {
  const dbPath = tempDir();
  const holder = startLockProcess(dbPath);
  expect(await holder.outcome).toBe('locked');
  await holder.kill();
  expect(lockEntries(dbPath)).toEqual([expect.stringMatching(/^\.lock-[\w-]{16}\.$/), LOCK_FILE]); // '-' sorts before '.'
  return dbPath;
}

describe('a holder that ended never blocks the next opener', () => {
  test('SIGKILL, then an immediate restart, 50 times', async () => {
    const dbPath = tempDir();
    // Holders are started ahead, waiting to be told to lock, so that node's start-up overlaps the rounds.
    const waiting = Array.from({ length: 4 }, () => startLockProcess(dbPath, { wait: true }));
    for (let round = 0; round < 50; round++) {
      const holder = waiting.shift() as LockProcess;
      if (round + waiting.length < 49) waiting.push(startLockProcess(dbPath, { wait: true }));
      await holder.ready;
      holder.go();
      expect(await holder.outcome).toBe('locked');
      if (round === 0) {
        await expect(lockFolder(dbPath)).rejects.toThrow(`is in use by process ${holder.child.pid} on ${os.hostname()}`);
      }
      await holder.kill();
      const lock = await lockFolder(dbPath);
      expect(JSON.parse(fs.readFileSync(path.join(dbPath, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
      await lock.release();
    }
    expect(waiting).toEqual([]);
    // every round's socket was removed by the next opener, and the last by its release
    expect(lockEntries(dbPath)).toEqual([]);
  }, 120_000);

  (process.platform === 'linux' ? test : test.skip)('a holder killed but not reaped yet (a zombie: its pid still exists) is no hold', async () => {
    const dbPath = tempDir();
    const holder = startLockProcess(dbPath, { unreaped: true });
    try {
      expect(await holder.outcome).toBe('locked');
      await holder.kill();
      expect(() => process.kill(holder.pid(), 0)).not.toThrow(); // a zombie: signal 0 finds it
      const lock = await lockFolder(dbPath);
      await lock.release();
      expect(lockEntries(dbPath)).toEqual([]);
    } finally {
      holder.dispose();
    }
  });

  test("a record naming the opening process's own pid (a pid reused, as in a container) is no hold", async () => {
    const dbPath = await killedHolder();
    rewriteRecord(dbPath, { pid: process.pid });
    const store = await createFileStore(dbPath, { exclusive: true });
    await store.close();
    expect(fs.readdirSync(dbPath)).toEqual([]);
  });

  test('a record naming pid 1, which is always alive, is no hold', async () => {
    const dbPath = await killedHolder();
    rewriteRecord(dbPath, { pid: 1 });
    const store = await createFileStore(dbPath, { exclusive: true });
    await store.close();
    expect(fs.readdirSync(dbPath)).toEqual([]);
  });

  test('a record of another machine is honoured while its lease runs, and taken over once it has expired', async () => {
    const dbPath = await killedHolder();
    const other = { pid: 4242, host: 'elsewhere.example', kernel: 'boot:another-machine', since: '2026-01-02T03:04:05.000Z' };
    const renewed = Date.now() - LEASE_MS / 2;
    rewriteRecord(dbPath, { ...other, renewed });
    const refused = createFileStore(dbPath, { exclusive: true });
    await expect(refused).rejects.toMatchObject({ status: 503, code: 'FOLDER_LOCKED_XXX' });
    await expect(refused).rejects.toThrow(
      new RegExp(
        `^Data folder '${dbPath}' is in use by process 4242 on elsewhere\\.example \\(another machine, holding it since 2026-01-02T03:04:05\\.000Z, ` +
          `lease renewed at ${new Date(renewed).toISOString().replace(/\./g, '\\.')}\\); it cannot be opened twice\\. Stop that server first\\. ` +
          'If it has stopped, or its machine is down or no longer uses this folder, start again in (2\\d|30) s, when its lease has expired\\. ' +
          'Nothing needs removing: the lock ends with its process, so a server that crashed or was killed never blocks a restart\\.$',
      ),
    );
    expect(lockEntries(dbPath)).toHaveLength(2); // nothing touched

    rewriteRecord(dbPath, { renewed: Date.now() - LEASE_MS - 1 });
    const store = await createFileStore(dbPath, { exclusive: true });
    expect(JSON.parse(fs.readFileSync(path.join(dbPath, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid, host: os.hostname() });
    await store.close();
    expect(fs.readdirSync(dbPath)).toEqual([]);
  });
});

test('the standalone server: a second opener is refused naming it; killed with SIGKILL, its folder opens again at once with its data', async () => {
  const dbPath = tempDir();
  const env = { XMLDB_PATH: dbPath, XMLDB_RESTPATH: tempDir(), XMLDB_ADMIN_PASSWORD: ADMIN.password, XMLDB_WORKERS: '1' };
  const server = await startServerProcess(env);
  const auth = `Basic ${Buffer.from(`${ADMIN.user}:${ADMIN.password}`).toString('base64')}`;
  expect((await fetch(`${server.url}/db`, { method: 'PUT', body: '<a/>', headers: { authorization: auth, 'content-type': 'application/xml' } })).status).toBe(201);
  await expect(lockFolder(dbPath)).rejects.toThrow(
    `Data folder '${dbPath}' is in use by process ${server.child.pid} on ${os.hostname()}, holding it since `,
  );
  await server.stop('SIGKILL');
  // the same opening of the store as the server's (one server start is slow enough)
  const again = await startTestServer({ dbPath });
  expect((await again.get('/rest/db/db.xml').expect(200)).text).toBe('<a/>');
  await again.close();
}, 120_000);

test('a lock socket that answers without saying who it is refuses the open, and the message tells how to find its process', async () => {
  const dbPath = tempDir();
  const server = net.createServer((socket) => socket.end('?'));
  await new Promise<void>((resolve) => server.listen(path.join(dbPath, '.lock-AAAAAAAAAAAAAAAA.'), resolve));
  await expect(lockFolder(dbPath)).rejects.toThrow(
    `Data folder '${dbPath}' is in use by a running process that did not say which; it cannot be opened twice. ` +
      `Stop the other server on this folder first (on Linux, ss -xlp | grep '${dbPath}/.lock-' names it). ` +
      'Nothing needs removing: the lock ends with its process, so a server that crashed or was killed never blocks a restart.',
  );
  expect(lockEntries(dbPath)).toEqual(['.lock-AAAAAAAAAAAAAAAA.']);
  await new Promise((resolve) => server.close(resolve));
});

test('a folder whose file system cannot hold socket files keeps its sockets in a private folder of the temporary folder', async () => {
  const dbPath = tempDir();
  const listenOn = lockSocket.listenOn;
  const spy = jest.spyOn(lockSocket, 'listenOn').mockImplementation(async (address, answer) => {
    if (path.dirname(address) === dbPath) throw Object.assign(new Error('operation not supported on socket'), { code: 'EOPNOTSUPP' });
    return listenOn(address, answer);
  });
  try {
    const { dev, ino } = fs.statSync(dbPath, { bigint: true });
    const folder = path.join(os.tmpdir(), `xmldb-rest-locks-${os.userInfo().uid}`, `${dev}-${ino}`);
    const lock = await lockFolder(dbPath);
    expect(fs.readdirSync(folder)).toEqual([expect.stringMatching(/^\.lock-[\w-]{16}\.$/)]);
    expect(lockEntries(dbPath)).toEqual([LOCK_FILE]);
    await expect(lockFolder(dbPath)).rejects.toThrow(`is in use by process ${process.pid} on ${os.hostname()}`);
    await lock.release();
    expect(fs.readdirSync(folder)).toEqual([]);
    expect(lockEntries(dbPath)).toEqual([]);
  } finally {
    spy.mockRestore();
  }
});

describe('openers starting at the same instant', () => {
  test('of two processes told to take the lock at once, exactly one holds it and the other names it (5 rounds)', async () => {
    const folders = Array.from({ length: 5 }, () => tempDir());
    const pairs = folders.map((dbPath) => [startLockProcess(dbPath, { wait: true }), startLockProcess(dbPath, { wait: true })]);
    for (const [i, both] of pairs.entries()) {
      await Promise.all(both.map((p) => p.ready));
      both.forEach((p) => p.go());
      const outcomes = await Promise.all(both.map((p) => p.outcome));
      const winner = outcomes.indexOf('locked');
      expect(outcomes.filter((o) => o === 'locked')).toHaveLength(1);
      expect(outcomes[1 - winner]).toMatch(
        new RegExp(
          `^Data folder '${folders[i]}' is in use by process ${both[winner].child.pid} on ${os.hostname()}, holding it since \\S+; it cannot be opened twice\\. Stop that server first`,
        ),
      );
      await Promise.all(both.map((p) => p.kill()));
    }
  }, 60_000);

  test('of eight opens in one process at once, exactly one holds the folder (20 rounds)', async () => {
    const dbPath = tempDir();
    for (let round = 0; round < 20; round++) {
      const results = await Promise.allSettled(Array.from({ length: 8 }, () => lockFolder(dbPath)));
      const held = results.filter((r) => r.status === 'fulfilled');
      expect(held).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'FOLDER_LOCKED_XXX' });
      await (held[0] as PromiseFulfilledResult<{ release(): Promise<void> }>).value.release();
    }
    expect(lockEntries(dbPath)).toEqual([]);
  });
});

test('a folder deeper than a socket address allows is locked all the same', async () => {
  const dbPath = path.join(tempDir(), 'a-folder-name-of-forty-characters-long-x', 'a-folder-name-of-forty-characters-long-y', 'the-data-folder');
  fs.mkdirSync(dbPath, { recursive: true });
  expect(Buffer.byteLength(dbPath)).toBeGreaterThan(110);
  const holder = startLockProcess(dbPath);
  expect(await holder.outcome).toBe('locked');
  await expect(lockFolder(dbPath)).rejects.toThrow(`is in use by process ${holder.child.pid}`);
  await holder.kill();
  const lock = await lockFolder(dbPath);
  await lock.release();
  expect(lockEntries(dbPath)).toEqual([]);
});

describeWithPostgres('the PostgreSQL store', () => {
  const db = freshDatabase();

  test('takes no lock of its data folder (its data is shared by design): two routers on one store share one folder', async () => {
    const dbPath = tempDir();
    const routers = [1, 2].map(() => createRestRouter({ ...quiet, dbPath, restPath: tempDir(), storeUrl: db.url }));
    await Promise.all(routers.map((r) => r.ready()));
    expect(lockEntries(dbPath)).toEqual([]);
    await Promise.all(routers.map((r) => r.close()));
  });
});
