import { storeSourceSpec } from '../../../lib/xquery/worker/documents/store-source';
import { QueryPool } from '../../../lib/xquery/host/pool';
import { MemoryView } from '../../helpers/memory-view';
import { query, CONTEXT } from '../../helpers/worker-queries';

/** Two databases of one 100-byte document each (the budget below holds one of them). */
function twoDatabases(): MemoryView {
  const view = new MemoryView();
  view.put('a', 'x.xml', `<a>${'1'.repeat(90)}</a>`);
  view.put('b', 'y.xml', `<b>${'2'.repeat(90)}</b>`);
  return view;
}

/** Two workers load saxon-js each and the first query compiles: slow on a loaded machine. */
const SLOW = 120_000;

describe('parsed documents of a pool: one budget, queries next to their documents', () => {
  let pool: QueryPool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  /** `timeoutMs`: the query's time limit (absent: the pool's). */
  const run = async (view: MemoryView, db: string, expr: string, timeoutMs?: number) =>
    (await pool!.run({ xslt: query(expr), initialTemplate: 'main', view, context: { kind: 'database', db }, timeoutMs })).body;

  it('drops a database another worker holds when the total passes the budget; answers stay right', async () => {
    const view = twoDatabases();
    pool = new QueryPool({ size: 2, documentSource: storeSourceSpec({ reader: { kind: 'channel' }, cacheBytes: 150 }) });
    pool.warm();
    expect(await run(view, 'a', `string-length(${CONTEXT})`)).toBe('90');
    expect(await run(view, 'a', `string-length(${CONTEXT})`)).toBe('90');
    expect(view.calls.readBytes).toBe(1);
    // b goes to the other worker (it holds nothing); a and b together pass the budget: a goes
    expect(await run(view, 'b', `substring(${CONTEXT}, 1, 3)`)).toBe('222');
    expect(view.calls.readBytes).toBe(2);
    expect(await run(view, 'a', `substring(${CONTEXT}, 1, 3)`)).toBe('111');
    expect(view.calls.readBytes).toBe(3);
    // a write after the eviction is seen
    view.put('a', 'x.xml', '<a>new</a>');
    expect(await run(view, 'a', `string(${CONTEXT})`)).toBe('new');
    expect(await run(view, 'b', `string-length(${CONTEXT})`)).toBe('90');
  }, SLOW);

  it('runs concurrent queries of a database on the worker that holds it when a second copy does not fit', async () => {
    const view = twoDatabases();
    pool = new QueryPool({ size: 2, documentSource: storeSourceSpec({ reader: { kind: 'channel' }, cacheBytes: 150 }) });
    pool.warm();
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => run(view, 'a', `string-length(${CONTEXT}) + ${i}`)));
    expect(answers).toEqual(['90', '91', '92', '93', '94', '95']);
    expect(view.calls.readBytes).toBe(1);
  }, SLOW);

  it('starts no worker for queries that wait for the holder of their database; one for a query that can run elsewhere', async () => {
    const view = twoDatabases();
    pool = new QueryPool({ size: 2, documentSource: storeSourceSpec({ reader: { kind: 'channel' }, cacheBytes: 150 }) });
    expect(await run(view, 'a', `string-length(${CONTEXT})`)).toBe('90');
    expect(pool.workers).toBe(1);
    // holds its worker without taking a core
    const long = `Q{http://basex.org/modules/prof}sleep(700), string-length(${CONTEXT}) + 1`;
    expect(await run(view, 'a', long)).toBe('91');
    // the holder is busy with a long query; the others of `a` (compiled: no compilation to run
    // elsewhere) wait for it, as a second copy does not fit
    const slow = run(view, 'a', long);
    await new Promise((r) => setTimeout(r, 100));
    const more = Array.from({ length: 3 }, () => run(view, 'a', `string-length(${CONTEXT})`));
    await new Promise((r) => setTimeout(r, 100));
    expect(pool.workers).toBe(1);
    expect(await Promise.all([slow, ...more])).toEqual(['91', '90', '90', '90']);
    expect(pool.workers).toBe(1);
    // a query of a database nobody holds may run elsewhere: while the holder is busy, a worker starts for it
    const slowAgain = run(view, 'a', long);
    await new Promise((r) => setTimeout(r, 100));
    expect(await run(view, 'b', `string-length(${CONTEXT})`)).toBe('90');
    expect(pool.workers).toBe(2);
    expect(await slowAgain).toBe('91');
  }, SLOW);

  it('runs a query that waited half its time limit for a busy holder on a free worker, not refused with 503', async () => {
    const view = twoDatabases();
    pool = new QueryPool({ size: 2, documentSource: storeSourceSpec({ reader: { kind: 'channel' }, cacheBytes: 1000 }) });
    pool.warm();
    const short = `string-length(${CONTEXT})`;
    expect(await run(view, 'b', short)).toBe('90'); // compiled, so that the waiting query has no compilation to wait for
    // the first query of `a` holds its worker without taking a core; while it runs, the size of
    // `a` is unknown, so no second copy is known to fit and the next query of `a` waits for it
    const holder = run(view, 'a', `Q{http://basex.org/modules/prof}sleep(2500), 1`, 20_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(await run(view, 'a', short, 1200)).toBe('90');
    expect(await holder).toBe('1');
    expect(pool.workers).toBe(2);
  }, SLOW);

  it('lets a second worker load its own copy when it fits in the budget', async () => {
    const view = twoDatabases();
    pool = new QueryPool({ size: 2, documentSource: storeSourceSpec({ reader: { kind: 'channel' }, cacheBytes: 1000 }) });
    pool.warm();
    expect(await run(view, 'a', `string-length(${CONTEXT})`)).toBe('90');
    // a long query keeps the holder busy; the next one goes to the idle worker
    const slow = run(view, 'a', `count((1 to 3000000)[. mod 7 = 0]) + string-length(${CONTEXT})`);
    await new Promise((r) => setTimeout(r, 100));
    expect(await run(view, 'a', `string-length(${CONTEXT})`)).toBe('90');
    expect(await slow).toBe('428661');
    expect(view.calls.readBytes).toBe(2);
  }, SLOW);

  it('keeps the answers right when every document is larger than the whole budget', async () => {
    const view = twoDatabases();
    pool = new QueryPool({ size: 2, documentSource: storeSourceSpec({ reader: { kind: 'channel' }, cacheBytes: 10 }) });
    const queries = ['a', 'b', 'a', 'b', 'a'].map((db) => run(view, db, `name(${CONTEXT}/*) || string-length(${CONTEXT})`));
    expect(await Promise.all(queries)).toEqual(['a90', 'b90', 'a90', 'b90', 'a90']);
    view.put('b', 'y.xml', '<c/>');
    expect(await run(view, 'b', `name(${CONTEXT}/*)`)).toBe('c');
  }, SLOW);
});
