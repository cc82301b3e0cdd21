/** xmldb-rest: an XML database behind BaseX's REST interface, as an Express router. */
export { createRestRouter, type RestRouter } from './http/router';
export type { Authenticate, Logger, RestOptions } from './router-options';
export { XmldbError } from './xmldb-error';
export { openApiDocument, type OpenApiOptions } from './openapi/document';
export { createOpsRouter, type OpsRouter, type OpsRouterOptions } from './ops-router';
export { rawBodySaver } from './http/host-parsers';
export { corsOptions, type RestCorsOptions } from './http/cors-options';
export type { CallOptions, QueryOptions, XmlDatabases } from './in-process';
export { createConsoleRouter, type ConsoleOptions, type ConsoleRouter } from './console/router';
