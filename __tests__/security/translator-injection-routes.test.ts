/**
 * The two injections through namespace URIs, over every route that runs a query text, as a user
 * with permission `none` and as an admin: each is a static error, never a value of host
 * JavaScript. (1) A `}` in a namespace URI closed the generated `Q{uri}` and called saxon-js's
 * `ixsl:get`; (2) a hidden namespace wrapped in whitespace passed the checks on the raw URI,
 * and saxon-js, which trims it, called its own `ixsl:get` instead of the declared function.
 */
import request from 'supertest';
import { queryRoutes, SANDBOX_USERS as USERS, startSandboxServer, type SendQuery } from '../helpers/query-routes';
import type { TestServer } from '../helpers/rest';

let s: TestServer;
beforeAll(async () => {
  s = await startSandboxServer();
});
afterAll(() => s.close());

/** An XQuery string literal with the value `q`. */
const literal = (q: string): string => `"${q.replace(/&/g, '&amp;').replace(/"/g, '""')}"`;

/** Every route that runs a query text, as `user`: the response. */
const ROUTES: ReadonlyArray<readonly [string, SendQuery]> = [
  ...queryRoutes(() => s.app),
  ['POST <commands>', (q, [u, p]) => request(s.app).post('/rest').auth(u, p).set('Content-Type', 'application/xml').send(`<commands><xquery><![CDATA[${q}]]></xquery></commands>`)],
  ['xquery:eval', (q, [u, p]) => request(s.app).get(`/rest?query=${encodeURIComponent(`xquery:eval(${literal(q)})`)}`).auth(u, p)],
];

const BRACE_URI = "x}a), (Q{http://saxonica.com/ns/interactiveXSLT}get(map{}, 'constructor.name')), (()!Q{y";
const ATTACKS = [
  ['"}" in a namespace URI', `declare namespace p = "${BRACE_URI}";\ndocument{<r/>}/p:a`, `[XQST0046] Invalid URI "${BRACE_URI}": character "}" is not allowed`],
  [
    'a hidden namespace in whitespace',
    'declare namespace i = " http://saxonica.com/ns/interactiveXSLT";\ndeclare function i:get($o, $p) { () };\ni:get(map{}, "constructor.name")',
    '[XQST0045] Function i:get is declared in a reserved namespace.',
  ],
] as const;

const CASES = ROUTES.flatMap(([route, send]) => USERS.flatMap((user) => ATTACKS.map(([attack, query, line]) => [attack, route, user[0], send, user, query, line] as const)));

describe('injection through namespace URIs', () => {
  it.each(CASES)('%s over %s as %s: a static error', async (_attack, _route, _name, send, user, query, line) => {
    const r = await send(query, user);
    expect(r.status).toBe(500);
    expect(r.text).not.toContain('Object');
    expect(r.text.split('\n').pop()).toBe(line);
  });
});
