/**
 * `/healthz` and `/openapi.json` for a host application, as the standalone server answers them:
 * a request handler to mount beside the REST router (`app.use(createOpsRouter(rest))`), which
 * answers GET and HEAD of those two paths without authentication and hands everything else on.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RestRouter } from './http/router';
import { serveEndpoint } from './standalone-endpoints';

export interface OpsRouterOptions {
  /** Where the host mounted the REST router: the server URL of the OpenAPI description. Default `/rest`. */
  readonly restUrl?: string;
}

/** The handler's type needs no Express typings, like `RestRouter`. */
export type OpsRouter = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

export function createOpsRouter(rest: RestRouter, options: OpsRouterOptions = {}): OpsRouter {
  const restUrl = options.restUrl ?? '/rest';
  return (req, res, next) => {
    if (!serveEndpoint(req, res, rest, restUrl)) next();
  };
}
