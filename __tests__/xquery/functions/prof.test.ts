/** BaseX's prof: module over REST (functions/prof.ts). */
import { getQuery, queryBody, startTestServer, type TestServer } from '../../helpers/rest';

/** The lines the router's logger got at debug level (the workers' output). */
const debugLines: string[] = [];
const logger = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: (...args: unknown[]) => void debugLines.push(String(args[args.length - 1])) };

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ workers: 1, queryTimeout: 1500, logger });
  await s.get('/rest?query=1').expect(200); // the worker is up before the time limit matters
});
afterAll(() => s.close());

const ok = (query: string) => queryBody(s, query);

describe('prof: (predeclared prefix, BaseX Profiling Module)', () => {
  test('prof:sleep waits, and answers nothing', async () => {
    expect(await ok('let $a := prof:current-ms() return (prof:sleep(60), prof:current-ms() - $a ge 60)')).toBe('true');
    expect(await ok('prof:sleep(1), 2')).toBe('2');
  });

  test('prof:sleep is stopped by the query time limit, and the server keeps answering', async () => {
    const r = await getQuery(s, 'prof:sleep(600000)').expect(500);
    expect(r.text).toMatch(/\[BASX0003\] Timeout exceeded/);
    expect(await ok('3')).toBe('3');
  });

  test('prof:current-ms and prof:current-ns are integers that advance', async () => {
    expect(await ok('prof:current-ms() instance of xs:integer, prof:current-ms() gt 1700000000000')).toBe('true\ntrue');
    expect(await ok('let $a := prof:current-ns() return (prof:sleep(5), prof:current-ns() - $a ge 5000000)')).toBe('true');
  });

  test('prof:time and prof:type answer their input; prof:void and prof:dump answer nothing', async () => {
    expect(await ok('prof:time(sum(1 to 1000)), prof:time((1, 2), "sum: ")')).toBe('500500\n1\n2');
    expect(await ok('prof:type((1, 2)), prof:type(<a/>)')).toBe('1\n2\n<a/>');
    expect(await ok('prof:void((1, 2, 3)), 4')).toBe('4');
    expect(await ok('prof:dump(<a>x</a>, "lbl: "), prof:dump((1, "s")), 5')).toBe('5');
  });

  test('prof:time, prof:type and prof:dump write their lines to the log (logger.debug)', async () => {
    expect(await ok('prof:dump(<logged/>, "dumped: "), prof:type((1, 2.5)), prof:time(7, "timed: ")')).toBe('1\n2.5\n7');
    const timed = (): string | undefined => debugLines.find((l) => l.startsWith('timed: '));
    for (let i = 0; i < 100 && !timed(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(debugLines).toContain('dumped: <logged/>');
    expect(debugLines).toContain('xs:anyAtomicType+');
    expect(timed()).toMatch(/^timed: \d+\.\d\d ms$/);
  });

  test('prof:track answers a map of time and value, memory on request', async () => {
    expect(await ok('let $t := prof:track((1 to 3) ! (. * 2)) return ($t?value, $t?time instance of xs:decimal, sort(map:keys($t)))')).toBe(
      '2\n4\n6\ntrue\ntime\nvalue',
    );
    expect(await ok("prof:track(1, map { 'memory': true(), 'time': false(), 'value': false() }) => map:keys()")).toBe('memory');
    expect(await ok("prof:track(1, map { 'time': false() })?value")).toBe('1');
  });

  test('an unknown prof: function is XPST0017', async () => {
    expect((await getQuery(s, 'prof:nothing()').expect(500)).text).toMatch(/\[XPST0017\]/);
  });
});
