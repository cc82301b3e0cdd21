import { QueryError } from '../../../lib/xquery/query-error';
import { QueryPool } from '../../../lib/xquery/host/pool';
import { storeSourceSpec } from '../../../lib/xquery/worker/documents/store-source';
import { storedDocuments } from '../../helpers/stored-documents';
import { select } from '../worker/helpers';

const MAIN = 'main';
const RUNAWAY = select('count((1 to 100000000000)[. mod 7 = 99])');
/** Holds its worker as long as RUNAWAY, without taking a core meanwhile. */
const SLEEPER = 'Q{http://basex.org/modules/prof}sleep(100000)';

describe('QueryPool', () => {
  const data = storedDocuments();
  let pool: QueryPool;
  afterEach(async () => {
    await pool?.close();
  });

  it('runs a query in a worker and serializes the result', async () => {
    pool = new QueryPool({ size: 1 });
    const out = await pool.run({ xslt: select('1 to 3'), initialTemplate: MAIN, serialization: { method: 'xml' } });
    expect(out.body).toBe('1 2 3');
    expect(out.cached).toBe(false);
  });

  it('charges a task for its own run, not for the start of a new worker', async () => {
    pool = new QueryPool({ size: 1, timeoutMs: 50 }); // a worker takes far longer than 50 ms to load
    const out = await pool.run({ xslt: select('"no timeout"'), xpath: '"no timeout"', serialization: { method: 'text' } });
    expect(out.body).toBe('no timeout');
    expect(pool.restarts).toBe(0);
  });

  it('compiles once per key, also for concurrent requests', async () => {
    pool = new QueryPool({ size: 2 });
    const job = { xslt: select('"same"'), initialTemplate: MAIN };
    const results = await Promise.all([pool.run(job), pool.run(job), pool.run(job)]);
    expect(results.map((r) => r.body)).toEqual(['same', 'same', 'same']);
    expect(pool.compilations).toBe(1);
    expect((await pool.run(job)).cached).toBe(true);
    expect(pool.compilations).toBe(1);
  });

  it('passes typed variables, context documents and serialization parameters', async () => {
    pool = new QueryPool({ size: 1 });
    const prolog = '<xsl:param name="x" as="xs:integer*"/><xsl:param name="Q{urn:xmldb-rest:engine}context" as="document-node()*" select="()"/>';
    const out = await pool.run({
      xslt: select('sum($x), $Q{urn:xmldb-rest:engine}context ! *', prolog),
      initialTemplate: MAIN,
      params: { x: { values: ['1', '2'], type: 'xs:integer*' } },
      context: { xml: ['<a/>', '<b/>'] },
      serialization: { method: 'adaptive', 'item-separator': '\uE000' },
    });
    expect(out.body).toBe('3\uE000<a/>\uE000<b/>');
  });

  it('reports compile and dynamic errors as QueryErrors', async () => {
    pool = new QueryPool({ size: 1 });
    await expect(pool.run({ xslt: select('1 +'), initialTemplate: MAIN })).rejects.toMatchObject({ code: 'XPST0003', line: 4 });
    await expect(
      pool.run({ xslt: select('$x', '<xsl:param name="x" as="xs:integer"/>'), initialTemplate: MAIN, params: { x: { values: ['abc'], type: 'xs:integer' } } }),
    ).rejects.toMatchObject({ code: 'FORG0001' });
    await expect(pool.run({ xslt: select('1', ''), initialTemplate: MAIN, context: { xml: ['<a>'] } })).rejects.toMatchObject({ code: 'FODC0006' });
  });

  it('reads documents through the store source given in the init data', async () => {
    pool = new QueryPool({ size: 1, dbPath: data.path, documentSource: storeSourceSpec() });
    const out = await pool.run({ xslt: select("e:doc('db/a.xml')/r/@db/string(), count(collection('db')//x)"), initialTemplate: MAIN });
    expect(out.body).toBe('stored\n2');
    const ctx = await pool.run({
      xslt: select('count($Q{urn:xmldb-rest:engine}context//x)', '<xsl:param name="Q{urn:xmldb-rest:engine}context" select="()"/>'),
      initialTemplate: MAIN,
      context: { documents: ['db/a.xml'] },
    });
    expect(ctx.body).toBe('2');
    await expect(pool.run({ xslt: select("e:doc('db/none.xml')"), initialTemplate: MAIN })).rejects.toMatchObject({ code: 'FODC0002' });
  });

  it('stops a runaway query at its time limit while other queries are answered promptly', async () => {
    pool = new QueryPool({ size: 2, timeoutMs: 20_000 });
    pool.warm();
    // compile both first, so the timing below is about running
    await pool.run({ xslt: select('"warm"'), initialTemplate: MAIN });
    await pool.run({ xslt: select('"quick"'), initialTemplate: MAIN });
    const runaway = pool.run({ xslt: RUNAWAY, initialTemplate: MAIN, timeoutMs: 1500 });
    let runawayEnded = false;
    void runaway.catch(() => undefined).finally(() => (runawayEnded = true));
    const quick = await pool.run({ xslt: select('"quick"'), initialTemplate: MAIN });
    expect(quick.body).toBe('quick');
    // answered by the other worker while the runaway still runs, not after its limit
    expect(runawayEnded).toBe(false);
    const error = await runaway.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(QueryError);
    expect((error as QueryError).code).toBe('BASX0003');
    expect(String(error)).toBe('[BASX0003] Timeout exceeded (1500 ms).');
    expect(pool.restarts).toBe(1);
    // the replacement worker serves the next query
    expect((await pool.run({ xslt: select('"after"'), initialTemplate: MAIN })).body).toBe('after');
  });

  it('takes a new size, time limit and queue bound while it runs, keeping its workers up to the size and its compilations', async () => {
    pool = new QueryPool({ size: 2, timeoutMs: 60_000 });
    const job = { xslt: select('"kept"'), initialTemplate: MAIN };
    pool.warm();
    await Promise.all([pool.run(job), pool.run(job)]);
    expect(pool.workers).toBe(2);
    pool.adjust({ size: 1, timeoutMs: 1000, maxQueued: 1 });
    expect(pool.workers).toBe(1);
    expect((await pool.run(job)).cached).toBe(true);
    expect(pool.compilations).toBe(1);
    // one worker, the new limit and bound: a second task waits behind the runaway (and gives up
    // after half the new limit), a third is refused at once
    const runaway = pool.run({ xslt: select(SLEEPER), xpath: SLEEPER });
    const waiting = pool.run({ xslt: select('"waited"'), xpath: '"waited"' });
    await expect(pool.run({ xslt: select('1'), xpath: '1' })).rejects.toMatchObject({ status: 503, headers: { 'Retry-After': '1' } });
    await expect(waiting).rejects.toMatchObject({ status: 503 });
    await expect(runaway).rejects.toMatchObject({ code: 'BASX0003', message: 'Timeout exceeded (1000 ms).' });
    expect(pool.workers).toBe(1);
    // and back: options left out return to their defaults
    pool.adjust({ size: 2 });
    await Promise.all([pool.run(job), pool.run(job), pool.run(job)]);
    expect(pool.workers).toBe(2);
  });

  it('backs off when workers fail at start-up instead of restarting them in a loop', async () => {
    // a store source with neither a data folder nor a reader cannot start
    pool = new QueryPool({ size: 1, documentSource: storeSourceSpec() });
    await expect(pool.run({ xslt: select('1'), initialTemplate: MAIN })).rejects.toThrow(/needs a worker reader/);
    // no replacement is started at once: it waits out a delay
    expect(pool.workers).toBe(0);
    expect(pool.restarts).toBe(1);
    // later tasks wait for the retries and fail with the start-up error once they give up
    await expect(pool.run({ xslt: select('2'), initialTemplate: MAIN })).rejects.toThrow(/needs a worker reader/);
    expect(pool.restarts).toBeLessThanOrEqual(3);
  });

  it('drops a queued task whose signal aborts, and refuses tasks beyond maxQueued with 503', async () => {
    pool = new QueryPool({ size: 1, maxQueued: 1, timeoutMs: 60_000 });
    await pool.run({ xslt: select('"warm"'), xpath: '"warm"' });
    const running = new AbortController();
    const queued = new AbortController();
    const runaway = pool.run({ xslt: RUNAWAY, xpath: 'count((1 to 100000000000)[. mod 7 = 99])', signal: running.signal });
    const waiting = pool.run({ xslt: RUNAWAY, xpath: 'count((1 to 100000000000)[. mod 7 = 98])', signal: queued.signal });
    await expect(pool.run({ xslt: select('1'), xpath: '1' })).rejects.toMatchObject({ status: 503, headers: { 'Retry-After': '60' } });
    await new Promise((resolve) => setImmediate(resolve)); // tasks are handed out at the end of a turn
    queued.abort();
    await expect(waiting).rejects.toMatchObject({ status: 499 });
    expect(pool.queued).toBe(0);
    running.abort();
    await expect(runaway).rejects.toMatchObject({ status: 499 });
    // the caller hears back at once; the worker is stopped once the grace has passed
    expect(pool.restarts).toBe(0);
    expect((await pool.run({ xslt: select('"after"'), xpath: '"after"' })).body).toBe('after');
    expect(pool.restarts).toBe(1);
  });

  it('keeps the worker of a cancelled task that ends within the grace, and drops only its reply', async () => {
    pool = new QueryPool({ size: 1, timeoutMs: 60_000, cancelGraceMs: 60_000 });
    await pool.run({ xslt: select('"warm"'), xpath: '"warm"' });
    const client = new AbortController();
    const cancelled = pool.run({ xslt: select('"unread"'), xpath: 'count((1 to 200000)[. mod 7 = 0])', signal: client.signal });
    client.abort();
    await expect(cancelled).rejects.toMatchObject({ status: 499 });
    // the next task waits for the same worker, which finishes the cancelled one first
    expect((await pool.run({ xslt: select('"next"'), xpath: '"next"' })).body).toBe('next');
    expect(pool.restarts).toBe(0);
  });
});
