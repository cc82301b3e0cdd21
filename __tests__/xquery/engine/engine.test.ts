import { libraryStylesheet } from '../../../lib/xquery/language/translate';
import { createEngine, type Engine, type QueryRequest } from '../../../lib/xquery/engine/engine';
import { errorBody, LocatedQueryError } from '../../../lib/xquery/static-errors';
import { storeSourceSpec } from '../../../lib/xquery/worker/documents/store-source';
import { storedDocuments } from '../../helpers/stored-documents';
import { createFileStore } from '../../../lib/store/file/file-store';
import { engineRequest as request } from '../../helpers/engine-request';
import { rejection } from '../../helpers/failure';

const failure = (engine: Engine, req: QueryRequest): Promise<LocatedQueryError> => rejection(() => engine.evaluate(req), LocatedQueryError);

/** A task of the engine's query pool, as these tests read and send it. */
type PoolTask = { xslt: string; xpath?: string; update?: boolean };

/** The engine's query pool, for the tests that watch where a query runs and what it compiles. */
interface EnginePool {
  run(task: PoolTask): Promise<unknown>;
  compiledAhead(): Promise<void>;
  compilations: number;
}

const poolOf = (engine: Engine): EnginePool => (engine as unknown as { pool: EnginePool }).pool;

describe('engine', () => {
  const data = storedDocuments();
  let engine: Engine;
  beforeAll(() => {
    engine = createEngine({ workers: 1, documentSource: storeSourceSpec() });
  });
  afterAll(async () => {
    await engine.close();
  });

  it('evaluates a query with the default serialization and content type', async () => {
    const timings = { compileMs: expect.any(Number), evaluateMs: expect.any(Number), serializeMs: expect.any(Number) };
    expect(await engine.evaluate(request('1 to 3, "a"'))).toEqual({ body: '1\n2\n3\na', contentType: 'application/xml; charset=UTF-8', timings });
    expect(await engine.evaluate(request('1 to 3', { serialization: { method: 'xml' } }))).toEqual({
      body: '1 2 3',
      contentType: 'application/xml; charset=UTF-8',
      timings,
    });
    expect((await engine.evaluate(request('"x"', { serialization: { method: 'text' } }))).contentType).toBe('text/plain; charset=UTF-8');
  });

  it('encodes the body in a non-UTF-8 encoding', async () => {
    const out = await engine.evaluate(request('"é€"', { serialization: { method: 'text', encoding: 'ISO-8859-1' } }));
    expect(Buffer.isBuffer(out.body)).toBe(true);
    expect(out.body.toString('latin1')).toBe('é&#x20AC;');
    expect(out.contentType).toBe('text/plain; charset=ISO-8859-1');
  });

  it('answers an ordered FLWOR of nodes in its order on the library and on its own stylesheet', async () => {
    const pool = poolOf(engine);
    // the own stylesheet sorted the `let` of the order by translation into document order
    const doc = `<r>${[2, 5, 1, 6, 3, 4].map((p, i) => `<i><p>${p}</p><n>n${i + 1}</n></i>`).join('')}</r>`;
    const query = (k: number) => request(`for $i in //i[p > 0] order by number($i/p) + ${k} return $i/n`, { context: { kind: 'documents', xml: [doc] } });
    const answer = '<n>n3</n>\n<n>n1</n>\n<n>n5</n>\n<n>n6</n>\n<n>n2</n>\n<n>n4</n>';
    // a shape has its own stylesheet compiled ahead on its third run (engine.ts LIBRARY_RUNS_BEFORE_COMPILING)
    for (const k of [6, 7, 8]) expect((await engine.evaluate(query(k))).body).toBe(answer);
    await pool.compiledAhead();
    expect((await engine.evaluate(query(9))).body).toBe(answer);
  });

  it('runs a FLWOR that engine:leaf-tuples answers as that call alone, translating it in full only when the call declines', async () => {
    const pool = poolOf(engine);
    const run = jest.spyOn(pool, 'run');
    try {
      const counted = (text: string) => {
        const prepared = engine.prepare(text);
        let full = 0;
        const watched = Object.create(prepared, { translation: { value: (mode: never) => (full++, prepared.translation(mode)) } });
        return { query: watched as typeof prepared, full: () => full };
      };
      const answered = counted('for $i in 1 to 6 let $x := ($i * 5) mod 7 where $x > 1 order by $x descending return <r n="{$i}">{$x}</r>');
      expect((await engine.evaluate({ ...request(''), query: answered.query })).body).toBe('<r n="4">6</r>\n<r n="1">5</r>\n<r n="5">4</r>\n<r n="2">3</r>\n<r n="6">2</r>');
      expect(answered.full()).toBe(0);
      expect(run.mock.calls.map(([job]) => [(job as { firstOnly?: boolean }).firstOnly, job.xslt, job.xpath])).toEqual([[true, '', undefined]]);
      // the call declines (an error it leaves to the query as written): the query then runs in full, once more
      run.mockClear();
      const declined = counted('for $i in 1 to 3 return $i idiv ($i - 2)');
      const e = await failure(engine, { ...request(''), query: declined.query });
      expect([e.code, e.position]).toEqual(['FOAR0001', { line: 1, column: 1 }]);
      expect(declined.full()).toBe(1);
      expect(run.mock.calls.map(([job]) => (job as { firstOnly?: boolean }).firstOnly)).toEqual([true, undefined]);
      const declines = counted('for $i in 1 to 3 return $i idiv 1.5');
      expect((await engine.evaluate({ ...request(''), query: declines.query })).body).toBe('0\n1\n2');
    } finally {
      run.mockRestore();
    }
  });

  it('runs nested constructors on the library first, then on their own stylesheet that builds them in place', async () => {
    const pool = poolOf(engine);
    const run = jest.spyOn(pool, 'run');
    try {
      // node content ({<y/>}): the constructors around it are library calls (text-only ones need no library)
      const query = (n: number) => `for $i in 1 to 2 return <r n="{$i * ${n}}"><v>{$i}</v><w><x>{$i + ${n}}</x>{<y/>}</w></r>`;
      const answer = (n: number) => `<r n="${n}"><v>1</v><w><x>${n + 1}</x><y/></w></r>\n<r n="${2 * n}"><v>2</v><w><x>${n + 2}</x><y/></w></r>`;
      expect((await engine.evaluate(request(query(10)))).body).toBe(answer(10));
      const before = pool.compilations;
      // seen a second time: answered by the library again, and nothing is compiled
      expect((await engine.evaluate(request(query(20)))).body).toBe(answer(20));
      await pool.compiledAhead();
      expect(pool.compilations).toBe(before);
      // seen a third time: answered by the library while its own stylesheet compiles
      expect((await engine.evaluate(request(query(25)))).body).toBe(answer(25));
      await pool.compiledAhead();
      expect(pool.compilations).toBe(before + 1);
      expect((await engine.evaluate(request(query(30)))).body).toBe(answer(30));
      const [library, secondRun, thirdRun, own] = run.mock.calls.map(([task]) => task.xslt);
      expect(library).toContain('lib.element');
      expect(secondRun).toBe(library);
      expect(thirdRun).toBe(library);
      expect(own).not.toContain('lib.element');
      expect(own).toMatch(/<xsl:element name="r" namespace="">[^]*<xsl:element name="w" namespace="">\s*<xsl:element name="x" namespace="">/);
      // a dynamic error in the stylesheet is reported with a line of the query
      const failing = 'for $i in (1, 0)\nreturn <r><v>{1 idiv $i}</v>{<z/>}</r>';
      for (let i = 0; i < 3; i++) expect((await failure(engine, request(failing))).code).toBe('FOAR0001');
      await pool.compiledAhead();
      const again = await failure(engine, request(failing));
      expect(again.code).toBe('FOAR0001');
      expect(again.line).toBeGreaterThanOrEqual(1);
    } finally {
      run.mockRestore();
    }
  });

  it('runs an updating query of one expression on the XPath evaluator, with the answer and changes of its stylesheet', async () => {
    const pool = poolOf(engine);
    const run = jest.spyOn(pool, 'run');
    try {
      const settle = (p: Promise<unknown>) => p.then((r) => JSON.stringify(r, (k, v: unknown) => (['timings', 'ms', 'compileMs', 'evaluateMs', 'serializeMs'].includes(k) ? undefined : v)), (e: { code?: string }) => `error ${e.code}`);
      const outcomes: string[] = [];
      for (const query of ['insert node <y>{1 + 1}</y> into /a', 'delete node //b', 'replace value of node /a/b with "z"', 'rename node /a/b as "c"', 'insert node <y/> into /nothing']) {
        run.mockClear();
        const before = pool.compilations;
        await settle(engine.evaluate(request(query, { context: { kind: 'documents', xml: ['<a><b>x</b></a>'] } })));
        const [task] = run.mock.calls.map(([t]) => t);
        expect(task).toMatchObject({ update: true, xpath: expect.any(String) });
        expect(pool.compilations).toBe(before);
        // the same task on the XPath evaluator and on its stylesheet (which an XPath run does not carry)
        const outcome = await settle(pool.run(task));
        expect(task.xslt).toBe('');
        const xslt = engine.prepare(query).translation('single').xslt;
        expect(await settle(pool.run({ ...task, xslt, xpath: undefined }))).toBe(outcome);
        outcomes.push(outcome);
      }
      // updates of documents not in a database change nothing stored (store.test.ts has stored ones)
      const none = JSON.stringify({ body: '', cached: false, changes: [] });
      expect(outcomes).toEqual([none, none, none, none, 'error XUDY0027']);
    } finally {
      run.mockRestore();
    }
  });

  it('runs a never-seen updating query that needs the runtime library on the library, compiling nothing of its own', async () => {
    const pool = poolOf(engine);
    const run = jest.spyOn(pool, 'run');
    try {
      // the library is compiled once for every query: first with a query of its own
      await engine.evaluate(request('for $i in (2, 1) order by $i return $i'));
      run.mockClear();
      const before = pool.compilations;
      const query = 'for $b in //b group by $k := string($b) order by $k return insert node <g k="{$k}"/> into /a';
      const result = await engine.evaluate(request(query, { context: { kind: 'documents', xml: ['<a><b>x</b><b>y</b></a>'] } }));
      expect(result.body).toBe('');
      const [task] = run.mock.calls.map(([t]) => t);
      expect(task).toMatchObject({ update: true, xslt: libraryStylesheet() });
      expect(pool.compilations).toBe(before);
    } finally {
      run.mockRestore();
    }
  });

  describe('external variables (spec §9.1)', () => {
    it('casts request strings to the declared type', async () => {
      const variables = new Map([['x', { values: ['41'] }]]);
      expect((await engine.evaluate(request('declare variable $x as xs:integer external; $x + 1', { variables }))).body).toBe('42');
    });

    it('binds repeated values as a sequence and ignores undeclared names', async () => {
      const variables = new Map([
        ['x', { values: ['1', '2'] }],
        ['other', { values: ['ignored'] }],
      ]);
      expect((await engine.evaluate(request('declare variable $x as xs:integer* external; sum($x)', { variables }))).body).toBe('3');
    });

    it('lets the request type override the declared one, and keeps untyped values as strings', async () => {
      const typed = new Map([['x', { values: ['2'], type: 'xs:double' }]]);
      expect((await engine.evaluate(request('declare variable $x external; $x instance of xs:double', { variables: typed }))).body).toBe('true');
      const plain = new Map([['x', { values: ['2'] }]]);
      expect((await engine.evaluate(request('declare variable $x external; $x instance of xs:string', { variables: plain }))).body).toBe('true');
    });

    it('uses the default value when there is no binding', async () => {
      expect((await engine.evaluate(request('declare variable $x external := 7; $x'))).body).toBe('7');
    });

    it('binds a variable in a namespace by EQName or by its prolog prefix', async () => {
      const q = 'declare namespace p = "urn:p"; declare variable $p:x external; $p:x';
      expect((await engine.evaluate(request(q, { variables: new Map([['Q{urn:p}x', { values: ['a'] }]]) }))).body).toBe('a');
      expect((await engine.evaluate(request(q, { variables: new Map([['p:x', { values: ['b'] }]]) }))).body).toBe('b');
    });

    it('raises XPDY0002 for a missing value and FORG0001 for an invalid one', async () => {
      const missing = await failure(engine, request('declare variable $x external;\n$x'));
      expect(errorBody(missing)).toBe('Stopped at ., 1/1:\n[XPDY0002] No value assigned to $x.');
      const invalid = await failure(engine, request('declare variable $x as xs:integer external; $x', { variables: new Map([['x', { values: ['abc'] }]]) }));
      expect(invalid.code).toBe('FORG0001');
    });
  });

  it('runs queries with external variables on the XPath evaluator, given a value or not, compiling nothing', async () => {
    const pool = poolOf(engine);
    const run = jest.spyOn(pool, 'run');
    try {
      const query = 'declare variable $x as xs:integer external; declare variable $y as xs:double* external := ($x, 0.5); $x + sum($y)';
      const before = pool.compilations;
      expect((await engine.evaluate(request(query, { variables: new Map([['x', { values: ['2'] }]]) }))).body).toBe('4.5');
      expect((await engine.evaluate(request(query, { variables: new Map([['x', { values: ['2'] }], ['y', { values: ['1', '2'] }]]) }))).body).toBe('5');
      expect(run.mock.calls.map(([task]) => task.xpath)).toEqual([expect.any(String), expect.any(String)]);
      expect(pool.compilations).toBe(before);
      // the request's value that does not cast is not in the query: no position
      const invalid = await failure(engine, request(query, { variables: new Map([['x', { values: ['abc'] }]]) }));
      expect(errorBody(invalid)).toBe('[FORG0001] Supplied value "abc" is not a valid xs:integer');
      expect(errorBody(await failure(engine, request(query, { variables: new Map([['x', { values: ['1', '2'] }]]) })))).toBe('[XPTY0004] $x: 2 values supplied for type Q{http://www.w3.org/2001/XMLSchema}integer.');
    } finally {
      run.mockRestore();
    }
  });

  it('runs FLWORs with order by and constructors and external variables on the library, answering what their stylesheets answer', async () => {
    const pool = poolOf(engine);
    const run = jest.spyOn(pool, 'run');
    const answer = (query: string, variables: Map<string, { values: string[] }>) =>
      engine.evaluate(request(query, { variables })).then(
        (r) => r.body,
        (e: { code?: string }) => `error ${e.code}`,
      );
    try {
      await answer('for $i in (2, 1) order by $i return <a>{$i}</a>', new Map());
      const queries = [
        'declare variable $k as xs:integer external; declare variable $t external := "r"; for $i in 1 to 6 where $i mod $k = 0 order by $i descending return <r t="{$t}">{$i}</r>',
        'declare variable $k as xs:double* external := (1, 2.5); for $x in $k order by $x descending return <v>{$x}</v>',
        'declare variable $k as xs:integer external := "x"; for $i in (2, 1) order by $i return <r>{$i + $k}</r>',
      ];
      let shapes = 0;
      for (const written of queries) {
        for (const variables of [new Map([['k', { values: ['2'] }]]), new Map([['k', { values: ['3'] }], ['t', { values: ['s'] }]]), new Map()]) {
          // a new shape each time: a shape seen again has its own stylesheet compiled (engine.ts `runnable`)
          const query = written.replace(/<(\/?)(r|v)\b/g, `<$1$2${++shapes}`);
          run.mockClear();
          const before = pool.compilations;
          const got = await answer(query, variables);
          const [task] = run.mock.calls.map(([t]) => t);
          // a required variable without a value fails before anything runs
          if (got === 'error XPDY0002') expect(task).toBeUndefined();
          else expect(task.xslt).toBe(libraryStylesheet());
          expect(pool.compilations).toBe(before);
          // a declared function keeps the query on a stylesheet of its own
          expect(got).toBe(await answer(`declare function local:unused() { 0 }; ${query}`, variables));
        }
      }
      expect(await answer(queries[0].replaceAll('<r', '<s').replace('</r>', '</s>'), new Map([['k', { values: ['2'] }]]))).toBe('<s t="r">6</s>\n<s t="r">4</s>\n<s t="r">2</s>');
    } finally {
      run.mockRestore();
    }
  });

  describe('context (spec §6.1, §9.2)', () => {
    it('has no context item without a context: XPDY0002', async () => {
      const e = await failure(engine, request('1 + .'));
      expect(e.code).toBe('XPDY0002');
      expect(e.position).toEqual({ line: 1, column: 1 });
    });

    it('focuses on a single context document', async () => {
      const out = await engine.evaluate(request('. instance of document-node(), /a/@n/string(), count(//b)', { context: { kind: 'documents', xml: ['<a n="1"><b/><b/></a>'] } }));
      expect(out.body).toBe('true\n1\n2');
    });

    it('takes several documents as a sequence', async () => {
      const out = await engine.evaluate(request('count(.), count(/), a ! string()', { context: { kind: 'documents', xml: ['<a>x</a>', '<a>y</a>'] } }));
      expect(out.body).toBe('2\n2\nx\ny');
    });

    it('reads a database context through the DocumentSource, from the request\'s view', async () => {
      const store = await createFileStore(data.path);
      try {
        const query = request('count(.), count(//x), /r/@db/string()', { context: { kind: 'database', db: 'db', path: '' } });
        const out = await store.read(['db'], (view) => engine.evaluate({ ...query, view }));
        expect(out.body).toBe('1\n2\nstored');
      } finally {
        await store.close();
      }
    });

    it('reports a context that is not well-formed', async () => {
      expect((await failure(engine, request('.', { context: { kind: 'documents', xml: ['<a>'] } }))).code).toBe('FODC0006');
    });
  });

  describe('errors (spec §12)', () => {
    it('reports syntax errors with the parser position', async () => {
      const e = await failure(engine, request('1 +\n  )'));
      expect(e.code).toBe('XPST0003');
      expect(e.position).toEqual({ line: 2, column: 3 });
      expect(errorBody(e)).toMatch(/^Stopped at \., 2\/3:\n\[XPST0003\] /);
    });

    it('maps dynamic errors back to the XQuery declaration they come from', async () => {
      // a reference by name keeps the function an xsl:function of the query's stylesheet
      const e = await failure(engine, request('declare function local:f($a) {\n  $a idiv 0\n};\nlocal:f#1(1)'));
      expect(e.code).toBe('FOAR0001');
      expect(e.position?.line).toBe(2);
    });

    it('reports a dynamic error in a declared function run as one expression at the query body', async () => {
      // its functions are items of the expression (translate/function-items.ts): a run as one
      // expression has no lines of its own
      const e = await failure(engine, request('declare function local:f($a) {\n  $a idiv 0\n};\nlocal:f(1)'));
      expect([e.code, e.position]).toEqual(['FOAR0001', { line: 4, column: 1 }]);
    });

    it('keeps fn:error codes and messages', async () => {
      const e = await failure(engine, request('error(xs:QName("err:FOER0000"), "boom")'));
      expect(errorBody(e)).toBe('Stopped at ., 1/1:\n[FOER0000] boom');
    });

    it('reports a type mismatch of a function argument as XPTY0004', async () => {
      const e = await failure(engine, request('declare function local:f($a as xs:integer) { $a }; local:f("x")'));
      expect(e.code).toBe('XPTY0004');
    });
  });
});
