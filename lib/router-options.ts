/** Options of `createRestRouter`: defaults, validation (all problems reported together), freezing. */
import type { IncomingMessage } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { defaultLogger, loggerFromLog, isLogger, type Logger } from './logger';
import { DEFAULT_DOC_CACHE_BYTES } from './store/cache/doc-cache';
import { MAX_DATA_FOLDER_BYTES } from './store/path-limits';

export type { Logger } from './logger';

/**
 * Names the user a host application has already authenticated for this request (from its
 * session, `req.user`, a token...); undefined leaves the request to HTTP Basic authentication.
 * The request is the host's (an Express request, or a plain Node one on `http.createServer`).
 * It is typed with Node's `http` types, so the package's types need no Express typings; a host may
 * declare its own request type for the parameter (`(req: express.Request) => ...`), which the
 * method form below allows.
 */
export type Authenticate = {
  authenticate(req: IncomingMessage): string | undefined | Promise<string | undefined>;
}['authenticate'];

/**
 * Every option may also be given as `undefined` (the default applies), so that hosts compiled
 * with `exactOptionalPropertyTypes` can pass `{ dbPath: process.env.XMLDB_PATH }`.
 */
export interface RestOptions {
  /**
   * Folder of the databases and `users.json`. Default `./data`. Its absolute path may have at
   * most 2560 bytes, so that the longest resource path fits the file system's path limit.
   */
  dbPath?: string | undefined;
  /** Folder of server-side `.xq`/`.bxs` files for `run`. Default `./restpath`. */
  restPath?: string | undefined;
  /**
   * Default credentials: requests without an `Authorization` header run as this user. Such
   * requests are accepted only with a loopback `Host` (or one of `allowedHosts`).
   */
  user?: string | undefined;
  password?: string | undefined;
  /**
   * Let the default user hold the create or admin permission. Without it, a default user `admin`
   * is a TypeError here, and a default user with create/admin permission fails `ready()` with a
   * TypeError. Default false.
   */
  allowPrivilegedDefaultUser?: boolean | undefined;
  /**
   * Host names (without port) besides the loopback names (`localhost`, `*.localhost`,
   * `127.0.0.1`, `[::1]`) under which requests may use the default credentials.
   */
  allowedHosts?: string[] | undefined;
  /**
   * Origins (`https://app.example.com`) whose pages may send requests that change state or run
   * code (queries, commands, `run`) with their `Origin`, besides the router's own origin (for
   * hosts that serve their user interface elsewhere and add CORS).
   */
  trustedOrigins?: string[] | undefined;
  /**
   * Password of the `admin` user created on a data folder without users. Absent: the environment
   * variable `XMLDB_ADMIN_PASSWORD`, else a random one written to `admin-password.txt` in the
   * data folder (removed once admin's password is changed).
   */
  adminPassword?: string | undefined;
  /**
   * A PostgreSQL URL (`postgres://user:password@host:port/database`, TLS parameters as the `pg`
   * driver takes them). Databases, resources, options, backups and users are then kept there,
   * shared by every server given the same URL, and `dbPath` holds caches only. Default: none
   * (everything in `dbPath`).
   */
  storeUrl?: string | undefined;
  /** Largest accepted PUT body, in bytes. Default 64 MiB. */
  maxBodySize?: number | undefined;
  /** Largest accepted POST or QUERY body (a query, command or script), in bytes. Default 1 MiB. */
  maxQueryBodySize?: number | undefined;
  /**
   * Longest accepted URL below the mount point (path and query string), in bytes; a longer one
   * is answered 414. Default 16 KiB, Node's default header size limit, which a host's server may
   * raise. A long query goes in the body of a POST or QUERY request instead.
   */
  maxUrlLength?: number | undefined;
  /** Most accepted query string parameters; more are answered 414, none is dropped. Default 1000. */
  maxParameters?: number | undefined;
  /**
   * Bytes of source XML whose parsed documents are kept in memory by all query workers together
   * (one least-recently-used budget, xquery/host/document-budget.ts). Default 16 MiB.
   */
  documentCacheSize?: number | undefined;
  /** Compiled queries kept for reuse. Default 500. */
  compiledQueryCacheSize?: number | undefined;
  /**
   * Milliseconds a query may run before it is stopped (twice this bounds waits for database locks).
   * Default 30,000; at most 1,000,000,000 (about 11.5 days).
   */
  queryTimeout?: number | undefined;
  /**
   * Worker threads that evaluate queries, all in one child process of the server (the query host,
   * xquery/engine/query-host.ts). Default: the number of cores.
   */
  workers?: number | undefined;
  /**
   * Queries that may wait for a worker; one more is refused with 503 and `Retry-After`, and so is
   * one that waited half the `queryTimeout` without getting a worker. Default 16 per worker, at least 32.
   */
  maxQueuedQueries?: number | undefined;
  /**
   * Requests of one user in progress at once; more wait their turn (holding no connection, worker
   * or queue place), up to half the `queryTimeout`, then 503 with `Retry-After`. Default 8.
   */
  maxUserRequests?: number | undefined;
  /**
   * Heap of each query worker, and of the query host process's own heap, in bytes (a query that
   * needs more fails alone). Default 1 GiB.
   */
  workerMemory?: number | undefined;
  /** Largest query result, in bytes; a larger one is an error. Default 64 MiB. */
  maxResultBytes?: number | undefined;
  /**
   * Let queries read the host's files and the network (admin decision). The query host process is
   * then allowed to read every file (xquery/engine/host-flags.ts). Default false.
   */
  allowFileAccess?: boolean | undefined;
  /**
   * Run this router's queries in a query host process of its own. Default false: the routers of
   * one process with equal query settings (`workers`, `queryTimeout`, `compiledQueryCacheSize`,
   * `documentCacheSize`, `maxQueuedQueries`, `workerMemory`, `maxResultBytes`,
   * `allowFileAccess`) and the same `logger` share one host, its workers, its queue and its
   * parsed-document budget (xquery/engine/shared-hosts.ts); a host that ends fails the running
   * queries of all of them.
   */
  ownQueryHost?: boolean | undefined;
  /**
   * Where the router's messages go: a pino-compatible logger (`info`, `warn`, `error`, `debug`,
   * each `(obj?, msg)`). The router never writes to stdout or stderr itself, nor a password.
   * Default: warnings and errors to stderr, nothing else.
   */
  logger?: Logger | undefined;
  /** The user of a request authenticated by the host application (see `Authenticate`). */
  authenticate?: Authenticate | undefined;
  /** @deprecated Use `logger`. A function taking each message as one line. */
  log?: ((message: string) => void) | undefined;
}

