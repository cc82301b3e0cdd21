/**
 * The router, one request handler: authenticate, choose the operation by method, classify
 * parameters, run the operation, write the result. One error writer writes every failure.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import { raise } from '../xmldb-error';
import { databasesOf, type XmlDatabases } from '../in-process';
import { resolveOptions, type ResolvedOptions, type RestOptions } from '../router-options';
import { readPreconditions, type Preconditions } from '../operations/preconditions';
import { putDatabase } from '../operations/create';
import { deleteTarget } from '../operations/delete';
import { listDatabases, notFound } from '../operations/list';
import { requireReadableDatabase } from '../operations/permission';
import { retrieve } from '../operations/retrieve';
import { runCommand, runCommandScript } from '../operations/command';
import { evaluateQuery } from '../operations/query';
import { runServerFile } from '../operations/run';
import { closeRuntime, openRuntime, type Runtime } from '../operations/composition-root';
import { storeResource } from '../operations/store';
import { runtimeOfUser } from '../operations/guarded-store';
import { UserRequests } from './user-requests';
import type { Result, Session } from '../operations/types';
import { parseRange, type RequestedRange } from '../range-requests';
import { isValidDatabaseName } from '../store/resource-names';
import { authenticate, checkDefaultUser } from './auth';
import { bodyText, readBody } from './body';
import { DisconnectSignal } from './disconnect-signal';
import { isCrossSite, refuseCrossSite } from './cross-site';
import { classifyReadParameters, classifyWriteParameters, type RequestParameters } from './parameters';
import { parsePostRequest, type PostOperation } from './post';
import { parseQueryString } from './query-string';
import { checkHealth } from './health';
import { hostParserError } from './host-parsers';
import { checkParameterCount, checkUrlLength } from './request-limits';
import { ALLOWED_METHODS, answerOptions } from './options-method';
import { setRequestUser } from './request-user';
import { registerInternals } from './router-internals';
import { errorHandler, send } from './respond';
import { HTTP_ERRORS } from './status';
import { parseTarget, type Target } from './url-path';

/**
 * The router as its public type: a request handler over Node's own request and response types,
 * with `ready()`, `close()` and `health()`. It needs no Express typings, so hosts compile without
 * `@types/express`, and it fits `app.use()` of Express 4 and 5 (their handlers take subtypes of
 * these) as well as a plain `http.createServer` callback.
 */
