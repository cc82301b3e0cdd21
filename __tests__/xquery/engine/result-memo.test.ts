import { createEngine, type Engine, type QueryRequest } from '../../../lib/xquery/engine/engine';
import { LocatedQueryError } from '../../../lib/xquery/static-errors';
import { QueryHost } from '../../../lib/xquery/engine/query-host';
import { storeSourceSpec } from '../../../lib/xquery/worker/documents/store-source';
import { engineRequest as request } from '../../helpers/engine-request';
import { MemoryView } from '../../helpers/memory-view';


describe('results of pure queries are kept', () => {
  let engine: Engine;
  let runs: jest.SpyInstance;
  beforeAll(() => {
    engine = createEngine({ workers: 1, output: () => undefined });
    runs = jest.spyOn(QueryHost.prototype, 'run');
  });
  beforeEach(() => runs.mockClear());
  afterAll(async () => {
    runs.mockRestore();
    await engine.close();
  });

  /** The bodies of evaluating `req` twice, and how many runs the query host got for them. */
  async function twice(req: QueryRequest): Promise<{ bodies: (string | Buffer)[]; runs: number }> {
    const first = await engine.evaluate(req);
    const second = await engine.evaluate(req);
    return { bodies: [first.body, second.body], runs: runs.mock.calls.length };
  }

  it('answers a pure query again without a run', async () => {
    expect(await twice(request('1 + 1'))).toEqual({ bodies: ['2', '2'], runs: 1 });
  });

  it('keeps one result per binding of the external variables', async () => {
    const q = 'declare variable $k external; $k * 2';
    const bound = (k: string) => request(q, { variables: new Map([['k', { values: [k], type: 'xs:integer' }]]) });
    expect((await engine.evaluate(bound('3'))).body).toBe('6');
    expect((await engine.evaluate(bound('4'))).body).toBe('8');
    expect((await engine.evaluate(bound('3'))).body).toBe('6');
    expect(runs).toHaveBeenCalledTimes(2);
  });

  it('keeps one result per set of serialization parameters', async () => {
    const q = '<a><b/></a>';
    expect((await engine.evaluate(request(q, { serialization: { indent: 'yes' } }))).body).toBe('<a>\n  <b/>\n</a>');
    expect((await engine.evaluate(request(q, { serialization: { indent: 'no' } }))).body).toBe('<a><b/></a>');
    expect((await engine.evaluate(request(q, { serialization: { indent: 'yes' } }))).body).toBe('<a>\n  <b/>\n</a>');
    expect(runs).toHaveBeenCalledTimes(2);
  });

  it('runs every time a query that reads the clock, draws random numbers or traces', async () => {
    for (const q of ['string(current-dateTime())', 'random:double() ! string()', 'trace(1)']) {
      runs.mockClear();
      expect((await twice(request(q))).runs).toBe(2);
    }
    const { bodies } = await twice(request('random:uuid()'));
    expect(bodies[0]).not.toBe(bodies[1]);
  });

  it('runs every time with a context, a page of the result or a base URI of its own', async () => {
    await twice(request('count(.)', { context: { kind: 'documents', xml: ['<a/>'] } }));
    await twice(request('1 to 3', { items: { first: 0, last: 1 } }));
    await twice(request('static-base-uri()', { baseUri: 'file:///restpath/x.xq' }));
    expect(runs).toHaveBeenCalledTimes(6);
  });

  it('raises the error of a failing pure query at every run', async () => {
    for (let i = 0; i < 2; i++) {
      await expect(engine.evaluate(request('1 div 0'))).rejects.toThrow(LocatedQueryError);
    }
    expect(runs).toHaveBeenCalledTimes(2);
  });
});

describe('results of pure queries over a database are kept for its version', () => {
  let engine: Engine;
  let runs: jest.SpyInstance;
  let view: MemoryView;
  beforeAll(() => {
    engine = createEngine({ workers: 1, output: () => undefined, documentSource: storeSourceSpec({ reader: { kind: 'channel' } }) });
    runs = jest.spyOn(QueryHost.prototype, 'run');
  });
  beforeEach(() => {
    runs.mockClear();
    view = new MemoryView();
    view.put('shop', 'a.xml', '<a><x>1</x><x>2</x></a>');
    view.put('shop', 'dir/b.xml', '<b><x>5</x></b>');
    view.put('other', 'a.xml', '<a><x>7</x></a>');
  });
  afterAll(async () => {
    runs.mockRestore();
    await engine.close();
  });

  const over = (query: string, db: string, path = '') => engine.evaluate(request(query, { context: { kind: 'database', db, path }, view })).then((r) => r.body);

  it('answers the query again without a run while the database is unchanged', async () => {
    expect([await over('sum(//x)', 'shop'), await over('sum(//x)', 'shop')]).toEqual(['8', '8']);
    expect(runs).toHaveBeenCalledTimes(1);
  });

  it('runs again after a write to the database, and keeps one result per database and path', async () => {
    expect(await over('sum(//x)', 'shop')).toBe('8');
    view.put('shop', 'a.xml', '<a><x>10</x></a>');
    expect(await over('sum(//x)', 'shop')).toBe('15');
    expect(await over('sum(//x)', 'shop', 'dir')).toBe('5');
    expect(await over('sum(//x)', 'other')).toBe('7');
    expect(await over('sum(//x)', 'shop')).toBe('15');
    expect(runs).toHaveBeenCalledTimes(4);
    // a write to another database leaves the kept result
    view.put('other', 'b.xml', '<b/>');
    expect(await over('sum(//x)', 'shop')).toBe('15');
    expect(runs).toHaveBeenCalledTimes(4);
  });

  it('keeps no result of a run by a user who may not read the database', async () => {
    const denied = () => engine.evaluate(request('sum(//x)', { context: { kind: 'database', db: 'shop', path: '' }, view, readable: ['other'] })).then((r) => r.body, (e: Error) => e.message);
    const first = await denied();
    expect(await over('sum(//x)', 'shop')).toBe('8');
    expect(await denied()).toBe(first);
    expect(runs).toHaveBeenCalledTimes(3);
  });

  it('runs every time a query that reads more than its context', async () => {
    for (const q of ["count(db:get('other')//x)", "count(collection('other')//x)", "doc-available('other/a.xml')"]) {
      runs.mockClear();
      await over(q, 'shop');
      await over(q, 'shop');
      expect([q, runs.mock.calls.length]).toEqual([q, 2]);
    }
  });
});
