/**
 * The web console: `app.use('/console', createConsoleRouter({ rest }))`. It serves the console's
 * page and bundle (assets.ts), hands `rest/...` below its own path to the REST router in-process
 * (the browser talks to nothing but the REST interface, with the same users, permissions,
 * `authenticate` hook and cross-site rules), and keeps each user's saved queries and history
 * (`api/...`, saved-queries.ts: in the data folder, or in PostgreSQL on the PostgreSQL store),
 * for the user the REST router authenticates.
 *
 *   GET  api/me              {"name","perm"}
 *   GET  api/saved           [{"name","query","saved"}]
 *   PUT  api/saved/NAME      {"query"} → the saved query
 *   DELETE api/saved/NAME    204 (404 when there is none)
 *   GET  api/history         [{"query","at"}], newest first
 *   POST api/history         {"query"} → 204
 *
 * A 401 of the console carries no `WWW-Authenticate` challenge: the console has its own login
 * form, and a challenge would make the browser show its own dialog and keep the credentials for
 * the origin, beyond the console's reach to forget them at logout.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import { raise } from '../xmldb-error';
import { readBody } from '../http/body';
import { isCrossSite } from '../http/cross-site';
import type { RestRouter } from '../http/router';
import { errorHandler } from '../http/respond';
import { internalsOf, type RouterInternals } from '../http/router-internals';
import { HTTP_ERRORS } from '../http/status';
import { isPostgresStore } from '../store/postgres/load-pg-store';
import { ConsoleAssets, defaultAssetsDir, setPageHeaders } from './assets';
import { ConsoleFile } from './console-file';
import { ConsolePg } from './console-pg';
import { CONSOLE_ERRORS } from './console-errors';
import { SavedQueries } from './saved-queries';

export interface ConsoleOptions {
  /** The REST router the console talks to (`createRestRouter`). */
  readonly rest: RestRouter;
  /** The folder of the built browser files; default: the package's. */
  readonly assetsDir?: string;
}

export type ConsoleRouter = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/** Names of saved queries: printable, no path separators, at most 100 characters. */
const QUERY_NAME = /^[^\u0000-\u001f/\\]{1,100}$/;

function sendJson(req: IncomingMessage, res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.statusCode = status;
  setPageHeaders(res);
  res.setHeader('Content-Type', 'application/json; charset=UTF-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.setHeader('Cache-Control', 'no-store');
  res.end(req.method === 'HEAD' ? undefined : body);
}

function sendStatus(res: ServerResponse, status: number, text: string): void {
  res.statusCode = status;
  setPageHeaders(res);
  res.setHeader('Content-Type', 'text/plain; charset=UTF-8');
  res.end(text);
}

/** Keeps `WWW-Authenticate` off a response (see the module comment). */
function withoutChallenge(res: ServerResponse): void {
  const setHeader = res.setHeader.bind(res);
  res.setHeader = (name, value) => (name.toLowerCase() === 'www-authenticate' ? res : setHeader(name, value));
}

/** The `query` of a JSON body `{"query": "..."}`. */
async function queryOfBody(req: IncomingMessage, res: ServerResponse, limit: number): Promise<string> {
  const text = (await readBody(req as Request, res as Response, limit, 'maxQueryBodySize')).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw raise(CONSOLE_ERRORS, 'BODY_NOT_QUERY');
  }
  const query = (value as { query?: unknown } | null)?.query;
  if (typeof query !== 'string') throw raise(CONSOLE_ERRORS, 'BODY_NOT_QUERY');
  return query;
}

/** The name of a saved query in its route (`saved/NAME`, percent-encoded). */
function queryName(encoded: string): string {
  let name: string;
  try {
    name = decodeURIComponent(encoded);
  } catch {
    throw raise(CONSOLE_ERRORS, 'BAD_QUERY_NAME');
  }
  if (!QUERY_NAME.test(name)) throw raise(CONSOLE_ERRORS, 'BAD_QUERY_NAME');
  return name;
}

