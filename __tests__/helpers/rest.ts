/** One-line helpers for REST tests: a fresh data folder and router per test, requests as admin. */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { createRestRouter, type RestRouter } from '../../lib';
import type { Logger, RestOptions } from '../../lib/options';
import { UserStore } from '../../lib/users/user-store';
import './fast-hashes';
import { dropStoreOf, onPostgresStore, storeUrlFor, withStoreUsers } from './test-store';
import { tempDir } from './temp-dir';

export { tempDir };

export const ADMIN = { user: 'admin', password: 'admin-pw' };

/** A logger that drops every message. */
export const QUIET: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
export const NS = 'http://basex.org/rest';

export interface TestServer {
  readonly app: express.Express;
  readonly router: RestRouter;
  readonly dbPath: string;
  readonly restPath: string;
  /** supertest agent with admin credentials preset. */
  get(url: string): request.Test;
  put(url: string, body?: string | Buffer, contentType?: string): request.Test;
  post(url: string, body: string, contentType?: string): request.Test;
  del(url: string): request.Test;
  query(url: string, body: string): request.Test;
  close(): Promise<void>;
}

/** A QUERY-method request (supertest has no shortcut for it). */
export function queryRequest(app: express.Express, url: string): request.Test {
  return new request.Test(http.createServer(app), 'QUERY', url);
}

/** Collects a response body as bytes, whatever its content type. */
export function asBytes(t: request.Test): request.Test {
  return t.buffer(true).parse((res, cb) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => cb(null, Buffer.concat(chunks)));
  });
}

export async function startTestServer(options: RestOptions = {}): Promise<TestServer> {
  const dbPath = options.dbPath ?? tempDir();
  const restPath = options.restPath ?? path.join(dbPath, '..', `${path.basename(dbPath)}-restpath`);
  fs.mkdirSync(restPath, { recursive: true });
  // On the PostgreSQL store (test-store.ts) the folder holds caches only; its data is in a schema.
  const storeUrl = options.storeUrl ?? (onPostgresStore() ? await storeUrlFor(dbPath) : undefined);
  // One query worker unless a test asks for more: each worker boots its own saxon-js, and most
  // files never run two queries at once (those that do pass `workers`). One logger for the
  // routers that bring none: routers with one logger share a query host (shared-hosts.ts).
  const logger = options.logger ?? (options.log ? undefined : QUIET);
  const router = createRestRouter({ adminPassword: ADMIN.password, workers: 1, ...options, logger, dbPath, restPath, storeUrl });
  await router.ready();
  const app = express();
  app.use('/rest', router);
  const auth = (t: request.Test) => t.auth(ADMIN.user, ADMIN.password);
  // Without a content type, a body is sent as bytes: superagent would label a string as a form.
  const withBody = (t: request.Test, body: string | Buffer | undefined, contentType?: string) => {
    if (contentType !== undefined) t = t.set('Content-Type', contentType);
    if (body === undefined) return t;
    return t.send(contentType === undefined && typeof body === 'string' ? Buffer.from(body) : body);
  };
  return {
    app,
    router,
    dbPath,
    restPath,
    get: (url) => auth(request(app).get(url)),
    put: (url, body, contentType) => withBody(auth(request(app).put(url)), body, contentType),
    post: (url, body, contentType = 'application/xml') => withBody(auth(request(app).post(url)), body, contentType),
    del: (url) => auth(request(app).delete(url)),
    query: (url, body) => auth(queryRequest(app, url)).set('Content-Type', 'text/plain').send(body),
    close: async () => {
      await router.close();
      if (options.storeUrl === undefined) await dropStoreOf(dbPath);
      fs.rmSync(dbPath, { recursive: true, force: true });
      fs.rmSync(restPath, { recursive: true, force: true });
    },
  };
}

/** The URL `/rest{path}?query=…{extra}` (`extra`: more URL parameters, `&`-prefixed). */
export function queryUrl(query: string, path = '', extra = ''): string {
  return `/rest${path}?query=${encodeURIComponent(query)}${extra}`;
}

/** GET `queryUrl(query, path, extra)` as admin. */
export function getQuery(s: TestServer, query: string, path = '', extra = ''): request.Test {
  return s.get(queryUrl(query, path, extra));
}

/**
 * The server of one test file: started (its query worker loaded, so the first test's time limit
 * does not count its start-up) before the file's tests, closed after them.
 */
export function serverOfFile(options: RestOptions = { workers: 1 }): () => TestServer {
  let s: TestServer | undefined;
  beforeAll(async () => {
    s = await startTestServer(options);
    await s.get('/rest?query=1').expect(200);
  });
  afterAll(() => s?.close());
  return () => {
    if (!s) throw new Error('the test server has not started');
    return s;
  };
}

/** The body of a query that must fail with 500. */
export async function failureBody(s: TestServer, query: string, path = '', extra = ''): Promise<string> {
  return (await getQuery(s, query, path, extra).expect(500)).text;
}

/** The body of a query that must succeed; a failure shows the query and the error body. */
export async function queryBody(s: TestServer, query: string, path = '', extra = ''): Promise<string> {
  const r = await getQuery(s, query, path, extra);
  if (r.status !== 200) throw new Error(`${query}: ${r.status} ${r.text}`);
  return r.text;
}

export interface SeedUser {
  name: string;
  password: string;
  perm: 'none' | 'read' | 'write' | 'create' | 'admin';
  grants?: Array<[pattern: string, perm: 'none' | 'read' | 'write']>;
}

/** Writes users into a data folder before a router opens it. */
export async function seedUsers(dbPath: string, users: readonly SeedUser[]): Promise<void> {
  if (onPostgresStore()) return withStoreUsers(dbPath, (store) => seedInto(store, users));
  return seedInto(await UserStore.open(dbPath), users);
}

async function seedInto(store: UserStore, users: readonly SeedUser[]): Promise<void> {
  for (const u of users) {
    if (store.get(u.name) === undefined) await store.create(u.name, u.password, u.perm);
    else {
      await store.setPassword(u.name, u.password);
      await store.grant(u.name, u.perm);
    }
    for (const [pattern, perm] of u.grants ?? []) await store.grant(u.name, perm, pattern);
  }
}
