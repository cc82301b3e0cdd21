import { startTestServer, type TestServer } from '../helpers/rest';

let s: TestServer;
beforeAll(async () => {
  // the runaway takes a core until this limit stops it
  s = await startTestServer({ workers: 2, queryTimeout: 1500 });
  // two queries at once start both workers, so that no test request waits for one to load
  await Promise.all([s.get('/rest?query=sum(1 to 300000)').expect(200), s.get('/rest?query=sum(1 to 300001)').expect(200)]);
  // compiled now, so that a loaded machine cannot push their compilation past the time limit
  await s.get('/rest?query=1%2B1').expect(200);
  await s.get('/rest?query=3*3').expect(200);
});
afterAll(() => s.close());

describe('runaway queries (queryTimeout)', () => {
  test('a simple request is answered while a runaway query runs; the runaway is stopped', async () => {
    let runawayDone = false;
    const runaway = s
      .get(`/rest?query=${encodeURIComponent('sum(for $i in 1 to 10000000000 return $i * 2)')}`)
      .then((r) => {
        runawayDone = true;
        return r;
      });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const listing = await s.get('/rest').expect(200);
    expect(listing.text).toBe('<databases xmlns="http://basex.org/rest"/>');
    const simple = await s.get('/rest?query=1%2B1').expect(200);
    expect(simple.text).toBe('2');
    expect(runawayDone).toBe(false);
    const r = await runaway;
    expect(r.status).toBe(500);
    expect(r.text).toMatch(/\[BASX0003\] Timeout exceeded/);
    // The pool replaced the stopped worker: queries keep working.
    expect((await s.get('/rest?query=3*3').expect(200)).text).toBe('9');
  });

  test('infinite recursion ends with an error, not a crash', async () => {
    const r = await s.get(`/rest?query=${encodeURIComponent('declare function local:f($n) { local:f($n + 1) + 1 }; local:f(0)')}`);
    expect(r.status).toBe(500);
    expect(r.text).toMatch(/^(Stopped at .*\n)?\[(XPDY0130|BASX0003)\] /);
    expect((await s.get('/rest?query=1').expect(200)).text).toBe('1');
  });
});