export interface RestRouter {
  (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void;
  /** Resolves once the data folder and users are open. */
  ready(): Promise<void>;
  /** Waits for writes in flight, then releases the data folder. */
  close(): Promise<void>;
  /** Whether the store is open and a query worker answers (within `timeoutMs`, default `queryTimeout`). */
  health(timeoutMs?: number): Promise<boolean>;
  /**
   * An error middleware for the router's mount path (`app.use('/rest', rest, rest.errorHandler)`):
   * a host body parser's refusal of a request to the router (malformed JSON, a body too large
   * for the parser) is answered as the router answers its own errors, `text/plain` or problem
   * details with the parser's status, instead of the host's HTML error page; other errors go on.
   */
  readonly errorHandler: (err: unknown, req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
  /** The databases for the host's own code, without HTTP: same engine, store, users, locks and permissions. */
  readonly database: XmlDatabases;
}

const METHODS: ReadonlySet<string> = new Set(ALLOWED_METHODS);

type Operation = NonNullable<RequestParameters['operation']>;

function rawPath(req: Request): string {
  const q = req.url.indexOf('?');
  return q < 0 ? req.url : req.url.slice(0, q);
}

/** A database named in the URL must exist and be readable; otherwise 404 (spec §12). */
function checkDatabaseName(target: Target): void {
  if (target.db !== undefined && !isValidDatabaseName(target.db)) throw notFound(target.db);
}

/** What the headers of a request ask beyond BaseX's interface (RFC 9110 §13, §14). */
interface HeaderRequest {
  readonly preconditions: Preconditions;
  /** `Range: bytes=...`, for stored raw resources. */
  readonly bytes?: RequestedRange;
  /** `Range: items=...`, for query results. */
  readonly items?: RequestedRange;
}

function headerRequest(req: Request): HeaderRequest {
  const range = req.headers.range;
  return { preconditions: readPreconditions(req.headers), bytes: parseRange(range, 'bytes'), items: parseRange(range, 'items') };
}

/**
 * GET (and HEAD): an operation of the query string, or a listing or resource. Not an async
 * function: a query's promise is handed on as it is, without a wrapping promise and its turns.
 */
function runGet(session: Session, target: Target, params: RequestParameters, headers: HeaderRequest): Promise<Result> {
  const op = params.operation;
  if (op === undefined) {
    if (target.db === undefined) return listDatabases(session, params.serialization);
    return retrieve(session, target.db, target.path, params.serialization, { preconditions: headers.preconditions, range: headers.bytes });
  }
  if (target.db !== undefined) return requireReadableDatabase(session, target.db).then(() => runOperation(session, op, target, params, headers));
  return runOperation(session, op, target, params, headers);
}

/** The operation of a GET's query string. */
function runOperation(session: Session, op: Operation, target: Target, params: RequestParameters, headers: HeaderRequest): Promise<Result> {
  switch (op.name) {
    case 'query':
      return evaluateQuery(session, {
        query: op.value,
        db: target.db,
        path: target.path,
        context: params.context,
        variables: params.variables,
        serialization: params.serialization,
        options: params.options,
        items: headers.items,
      });
    case 'command':
      return runCommand(session, op.value, { ...params, db: target.db, path: target.path });
    case 'run':
      return runServerFile(session, op.value, { ...params, db: target.db, path: target.path });
  }
}

/** POST: the operation named by the body's root element (spec §7); the URL's database was checked before the body was read. */
async function runPost(session: Session, target: Target, post: PostOperation, headers: HeaderRequest): Promise<Result> {
  const base = { db: target.db, path: target.path };
  if (post.kind === 'commands') {
    return runCommandScript(session, post.script, { ...base, serialization: {}, options: new Map(), variables: new Map() });
  }
  const input = { ...base, ...post };
  switch (post.kind) {
    case 'query':
      return evaluateQuery(session, { ...input, query: post.text, items: headers.items });
    case 'command':
      return runCommand(session, post.text, input);
    case 'run':
      return runServerFile(session, post.text, input);
  }
}

/** Opens the runtime and checks the default user against the users of the data folder. */
async function openChecked(options: ResolvedOptions): Promise<Runtime> {
  const rt = await openRuntime(options);
  try {
    checkDefaultUser(options, rt.users);
  } catch (e) {
    await closeRuntime(rt);
    throw e;
  }
  return rt;
}

/** Answers one request: authenticate, choose the handler by method, run the operation, write the result. */
async function handle(
  req: Request,
  res: Response,
  options: ResolvedOptions,
  runtime: () => Runtime | Promise<Runtime>,
  userRequests: UserRequests,
): Promise<void> {
  const method = req.method.toUpperCase();
  // Before anything else: a URL past the limits is refused before it costs any work.
  checkUrlLength(req.url, options.maxUrlLength);
  // Before authentication: a browser's CORS preflight carries no credentials.
  if (method === 'OPTIONS') return answerOptions(res);
  const opened = runtime();
  const rt = opened instanceof Promise ? await opened : opened;
  const pairs = parseQueryString(req.url);
  checkParameterCount(pairs, options.maxParameters);
  // Before authentication and the body: a refused request costs nothing and changes nothing.
  refuseCrossSite(isCrossSite(req, options.trustedOrigins), method, pairs);
  const authenticated = authenticate(req, rt);
  const user = authenticated instanceof Promise ? await authenticated : authenticated;
  setRequestUser(req, user.name);
  if (!METHODS.has(method)) throw raise(HTTP_ERRORS, 'METHOD_NOT_SUPPORTED_X', method);
  const session: Session = { user, runtime: runtimeOfUser(rt, user), signal: new DisconnectSignal(res) };
  const leave = await userRequests.enter(user.name);
  try {
    await answer(req, res, options, session, method, pairs);
  } finally {
    leave();
  }
}

/** Answers an authenticated request by its method. */
async function answer(
  req: Request,
  res: Response,
  options: ResolvedOptions,
  session: Session,
  method: string,
  pairs: ReturnType<typeof parseQueryString>,
): Promise<void> {
  const target = parseTarget(rawPath(req));
  const contentType = req.headers['content-type'];
  const headers = headerRequest(req);

  switch (method) {
    case 'GET':
    case 'HEAD': {
      const params = classifyReadParameters(pairs, 'GET');
      checkDatabaseName(target);
      send(req, res, await runGet(session, target, params, headers));
      return;
    }
    case 'QUERY': {
      const params = classifyReadParameters(pairs, 'QUERY');
      checkDatabaseName(target);
      // the database is checked before the body is read: a refused request is not received
      if (target.db !== undefined) await requireReadableDatabase(session, target.db);
      const query = bodyText(await readBody(req, res, options.maxQueryBodySize, 'maxQueryBodySize'), contentType).replace(/\r\n?/g, '\n');
      send(req, res, await evaluateQuery(session, { ...params, db: target.db, path: target.path, query, items: headers.items }));
      return;
    }
    case 'POST': {
      checkDatabaseName(target);
      if (target.db !== undefined) await requireReadableDatabase(session, target.db);
      const post = await parsePostRequest(await readBody(req, res, options.maxQueryBodySize, 'maxQueryBodySize'));
      send(req, res, await runPost(session, target, post, headers));
      return;
    }
    case 'PUT': {
      const params = classifyWriteParameters(pairs);
      if (target.db === undefined) throw raise(HTTP_ERRORS, 'NO_DATABASE');
      const body = () => readBody(req, res, options.maxBodySize, 'maxBodySize');
      const result =
        target.path === ''
          ? await putDatabase(session, target.db, body, contentType, params.options)
          : await storeResource(session, target.db, target.path, body, contentType, params.options, headers.preconditions);
      send(req, res, result);
      return;
    }
    default: {
      classifyWriteParameters(pairs);
      if (target.db === undefined) throw raise(HTTP_ERRORS, 'NO_DATABASE');
      checkDatabaseName(target);
      send(req, res, await deleteTarget(session, target.db, target.path, headers.preconditions));
    }
  }
}

export function createRestRouter(input?: RestOptions): RestRouter {
  const options = resolveOptions(input);
  let opening: Promise<Runtime> | undefined;
  let opened: Runtime | undefined;
  // A failed start is not kept: the next request tries again (the folder may be fixed by then).
  const runtime = (): Promise<Runtime> =>
    (opening ??= openChecked(options).then(
      (rt) => (opened = rt),
      (error: unknown) => {
        opening = undefined;
        throw error;
      },
    ));

  const onError = errorHandler(options.logger);
  const userRequests = new UserRequests(options.maxUserRequests, Math.max(1, Math.floor(options.queryTimeout / 2)));
  // A plain handler rather than an Express router: it matches nothing (every method and path is
  // its own), so a router's per-request work (layers, URL parsing, `req` bookkeeping) buys
  // nothing. It serves a host's Express 4 or 5 application and a plain Node server alike, and a
  // failure of any kind reaches the one error writer.
  const handler = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void => {
    handle(req as Request, res as Response, options, () => opened ?? runtime(), userRequests).catch((error: unknown) => onError(error, req as Request, res as Response, next));
  };

  // Four parameters: Express tells error middleware by its arity.
  const hostErrors = (err: unknown, req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void => {
    const refusal = hostParserError(err);
    if (refusal === undefined) next(err);
    else onError(refusal, req as Request, res as Response, next);
  };

  let closed = false;
  const router = Object.assign(handler, {
    errorHandler: hostErrors,
    database: databasesOf(() => (closed ? Promise.reject(new Error('xmldb-rest: the router is closed.')) : runtime())),
    async ready(): Promise<void> {
      await runtime();
    },
    async close(): Promise<void> {
      closed = true;
      // A runtime that failed to open has released what it took (openChecked).
      const rt = await opening?.catch(() => undefined);
      if (rt) await closeRuntime(rt);
    },
    async health(timeoutMs = options.queryTimeout): Promise<boolean> {
      if (closed) return false;
      return runtime().then((rt) => checkHealth(rt, timeoutMs), () => false);
    },
  });
  registerInternals(router, {
    options,
    runtime,
    authenticate: async (req) => authenticate(req as Request, opened ?? (await runtime())),
  });
  return router;
}