type Optional = 'user' | 'password' | 'adminPassword' | 'authenticate' | 'storeUrl';

export type ResolvedOptions = Readonly<Required<Omit<RestOptions, Optional | 'log' | 'allowedHosts' | 'trustedOrigins'>>> &
  Readonly<Pick<RestOptions, Optional>> & {
    /** Lower-case host names. */
    readonly allowedHosts: ReadonlySet<string>;
    /** Serialized origins (`scheme://host[:port]`, as browsers send them). */
    readonly trustedOrigins: ReadonlySet<string>;
  };

const MiB = 1024 * 1024;

/** Node's default `maxHeaderSize`: a default host's server refuses longer request lines itself. */
const DEFAULT_MAX_URL_LENGTH = 16 * 1024;

/**
 * The largest `queryTimeout`. Node's timers hold at most 2^31 - 1 ms and fire after 1 ms when
 * given more (TimeoutOverflowWarning); lock waits last twice `queryTimeout`, so a larger value
 * would fail every query and lock wait at once instead of allowing them longer.
 */
export const MAX_QUERY_TIMEOUT_MS = 1_000_000_000;

function positiveInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

const KNOWN = new Set([
  'dbPath', 'restPath', 'user', 'password', 'adminPassword', 'maxBodySize', 'maxQueryBodySize', 'maxUrlLength', 'maxParameters', 'documentCacheSize',
  'compiledQueryCacheSize', 'queryTimeout', 'workers', 'maxQueuedQueries', 'maxUserRequests', 'workerMemory', 'maxResultBytes',
  'allowFileAccess', 'ownQueryHost', 'logger', 'authenticate', 'log', 'allowPrivilegedDefaultUser', 'allowedHosts', 'trustedOrigins',
  'storeUrl',
]);

/** `https://App.example:443/` → `https://app.example`; undefined for anything but an http(s) origin. */
function serializedOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

function isPostgresUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function stringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string' && v !== '');
}

/** `XMLDB_ADMIN_PASSWORD`, as the standalone server reads it; an empty value is none. */
function environmentAdminPassword(): string | undefined {
  const value = process.env.XMLDB_ADMIN_PASSWORD;
  return value === undefined || value === '' ? undefined : value;
}

