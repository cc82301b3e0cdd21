/**
 * The offload pool (lib/threads/offload.ts): work runs in a thread and answers as inline work
 * would; a thread without work for the idle time is stopped, and the next work starts a new one.
 */
import { OffloadPool } from '../../lib/threads/offload';
import { parsePostBody } from '../../lib/http/post';
import { XmldbError } from '../../lib/xmldb-error';

const POST = require.resolve('../../lib/http/post');
const body = '<query xmlns="http://basex.org/rest"><text>1 + 1</text></query>';

/** A structure-cloned answer holds Maps of another realm than jest's: compare as plain data. */
function plain(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (Object.prototype.toString.call(v) === '[object Map]' ? [...(v as Map<unknown, unknown>)] : v));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `test` holds (threads stop asynchronously), at most `ms`. */
async function until(test: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!test() && Date.now() < end) await sleep(20);
}

describe('OffloadPool', () => {
  test('answers as the function does inline, and its errors keep their status and code', async () => {
    const pool = new OffloadPool({ size: 1, idleMs: 200 });
    expect(plain(await pool.run(POST, 'parsePostBody', [body]))).toBe(plain(parsePostBody(body)));
    const inline = (() => {
      try {
        parsePostBody('');
      } catch (e) {
        return e as XmldbError;
      }
      throw new Error('parsePostBody accepted an empty body');
    })();
    const error = await pool.run(POST, 'parsePostBody', ['']).then(
      () => undefined,
      (e: unknown) => e as XmldbError,
    );
    expect(error).toBeInstanceOf(XmldbError);
    expect([error?.status, error?.code, error?.message]).toEqual([inline.status, inline.code, inline.message]);
    await until(() => pool.threadCount === 0);
    expect(pool.threadCount).toBe(0);
  });

  test('stops a thread that stayed idle, keeps one that gets work in time, and starts a new one on demand', async () => {
    const pool = new OffloadPool({ size: 1, idleMs: 400 });
    await pool.run(POST, 'parsePostBody', [body]);
    expect(pool.threadCount).toBe(1);
    // work within the idle time keeps the thread (and restarts its idle time)
    await sleep(150);
    await pool.run(POST, 'parsePostBody', [body]);
    await sleep(300);
    expect(pool.threadCount).toBe(1);
    await until(() => pool.threadCount === 0);
    expect(pool.threadCount).toBe(0);
    // after the stop, work still runs: in a new thread
    expect(plain(await pool.run(POST, 'parsePostBody', [body]))).toBe(plain(parsePostBody(body)));
    expect(pool.threadCount).toBe(1);
    await until(() => pool.threadCount === 0);
    expect(pool.threadCount).toBe(0);
  });

  test('a thread is stopped as soon as it answers work on an input of the retire size or more', async () => {
    const pool = new OffloadPool({ size: 1, idleMs: 60_000, retireBytes: 1000 });
    expect(plain(await pool.run(POST, 'parsePostBody', [body], 999))).toBe(plain(parsePostBody(body)));
    expect(pool.threadCount).toBe(1);
    expect(plain(await pool.run(POST, 'parsePostBody', [body], 1000))).toBe(plain(parsePostBody(body)));
    expect(pool.threadCount).toBe(0);
    // the next work starts a new thread
    expect(plain(await pool.run(POST, 'parsePostBody', [body], 1000))).toBe(plain(parsePostBody(body)));
    expect(pool.threadCount).toBe(0);
  });

  test('work queued beyond the pool size waits for a thread and all of it is answered', async () => {
    const pool = new OffloadPool({ size: 1, idleMs: 100 });
    const bodies = Array.from({ length: 5 }, (_, i) => `<query xmlns="http://basex.org/rest"><text>${i}</text></query>`);
    const answers = await Promise.all(bodies.map((b) => pool.run(POST, 'parsePostBody', [b])));
    expect(answers.map(plain)).toEqual(bodies.map((b) => plain(parsePostBody(b))));
    expect(pool.threadCount).toBe(1);
    await until(() => pool.threadCount === 0);
    expect(pool.threadCount).toBe(0);
  });
});