/** Where the console keeps its data: by the router's store, decided once it is open. */
async function openSavedQueries(internals: RouterInternals): Promise<SavedQueries> {
  const { store } = await internals.runtime();
  return new SavedQueries(isPostgresStore(store) ? new ConsolePg(store.controlPool) : new ConsoleFile(internals.options.dbPath));
}

async function answerApi(req: IncomingMessage, res: ServerResponse, internals: RouterInternals, saved: () => Promise<SavedQueries>, route: string): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  // The console's own routes are for its own page: every request of another site is refused.
  if (isCrossSite(req as Request, internals.options.trustedOrigins)) throw raise(CONSOLE_ERRORS, 'CROSS_SITE_X', method);
  if (route !== 'me' && route !== 'history' && route !== 'saved' && !route.startsWith('saved/')) throw raise(CONSOLE_ERRORS, 'NO_ROUTE_X', route);
  const user = await internals.authenticate(req);
  const store = await saved();
  const limit = internals.options.maxQueryBodySize;
  if (route === 'me' && method === 'GET') return sendJson(req, res, 200, { name: user.name, perm: user.perm });
  if (route === 'history') {
    if (method === 'GET') return sendJson(req, res, 200, await store.history(user.name));
    if (method === 'POST') {
      await store.record(user.name, await queryOfBody(req, res, limit));
      return sendStatus(res, 204, '');
    }
  }
  if (route === 'saved' && method === 'GET') return sendJson(req, res, 200, await store.saved(user.name));
  if (route.startsWith('saved/')) {
    const name = queryName(route.slice('saved/'.length));
    if (method === 'PUT') return sendJson(req, res, 200, await store.save(user.name, name, await queryOfBody(req, res, limit)));
    if (method === 'DELETE') {
      if (await store.remove(user.name, name)) return sendStatus(res, 204, '');
      throw raise(CONSOLE_ERRORS, 'NO_SAVED_QUERY_X', name);
    }
  }
  throw raise(HTTP_ERRORS, 'METHOD_NOT_SUPPORTED_X', `${method} ${route}`);
}

export function createConsoleRouter(options: ConsoleOptions): ConsoleRouter {
  const internals = internalsOf(options.rest);
  if (internals === undefined) throw new TypeError('xmldb-rest: createConsoleRouter needs { rest: createRestRouter(...) }.');
  const assets = new ConsoleAssets(options.assetsDir ?? defaultAssetsDir());
  let opening: Promise<SavedQueries> | undefined;
  const saved = (): Promise<SavedQueries> =>
    (opening ??= openSavedQueries(internals).catch((error: unknown) => {
      opening = undefined;
      throw error;
    }));
  const onError = errorHandler(internals.options.logger);

  return (req, res, next) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (path === '/rest' || path.startsWith('/rest/')) {
      // the REST router below `rest`, as `app.use('/rest', rest)` would place it
      withoutChallenge(res);
      req.url = url.slice('/rest'.length) || '/';
      if (req.url.startsWith('?')) req.url = `/${req.url}`;
      options.rest(req, res, (error?: unknown) => {
        req.url = url;
        next(error);
      });
      return;
    }
    if (path.startsWith('/api/')) {
      withoutChallenge(res);
      answerApi(req, res, internals, saved, path.slice('/api/'.length)).catch((error: unknown) =>
        onError(error, req as Request, res as Response, next),
      );
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (path === '/') {
      // the page names its files relative to itself: `/console` must become `/console/`
      const original = (req as { originalUrl?: string }).originalUrl;
      const originalPath = original?.split('?')[0];
      if (originalPath !== undefined && !originalPath.endsWith('/')) {
        res.statusCode = 308;
        setPageHeaders(res);
        res.setHeader('Location', `${originalPath}/`);
        res.end();
        return;
      }
      assets.serve(req, res, '');
      return;
    }
    const asset = /^\/assets\/([A-Za-z0-9._-]+)$/.exec(path);
    if (asset && assets.serve(req, res, asset[1])) return;
    next();
  };
}
