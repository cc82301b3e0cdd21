import { LockManager, lockPlan, ModeLock, withDatabase } from '../../lib/store/locks';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('mode lock', () => {
  test('readers share, a writer is exclusive', async () => {
    const lock = new ModeLock();
    await lock.acquire('S');
    await lock.acquire('S');
    let writer = false;
    void lock.acquire('X').then(() => (writer = true));
    await tick();
    expect(writer).toBe(false);
    lock.release('S');
    await tick();
    expect(writer).toBe(false);
    lock.release('S');
    await tick();
    expect(writer).toBe(true);
  });

  test('a waiting writer is not starved by later readers (FIFO)', async () => {
    const lock = new ModeLock();
    await lock.acquire('S');
    const order: string[] = [];
    void lock.acquire('X').then(() => order.push('X'));
    void lock.acquire('S').then(() => order.push('S2'));
    await tick();
    expect(order).toEqual([]);
    lock.release('S');
    await tick();
    expect(order).toEqual(['X']);
    lock.release('X');
    await tick();
    expect(order).toEqual(['X', 'S2']);
  });
});

describe('lock manager', () => {
  test('plans: global intention lock first, then sorted names', () => {
    expect(lockPlan(['b', 'a', 'b'], true)).toEqual([
      { name: '*', mode: 'IX' },
      { name: 'db:a', mode: 'X' },
      { name: 'db:b', mode: 'X' },
    ]);
    expect(lockPlan('*', false)).toEqual([{ name: '*', mode: 'S' }]);
  });

  test('writes to different databases run in parallel; "*" excludes them', async () => {
    const locks = new LockManager();
    const a = await locks.acquire(['a'], true);
    const b = await locks.acquire(['b'], true);
    let all = false;
    void locks.acquire('*', false).then(() => (all = true));
    await tick();
    expect(all).toBe(false);
    a();
    b();
    await tick();
    expect(all).toBe(true);
  });

  test('no deadlock with 20 parallel multi-database writes in random order', async () => {
    const locks = new LockManager();
    const names = ['a', 'b', 'c', 'd', 'e'];
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const holders = new Map<string, number>();
    let maxConcurrent = 0;
    let running = 0;
    const runs = Array.from({ length: 20 }, async () => {
      const set = names.filter(() => random() < 0.5).sort(() => random() - 0.5);
      await locks.run(set.length ? set : ['a'], true, async () => {
        running++;
        maxConcurrent = Math.max(maxConcurrent, running);
        for (const n of set) {
          expect(holders.get(n) ?? 0).toBe(0);
          holders.set(n, 1);
        }
        await new Promise((resolve) => setTimeout(resolve, random() * 5));
        for (const n of set) holders.set(n, 0);
        running--;
      });
    });
    await Promise.all(runs);
    expect(locks.size).toBe(0);
    expect(maxConcurrent).toBeGreaterThanOrEqual(1);
  });

  test('readers of one database share it', async () => {
    const locks = new LockManager();
    const r1 = await locks.acquire(['a'], false);
    const r2 = await locks.acquire(['a'], false);
    r1();
    r2();
    expect(locks.size).toBe(0);
  });
});

describe('withDatabase', () => {
  test('adds a database to a lock set once, sorted; all stays all', () => {
    expect(withDatabase(['b', 'd'], 'c')).toStrictEqual(['b', 'c', 'd']);
    expect(withDatabase(['b'], 'b')).toStrictEqual(['b']);
    expect(withDatabase([], undefined)).toStrictEqual([]);
    expect(withDatabase('*', 'a')).toBe('*');
  });
});

describe('bounded lock waits', () => {
  test('a wait longer than the limit fails with 503, gives up its place and keeps nothing', async () => {
    const locks = new LockManager(50);
    const writer = await locks.acquire(['a'], true);
    // waits for `a` while holding the global intention lock
    const waiting = locks.acquire(['a', 'b'], false);
    await expect(waiting).rejects.toMatchObject({
      status: 503,
      code: 'LOCK_TIMEOUT_X',
      message: 'Timeout exceeded: the databases stayed locked for more than 50 ms. Try again later.',
    });
    writer();
    expect(locks.size).toBe(0);
    // everything is free again
    (await locks.acquire('*', true))();
  });

  test('a waiter that gives up lets the waiters behind it through', async () => {
    const lock = new ModeLock();
    await lock.acquire('S');
    const timedOut = lock.acquire('X', 20, () => new Error('timeout'));
    let reader = false;
    void lock.acquire('S').then(() => (reader = true));
    await tick();
    expect(reader).toBe(false); // behind the waiting writer (FIFO)
    await expect(timedOut).rejects.toThrow('timeout');
    await tick();
    expect(reader).toBe(true);
  });
});