/** Checks and completes router options; throws one TypeError naming every problem. */
export function resolveOptions(input: RestOptions = {}): ResolvedOptions {
  const problems: string[] = [];
  if (typeof input !== 'object' || input === null) throw new TypeError('xmldb-rest: options must be an object.');
  for (const key of Object.keys(input)) if (!KNOWN.has(key)) problems.push(`unknown option "${key}"`);
  const str = (key: keyof RestOptions): void => {
    const v = input[key];
    if (v !== undefined && (typeof v !== 'string' || v === '')) problems.push(`"${key}" must be a non-empty string`);
  };
  const int = (key: keyof RestOptions): void => {
    const v = input[key];
    if (v !== undefined && !positiveInteger(v)) problems.push(`"${key}" must be a positive integer`);
  };
  (['dbPath', 'restPath', 'user', 'password', 'adminPassword'] as const).forEach(str);
  (
    [
      'maxBodySize', 'maxQueryBodySize', 'maxUrlLength', 'maxParameters', 'documentCacheSize', 'compiledQueryCacheSize', 'queryTimeout', 'workers',
      'maxQueuedQueries', 'maxUserRequests', 'workerMemory', 'maxResultBytes',
    ] as const
  ).forEach(int);
  const dbPath = path.resolve(typeof input.dbPath === 'string' && input.dbPath !== '' ? input.dbPath : './data');
  if (Buffer.byteLength(dbPath, 'utf8') > MAX_DATA_FOLDER_BYTES) {
    problems.push(`"dbPath" must be at most ${MAX_DATA_FOLDER_BYTES} bytes long as an absolute path, for the longest resource path to fit the file system`);
  }
  if (positiveInteger(input.workerMemory) && (input.workerMemory as number) < 64 * MiB) problems.push('"workerMemory" must be at least 64 MiB');
  if (positiveInteger(input.queryTimeout) && (input.queryTimeout as number) > MAX_QUERY_TIMEOUT_MS) {
    problems.push(`"queryTimeout" must be at most ${MAX_QUERY_TIMEOUT_MS} (milliseconds)`);
  }
  if ((input.user === undefined) !== (input.password === undefined)) {
    problems.push('"user" and "password" must be given together');
  }
  for (const key of ['allowFileAccess', 'ownQueryHost', 'allowPrivilegedDefaultUser'] as const) {
    if (input[key] !== undefined && typeof input[key] !== 'boolean') problems.push(`"${key}" must be a boolean`);
  }
  if (input.allowedHosts !== undefined && !stringList(input.allowedHosts)) {
    problems.push('"allowedHosts" must be an array of host names');
  }
  if (input.trustedOrigins !== undefined) {
    if (!stringList(input.trustedOrigins)) problems.push('"trustedOrigins" must be an array of origins');
    else for (const o of input.trustedOrigins) if (serializedOrigin(o) === undefined) problems.push(`"${o}" is not an http(s) origin`);
  }
  if (input.user === 'admin' && input.allowPrivilegedDefaultUser !== true) {
    problems.push('the default user "admin" has admin permission; set "allowPrivilegedDefaultUser" to allow it');
  }
  if (input.storeUrl !== undefined && !isPostgresUrl(input.storeUrl)) {
    problems.push('"storeUrl" must be a postgres:// or postgresql:// URL');
  }
  if (input.log !== undefined && typeof input.log !== 'function') problems.push('"log" must be a function');
  if (input.logger !== undefined && !isLogger(input.logger)) {
    problems.push('"logger" must have the functions info, warn, error and debug');
  }
  if (input.authenticate !== undefined && typeof input.authenticate !== 'function') {
    problems.push('"authenticate" must be a function');
  }
  if (problems.length > 0) throw new TypeError(`xmldb-rest: invalid options: ${problems.join('; ')}.`);

  const workers = input.workers ?? Math.max(1, os.availableParallelism());
  return Object.freeze({
    dbPath,
    restPath: path.resolve(input.restPath ?? './restpath'),
    user: input.user,
    password: input.password,
    adminPassword: input.adminPassword ?? environmentAdminPassword(),
    storeUrl: input.storeUrl,
    maxBodySize: input.maxBodySize ?? 64 * MiB,
    maxQueryBodySize: input.maxQueryBodySize ?? MiB,
    maxUrlLength: input.maxUrlLength ?? DEFAULT_MAX_URL_LENGTH,
    maxParameters: input.maxParameters ?? 1000,
    documentCacheSize: input.documentCacheSize ?? DEFAULT_DOC_CACHE_BYTES,
    compiledQueryCacheSize: input.compiledQueryCacheSize ?? 500,
    queryTimeout: input.queryTimeout ?? 30_000,
    workers,
    maxQueuedQueries: input.maxQueuedQueries ?? Math.max(32, 16 * workers),
    // below the PostgreSQL store's 10 pooled connections: others keep two
    maxUserRequests: input.maxUserRequests ?? 8,
    // 1 GiB rather than 2: V8 lets a heap grow before a full collection by a factor it takes
    // from the heap's cap, from 1.3 at 256 MiB to 2.0 just under 2 GiB, and 4.0 from 2 GiB up
    // (v8 src/heap/heap-controller.cc, MaxGrowingFactor): at 1 GiB a worker holding 130 MB of
    // parsed documents collects at about 210 MB instead of letting garbage pile up to 500 MB.
    workerMemory: input.workerMemory ?? 1024 * MiB,
    maxResultBytes: input.maxResultBytes ?? 64 * MiB,
    allowFileAccess: input.allowFileAccess ?? false,
    ownQueryHost: input.ownQueryHost ?? false,
    allowPrivilegedDefaultUser: input.allowPrivilegedDefaultUser ?? false,
    allowedHosts: new Set((input.allowedHosts ?? []).map((h) => h.toLowerCase())),
    trustedOrigins: new Set((input.trustedOrigins ?? []).map((o) => serializedOrigin(o)!)),
    logger: input.logger ?? (input.log ? loggerFromLog(input.log) : defaultLogger),
    authenticate: input.authenticate,
  });
}
