/** The routes that run a query text, for tests that send one query over each of them. */
import type express from 'express';
import request from 'supertest';
import { queryRequest, queryUrl, seedUsers, startTestServer, tempDir, type TestServer } from './rest';

/** Sends `query` as `user` (name, password) over one route: the response. */
export type SendQuery = (query: string, user: readonly [string, string]) => Promise<request.Response>;

/** GET ?query=, QUERY, POST <query> and GET ?command=XQUERY against the router mounted at `/rest` of `app()`. */
export function queryRoutes(app: () => express.Express): Array<readonly [string, SendQuery]> {
  return [
    ['GET ?query=', (q, [u, p]) => request(app()).get(queryUrl(q)).auth(u, p)],
    ['QUERY', (q, [u, p]) => queryRequest(app(), '/rest').auth(u, p).set('Content-Type', 'text/plain').send(q)],
    [
      'POST <query>',
      (q, [u, p]) =>
        request(app())
          .post('/rest')
          .auth(u, p)
          .set('Content-Type', 'application/xml')
          .send(`<query xmlns="http://basex.org/rest"><text><![CDATA[${q}]]></text></query>`),
    ],
    ['GET ?command=XQUERY', (q, [u, p]) => request(app()).get(`/rest?command=${encodeURIComponent(`XQUERY ${q}`)}`).auth(u, p)],
  ];
}

/** An admin and a user with permission `none`, as (name, password), for sandbox tests. */
export const SANDBOX_USERS = [
  ['admin', 'admin-pw'],
  ['nobody', 'pw'],
] as const;

/** A router with one worker, on a data folder holding SANDBOX_USERS. */
export async function startSandboxServer(): Promise<TestServer> {
  const dbPath = tempDir();
  await seedUsers(dbPath, [
    { name: 'admin', password: 'admin-pw', perm: 'admin' },
    { name: 'nobody', password: 'pw', perm: 'none' },
  ]);
  return startTestServer({ dbPath, workers: 1 });
}
