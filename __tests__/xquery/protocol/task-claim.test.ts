import { TaskClaim } from '../../../lib/xquery/protocol/task-claim';

/** Both sides of the cells: the pool's, and the worker's over the same shared buffer. */
function sides(): { pool: TaskClaim; worker: TaskClaim } {
  const pool = new TaskClaim();
  return { pool, worker: new TaskClaim(pool.buffer) };
}

describe('TaskClaim: the worker or the pool takes a posted task, never both', () => {
  it('lets the worker start posts in order while the pool takes none back', () => {
    const { pool, worker } = sides();
    for (const seq of [1, 2, 3]) pool.post(seq);
    expect([1, 2, 3].map((seq) => worker.begin(seq))).toEqual([true, true, true]);
  });

  it('makes the worker skip any post taken back before it got there, and start the others', () => {
    const { pool, worker } = sides();
    for (const seq of [1, 2, 3, 4]) pool.post(seq);
    expect(pool.takeBack(2)).toBe(true);
    expect(pool.takeBack(4)).toBe(true);
    expect([1, 2, 3, 4].map((seq) => worker.begin(seq))).toEqual([true, false, true, false]);
  });

  it('refuses to take back a post the worker has started, and lets it start a post only once', () => {
    const { pool, worker } = sides();
    pool.post(1);
    expect(worker.begin(1)).toBe(true);
    expect(pool.takeBack(1)).toBe(false);
    expect(worker.begin(1)).toBe(false);
  });

  it('takes a post back only once', () => {
    const { pool } = sides();
    pool.post(7);
    expect(pool.takeBack(7)).toBe(true);
    expect(pool.takeBack(7)).toBe(false);
  });

  it('keeps posts one ring apart from deciding each other', () => {
    const { pool, worker } = sides();
    pool.post(5);
    expect(pool.takeBack(5)).toBe(true);
    pool.post(5 + 256);
    // the old post, still unread by the worker, stays taken back; the new one in its cell is open
    expect(worker.begin(5)).toBe(false);
    expect(worker.begin(5 + 256)).toBe(true);
  });
});
