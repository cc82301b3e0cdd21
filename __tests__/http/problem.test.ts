import request from 'supertest';
import { startTestServer, type TestServer } from '../helpers/rest';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const PROBLEM = 'application/problem+json';

describe('problem details (RFC 9457) when Accept prefers them', () => {
  test('a query error: status as today, code, line and column', async () => {
    const r = await s.get(`/rest?query=${encodeURIComponent('1 +\n  (')}`).set('Accept', PROBLEM).expect(500);
    expect(r.headers['content-type']).toBe(PROBLEM);
    const body = JSON.parse(r.text) as Record<string, unknown>;
    expect(body).toMatchObject({ type: 'https://www.w3.org/TR/xquery-31/#id-kinds-of-errors', title: 'XQuery syntax error', status: 500, code: 'XPST0003', line: 2 });
    expect(typeof body.column).toBe('number');
    expect(body.detail).toMatch(/^\[XPST0003\] /);
  });

  test('a dynamic error of the QUERY method', async () => {
    const r = await s.query('/rest', '1 div 0').set('Accept', PROBLEM).expect(500);
    expect(JSON.parse(r.text)).toStrictEqual({
      type: 'https://www.w3.org/TR/xquery-31/#id-kinds-of-errors',
      title: 'XQuery dynamic error',
      status: 500,
      detail: '[FOAR0001] Division by zero',
      code: 'FOAR0001',
      line: 1,
      column: 1,
    });
  });

  test.each([
    ['prefix:f()', 'XPST0081', 'XQuery static error'],
    ['"a" + 1', 'XPTY0004', 'XQuery type error'],
    ['declare variable $x external; $x', 'XPDY0002', 'XQuery dynamic error'],
  ])('%s: %s is an %s', async (query, code, title) => {
    const r = await s.get(`/rest?query=${encodeURIComponent(query)}`).set('Accept', PROBLEM).expect(500);
    const body = JSON.parse(r.text) as Record<string, unknown>;
    expect([body.type, body.code, body.title]).toEqual(['https://www.w3.org/TR/xquery-31/#id-kinds-of-errors', code, title]);
  });

  test('other errors: type, title, status and the message as detail', async () => {
    const r = await s.get('/rest/nodb').set('Accept', `${PROBLEM}, text/plain;q=0.5`).expect(404);
    expect(r.headers['content-type']).toBe(PROBLEM);
    expect(JSON.parse(r.text)).toStrictEqual({ type: 'about:blank', title: 'Not Found', status: 404, detail: "Database 'nodb' was not found." });
    const unauth = await request(s.app).get('/rest').set('Accept', PROBLEM).expect(401);
    expect(unauth.headers['www-authenticate']).toBe('Basic realm="BaseX"');
    expect(JSON.parse(unauth.text)).toMatchObject({ status: 401, title: 'Unauthorized', detail: 'Basic authentication expected.' });
  });

  test('a 416 keeps its Content-Range', async () => {
    const r = await s.get('/rest?query=1').set('Range', 'items=5-6').set('Accept', PROBLEM).expect(416);
    expect(r.headers['content-range']).toBe('items */1');
    expect(JSON.parse(r.text)).toMatchObject({ status: 416, title: 'Range Not Satisfiable' });
  });

  test.each([undefined, '*/*', 'text/plain', `text/plain, ${PROBLEM}`, 'application/json', `${PROBLEM};q=0.1, text/*`])(
    'Accept %s: BaseX text bodies, unchanged',
    async (accept) => {
      const t = s.get('/rest/nodb');
      const r = await (accept === undefined ? t : t.set('Accept', accept)).expect(404);
      expect(r.headers['content-type']).toBe('text/plain; charset=UTF-8');
      expect(r.text).toBe("Database 'nodb' was not found.");
    },
  );
});
