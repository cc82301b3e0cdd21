/**
 * The standalone server: settings from command-line flags and environment variables, the router
 * at `/rest` of a plain Node HTTP server, and a graceful stop on SIGTERM/SIGINT.
 *
 * No Express application is created: the router is all the server serves, and an application
 * would only add per-request work (it re-prototypes every request and response, which alone
 * costs more than a cached query). The outer Express router strips the `/rest` prefix exactly as
 * `app.use('/rest', router)` does in a host application.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import express from 'express';
import pino from 'pino';
import { logAccess } from './access-log';
import { createRestRouter, type RestRouter } from './http/router';
import { setSecurityHeaders } from './http/security-headers';
import { loggerFromLog, type Logger } from './logger';
import { serveEndpoint } from './standalone-endpoints';

export interface ServerSettings {
  port: number;
  host: string;
  dbPath: string;
  restPath: string;
  adminPassword?: string;
  /** `text`: plain lines; `json`: pino's JSON lines, with an access log record per request. */
  logFormat?: 'text' | 'json';
}

const FLAGS: Record<string, keyof ServerSettings> = {
  '--port': 'port',
  '--host': 'host',
  '--db-path': 'dbPath',
  '--restpath': 'restPath',
  '--admin-password': 'adminPassword',
  '--log-format': 'logFormat',
};

export const USAGE = `Usage: xmldb-rest [--port N] [--host H] [--db-path DIR] [--restpath DIR] [--admin-password PW] [--log-format text|json]
Environment: PORT (8080), HOST (127.0.0.1), XMLDB_PATH (./data), XMLDB_RESTPATH (./restpath), XMLDB_ADMIN_PASSWORD, XMLDB_LOG_FORMAT (text)`;

/** Flags win over environment variables, which win over the defaults. */
export function readSettings(argv: readonly string[], env: NodeJS.ProcessEnv): ServerSettings {
  const settings: ServerSettings = {
    port: env.PORT !== undefined && env.PORT !== '' ? Number(env.PORT) : 8080,
    host: env.HOST || '127.0.0.1',
    dbPath: env.XMLDB_PATH || './data',
    restPath: env.XMLDB_RESTPATH || './restpath',
    adminPassword: env.XMLDB_ADMIN_PASSWORD || undefined,
    logFormat: (env.XMLDB_LOG_FORMAT || 'text') as ServerSettings['logFormat'],
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const key = FLAGS[flag];
    if (key === undefined) throw new Error(`Unknown argument: ${argv[i]}\n${USAGE}`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`Missing value for ${flag}\n${USAGE}`);
    (settings as unknown as Record<string, string | number>)[key] = key === 'port' ? Number(value) : value;
  }
  if (!Number.isInteger(settings.port) || settings.port < 0 || settings.port > 65535) {
    throw new Error(`Invalid port: ${settings.port}`);
  }
  if (settings.logFormat !== 'text' && settings.logFormat !== 'json') throw new Error(`Invalid log format: ${String(settings.logFormat)}`);
  return settings;
}

export interface RunningServer {
  readonly server: Server;
  readonly router: RestRouter;
  readonly url: string;
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
    logger,
  });
  await router.ready();
  const mount = express.Router();
  mount.use('/rest', router);
  const accessLog = settings.logFormat === 'json';
  const server = createServer((req, res) => {
    if (accessLog) logAccess(req, res, logger);
    if (serveEndpoint(req, res, router, '/rest')) return;
    mount(req as express.Request, res as express.Response, () => notFound(req, res));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : settings.port;
  const url = `http://${settings.host}:${port}/rest`;
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      // Stop accepting, let requests in flight finish, then wait for writes in flight.
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await router.close();
      logger.info('xmldb-rest stopped');
    })());
  return { server, router, url, logger, stop };
}

/** Anything outside `/rest`. */
function notFound(req: IncomingMessage, res: ServerResponse): void {
  res.statusCode = 404;
  res.setHeader('Content-Type', 'text/plain; charset=UTF-8');
  setSecurityHeaders(res, 'text/plain');
  res.end(`No such path: ${req.method} ${(req.url ?? '/').split('?')[0]}`);
}

export async function main(argv = process.argv.slice(2), env = process.env): Promise<void> {
  let settings: ServerSettings;
  try {
    settings = readSettings(argv, env);
  } catch (e) {
    console.error((e as Error).message);
    process.exitCode = 2;
    return;
  }
  const running = await startServer(settings);
  running.logger.info(`xmldb-rest listening on ${running.url}`);
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
}
