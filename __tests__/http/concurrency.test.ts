import { startTestServer, type TestServer } from '../helpers/rest';

let s: TestServer;
beforeEach(async () => {
  s = await startTestServer();
  await s.put('/rest/db').expect(201);
});
afterEach(() => s.close());

describe('parallel writes (spec §16.1)', () => {
  test('50 parallel PUTs to distinct paths are all stored', async () => {
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => s.put(`/rest/db/d${i}.xml`, `<d n="${i}"/>`).expect(201)),
    );
    const listing = (await s.get('/rest/db').expect(200)).text;
    expect(listing.match(/<resource /g)).toHaveLength(50);
    for (let i = 0; i < 50; i++) expect((await s.get(`/rest/db/d${i}.xml`).expect(200)).text).toBe(`<d n="${i}"/>`);
  });

  test('20 parallel PUTs to one path leave exactly one well-formed resource', async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => s.put('/rest/db/same.xml', `<d n="${i}">${'x'.repeat(i * 100)}</d>`).expect(201)),
    );
    const listing = (await s.get('/rest/db').expect(200)).text;
    expect(listing.match(/<resource /g)).toHaveLength(1);
    const body = (await s.get('/rest/db/same.xml').expect(200)).text;
    const n = Number(/^<d n="(\d+)">(x*)<\/d>$/.exec(body)?.[1]);
    expect(body).toBe(`<d n="${n}">${'x'.repeat(n * 100)}</d>`);
  });

  test('reads during writes see whole documents', async () => {
    await s.put('/rest/db/r.xml', '<r>0</r>').expect(201);
    const ops: Array<Promise<unknown>> = [];
    for (let i = 1; i <= 20; i++) {
      ops.push(s.put('/rest/db/r.xml', `<r>${String(i).repeat(500)}</r>`).expect(201));
      ops.push(s.get('/rest/db/r.xml').expect(200).then((r) => expect(r.text).toMatch(/^<r>(\d+)<\/r>$/)));
    }
    await Promise.all(ops);
  });
});
