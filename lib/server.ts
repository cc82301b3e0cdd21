/**
 * The standalone server: settings from the command line (command-line.ts), the router at `/rest`
 * of a plain Node HTTP server, an answer to every request the server's parser refuses, and a
 * graceful stop on SIGTERM/SIGINT.
 *
 * No Express application is created: the router is all the server serves, and an application
 * would only add per-request work (it re-prototypes every request and response, which alone
 * costs more than a cached query). `mountAt` strips the `/rest` prefix as `app.use('/rest',
 * router)` does in a host application.
 */
import { createServer, maxHeaderSize, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import pino from 'pino';
import { logAccess } from './access-log';
import { isLoopbackName } from './http/auth';
import { answerClientErrors } from './http/client-errors';
import { serverVersion } from './commands/defs/info';
import { parseCommandLine, usage, UsageError, type ServerSettings } from './command-line';
import { createConsoleRouter } from './console/router';
import { createRestRouter, type RestRouter } from './http/router';
import { setSecurityHeaders } from './http/security-headers';
import { loggerFromLog, type Logger } from './logger';
import { serveEndpoint } from './standalone-endpoints';

export type { ServerSettings } from './command-line';

export interface RunningServer {
  readonly server: Server;
  readonly router: RestRouter;
  readonly url: string;
  /** The web console's address, when it is served. */
  readonly consoleUrl?: string;
  readonly logger: Logger;
  stop(): Promise<void>;
}

/** The server's logger: plain lines, or pino's JSON lines (both written by `write`, one call per line). */
function serverLogger(format: 'text' | 'json', write: (line: string) => void): Logger {
  if (format === 'text') return loggerFromLog(write);
  return pino({ base: undefined }, { write: (line: string) => write(line.replace(/\n$/, '')) });
}

/** `write` receives every line the server logs (default: stdout). */
export async function startServer(settings: ServerSettings, write = (line: string) => console.log(line)): Promise<RunningServer> {
  const logger = serverLogger(settings.logFormat ?? 'text', write);
  const router = createRestRouter({
    dbPath: settings.dbPath,
    restPath: settings.restPath,
    adminPassword: settings.adminPassword,
    storeUrl: settings.storeUrl,
    queryTimeout: settings.queryTimeout,
    workers: settings.workers,
    maxBodySize: settings.maxBodySize,
    logger,
  });
  await router.ready();
  const mount = mountAt('/rest', router);
  const consoleMount = consoleEnabled(settings) ? mountAt('/console', createConsoleRouter({ rest: router })) : undefined;
  const accessLog = settings.logFormat === 'json';
  // Responses in flight: once a stop begins, their connections end when they are answered (a
  // kept-alive connection would otherwise hold the stop until its keep-alive timeout, 5 s).
  const inFlight = new Set<ServerResponse>();
  let stopping: Promise<void> | undefined;
  const server = createServer((req, res) => {
    if (stopping !== undefined) res.setHeader('Connection', 'close');
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
    if (accessLog) logAccess(req, res, logger);
    if (serveEndpoint(req, res, router, '/rest')) return;
    if (consoleMount?.(req, res)) return;
    if (!mount(req, res)) notFound(req, res);
  });
  // What the parser refuses (a request line or headers past Node's limit, bad syntax) gets a status and a text body too.
  server.on('clientError', answerClientErrors(maxHeaderSize));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : settings.port;
  const url = `http://${settings.host}:${port}/rest`;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      // Stop accepting, let requests in flight finish (closing their connections), then wait for writes in flight.
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        for (const res of inFlight) {
          if (!res.headersSent) res.setHeader('Connection', 'close');
          else res.once('finish', () => setImmediate(() => server.closeIdleConnections()));
        }
      });
      await router.close();
      logger.info('xmldb-rest stopped');
    })());
  const consoleUrl = consoleMount ? `http://${settings.host}:${port}/console/` : undefined;
  return { server, router, url, consoleUrl, logger, stop };
}

/** The console is served when asked for, and by default on a loopback host only (reachable from this machine alone). */
export function consoleEnabled(settings: Pick<ServerSettings, 'host' | 'console'>): boolean {
  return settings.console === undefined ? isLoopbackName(settings.host) : settings.console === 'on';
}

/**
 * A router below `prefix`, placed as an Express application's `use(prefix, router)` places it:
 * for a path that is the prefix (any case, as Express matches) or continues it with `/`, the
 * router sees the URL without the prefix (`/` when nothing is left but a query) and gets the
 * request; false for any other path. A request the router passes on is not found.
 */
function mountAt(prefix: string, router: (req: IncomingMessage, res: ServerResponse, next: () => void) => void): (req: IncomingMessage, res: ServerResponse) => boolean {
  const lower = prefix.toLowerCase();
  return (req, res) => {
    const url = req.url ?? '/';
    const end = url.indexOf('?');
    const path = end < 0 ? url : url.slice(0, end);
    if (path.slice(0, prefix.length).toLowerCase() !== lower || (path.length > prefix.length && path[prefix.length] !== '/')) return false;
    const rest = url.slice(prefix.length);
    // as Express keeps it: the console sends `/console` on to `/console/` by it
    (req as IncomingMessage & { originalUrl?: string }).originalUrl ??= url;
    req.url = rest.startsWith('/') ? rest : `/${rest}`;
    router(req, res, () => {
      req.url = url;
      if (res.headersSent) res.destroy();
      else notFound(req, res);
    });
    return true;
  };
}

/** Anything outside `/rest`. */
function notFound(req: IncomingMessage, res: ServerResponse): void {
  res.statusCode = 404;
  res.setHeader('Content-Type', 'text/plain; charset=UTF-8');
  setSecurityHeaders(res);
  res.end(`No such path: ${req.method} ${(req.url ?? '/').split('?')[0]}`);
}

/** Where `main` writes what is not a log line: help, version, usage errors. */
export interface Output {
  log(message: string): void;
  error(message: string): void;
}

/**
 * Runs the command line: answers the exit code when it does not serve (0 after --help or
 * --version, 2 for a usage error), undefined once the server is listening.
 */
export async function main(argv = process.argv.slice(2), env = process.env, out: Output = console): Promise<number | undefined> {
  let settings: ServerSettings;
  try {
    const command = parseCommandLine(argv, env);
    if (command.action === 'help') {
      out.log(usage());
      return 0;
    }
    if (command.action === 'version') {
      out.log(serverVersion());
      return 0;
    }
    settings = command.settings;
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    out.error(`xmldb-rest: ${e.message}\nTry 'xmldb-rest --help' for the options.`);
    return 2;
  }
  const running = await startServer(settings);
  running.logger.info(`xmldb-rest listening on ${running.url}`);
  if (running.consoleUrl) running.logger.info(`xmldb-rest console on ${running.consoleUrl}`);
  const shutdown = (): void => {
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    running.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  return undefined;
}
