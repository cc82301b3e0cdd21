import { storeSourceSpec } from '../../../lib/xquery/worker/documents/store-source';
import { QueryPool } from '../../../lib/xquery/host/pool';
import { MemoryView } from '../../helpers/memory-view';
import { query } from '../../helpers/worker-queries';

/** Workers load saxon-js on a loaded machine: slow. */
const SLOW = 120_000;
/** A window no task outlasts here: tasks behind a running one stay there. */
const ALWAYS = 600_000;
/** Short enough for a batch: a loaded machine takes milliseconds for any query. */
const SHORT = 1000;
/** Sleeps $ms milliseconds, then answers $label: short or long by its parameters alone. */
const SLEEP = 'Q{http://basex.org/modules/prof}sleep(xs:integer($ms)), string($label)';

describe('batches: short tasks handed to one worker in one message', () => {
  let pool: QueryPool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });
  const run = (xpath: string, more: { params?: Record<string, string>; timeoutMs?: number; signal?: AbortSignal } = {}) => {
    const params = Object.fromEntries(Object.entries(more.params ?? {}).map(([k, v]) => [k, { values: [v] }]));
    return pool!.run({ xslt: '', xpath, timeoutMs: more.timeoutMs, signal: more.signal, params }).then((out) => out.body);
  };
  const sleep = (ms: number, label: string, more: { timeoutMs?: number; signal?: AbortSignal } = {}) => run(SLEEP, { params: { ms: String(ms), label }, ...more });
  /**
   * Starts the pool's workers, waits for them to load, and runs SLEEP so that it is known as short
   * (its first run, which parses it, may be slower).
   */
  const warm = async (size: number) => {
    pool!.warm();
    await Promise.all(Array.from({ length: size }, (_, i) => run(`"warm ${i}"`)));
    for (let i = 0; i < size + 1; i++) expect(await sleep(0, 'known')).toBe('known');
    expect(pool!.batched).toBe(0);
  };
  /** Collects the order in which the given runs answer. */
  const order = (runs: Promise<string>[]) => {
    const done: string[] = [];
    return Promise.all(runs.map((p) => p.then((body) => (done.push(body), body)))).then((bodies) => ({ bodies, done }));
  };

  it('puts the short tasks of one turn in one batch, in order, and answers each', async () => {
    pool = new QueryPool({ shortTaskMs: SHORT, size: 2, batchWindowMs: ALWAYS });
    await warm(2);
    const { bodies, done } = await order(['a', 'b', 'c', 'd', 'e'].map((label) => sleep(0, label)));
    expect(bodies).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(done).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(pool.batched).toBe(4);
  }, SLOW);

  it('hands out at once the tasks queued before handOutNow, and those after at the end of the turn', async () => {
    pool = new QueryPool({ shortTaskMs: SHORT, size: 2, batchWindowMs: ALWAYS });
    await warm(2);
    const first = ['a', 'b', 'c'].map((label) => sleep(0, label));
    pool.handOutNow();
    const { bodies } = await order([...first, ...['d', 'e'].map((label) => sleep(0, label))]);
    expect(bodies).toEqual(['a', 'b', 'c', 'd', 'e']);
    // two batches, one per worker (a, b, c, then d, e): one batch of five without the early hand-out
    expect(pool.batched).toBe(3);
  }, SLOW);

  it('hands out queries not seen yet, and queries that ran long, one per worker', async () => {
    pool = new QueryPool({ shortTaskMs: SHORT, size: 2 });
    await warm(2);
    expect(await Promise.all(['"x"', '"y"', '"z"'].map((q) => run(q)))).toEqual(['x', 'y', 'z']);
    expect(pool.batched).toBe(0);
    expect(await sleep(2 * SHORT, 'long')).toBe('long');
    expect(await Promise.all([sleep(0, 'p'), sleep(0, 'q')])).toEqual(['p', 'q']);
    expect(pool.batched).toBe(0);
  }, SLOW);

  it('hands the tasks behind one that turns out long to another worker once it has run the window', async () => {
    pool = new QueryPool({ shortTaskMs: SHORT, size: 2, batchWindowMs: 100 });
    await warm(2);
    const { bodies, done } = await order([sleep(1500, 'long'), sleep(0, 'first'), sleep(0, 'second')]);
    // two behind the long task, then one behind the first on the other worker
    expect(pool.batched).toBe(3);
    expect(bodies).toEqual(['long', 'first', 'second']);
    expect(done).toEqual(['first', 'second', 'long']);
    expect(pool.restarts).toBe(0);
  }, SLOW);

  it('runs a task behind another with a time limit from its own start', async () => {
    pool = new QueryPool({ shortTaskMs: SHORT, size: 1, batchWindowMs: ALWAYS });
    await warm(1);
    // waits 600 ms and runs 1600 ms: over its limit if that counted from its post
    const both = Promise.all([sleep(600, 'first'), sleep(1600, 'second', { timeoutMs: 2000 })]);
    expect(await both).toEqual(['first', 'second']);
    expect(pool.batched).toBe(1);
    expect(pool.restarts).toBe(0);
  }, SLOW);

  it('skips a task whose client goes away before its worker gets to it; the worker carries on', async () => {
    const lines: string[] = [];
    pool = new QueryPool({ shortTaskMs: SHORT, size: 1, batchWindowMs: ALWAYS, output: (line) => lines.push(line) });
    await warm(1);
    const traced = (label: string, signal?: AbortSignal) => run(`${SLEEP}, trace("ran", $label)`, { params: { ms: '0', label }, signal });
    for (const label of ['parsed', 'known']) expect(await traced(label)).toBe(`${label}\nran`);
    const client = new AbortController();
    const runs = [sleep(300, 'first'), traced('cancelled', client.signal), traced('kept')];
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pool.batched).toBe(2);
    client.abort();
    await expect(runs[1]).rejects.toMatchObject({ status: 499 });
    expect(await runs[0]).toBe('first');
    expect(await runs[2]).toBe('kept\nran');
    // the worker's standard output is a stream of its own: its lines may follow the answer.
    // They come in the order the worker wrote them, so once 'kept' is there, 'cancelled' would be.
    const printed = () => lines.join('\n');
    for (let waited = 0; !printed().includes('kept') && waited < 10_000; waited += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(printed()).toContain('kept');
    expect(printed()).not.toContain('cancelled');
    expect(pool.restarts).toBe(0);
  }, SLOW);

  it('hears 503 once it has waited half its time limit, behind a running task or queued after it', async () => {
    pool = new QueryPool({ shortTaskMs: SHORT, size: 1, batchWindowMs: 50 });
    await warm(1);
    const first = sleep(1500, 'first', { timeoutMs: 5000 });
    const waiting = sleep(0, 'second', { timeoutMs: 600 });
    await expect(waiting).rejects.toMatchObject({ status: 503 });
    expect(await first).toBe('first');
    expect(pool.batched).toBe(1);
    expect(await sleep(0, 'after')).toBe('after');
    expect(pool.restarts).toBe(0);
  }, SLOW);

  it('counts the tasks behind a running one towards maxQueued', async () => {
    pool = new QueryPool({ shortTaskMs: SHORT, size: 1, batchWindowMs: ALWAYS, maxQueued: 1 });
    await warm(1);
    const both = Promise.all([sleep(500, 'first'), sleep(0, 'second')]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pool.queued).toBe(1);
    await expect(sleep(0, 'third')).rejects.toMatchObject({ status: 503 });
    expect(await both).toEqual(['first', 'second']);
  }, SLOW);

  it('gives the tasks behind a task stopped at its time limit to the replacement worker', async () => {
    pool = new QueryPool({ shortTaskMs: SHORT, size: 1, batchWindowMs: ALWAYS });
    await warm(1);
    // known as short (warm), and this run of it does not end before its limit: the limit stops it
    // as it stops a runaway computation, without taking a core meanwhile
    const runaway = sleep(100_000, 'runaway', { timeoutMs: 1000 });
    const behind = sleep(0, 'behind');
    await expect(runaway).rejects.toMatchObject({ code: 'BASX0003' });
    expect(await behind).toBe('behind');
    expect(pool.batched).toBe(1);
    expect(pool.restarts).toBe(1);
  }, SLOW);

  it('sends tasks one per message with a window of 0', async () => {
    pool = new QueryPool({ shortTaskMs: SHORT, size: 1, batchWindowMs: 0 });
    await warm(1);
    expect(await Promise.all([sleep(0, 'a'), sleep(0, 'b'), sleep(0, 'c')])).toEqual(['a', 'b', 'c']);
    expect(pool.batched).toBe(0);
  }, SLOW);

  it('reads the store through its own view, not the one of the task before it', async () => {
    const views = Object.fromEntries(['warm', 'before', 'own'].map((name) => {
      const view = new MemoryView();
      view.put(name, 'd.xml', `<d>${name}</d>`);
      return [name, view];
    }));
    pool = new QueryPool({ shortTaskMs: SHORT, size: 1, batchWindowMs: ALWAYS, documentSource: storeSourceSpec({ reader: { kind: 'channel' } }) });
    pool.warm();
    const xslt = query("Q{http://basex.org/modules/prof}sleep($ms), string(e:doc($db || '/d.xml'))", '<xsl:param name="ms" as="xs:integer"/><xsl:param name="db" as="xs:string"/>');
    const read = (db: string, ms: number) =>
      pool!.run({ xslt, initialTemplate: 'main', view: views[db], params: { ms: { values: [String(ms)], type: 'xs:integer' }, db: { values: [db] } } }).then((out) => out.body);
    for (let i = 0; i < 2; i++) expect(await read('warm', 0)).toBe('warm');
    // each asks the store for its own database, which only its own view holds
    expect(await Promise.all([read('before', 300), read('own', 0)])).toEqual(['before', 'own']);
    expect(pool.batched).toBe(1);
  }, SLOW);
});
