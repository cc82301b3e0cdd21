import { createEngine, type Engine, type QueryRequest } from '../../../lib/xquery/engine/engine';
import { LocatedQueryError } from '../../../lib/xquery/static-errors';
import { QueryHost } from '../../../lib/xquery/engine/query-host';
import { engineRequest as request } from '../../helpers/engine-request';


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
