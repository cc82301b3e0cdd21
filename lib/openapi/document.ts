/**
 * The OpenAPI 3.2 description of the interface: every operation, parameter, header, status and
 * body type, for hosts to serve (`openApiDocument()`, `createOpsRouter`) or render with a UI of
 * their choice. Paths are relative to the mount point (`servers[0].url`, default `/rest`).
 * OpenAPI 3.2 describes the QUERY method as the `query` operation of a path item.
 */
import { serverVersion } from '../commands/defs/info';
import { ALLOWED_METHODS } from '../http/options-method';
import { METHODS as OUTPUT_METHODS } from '../xquery/serialization/params';

type Json = Record<string, unknown>;

const ref = (kind: string, name: string): Json => ({ $ref: `#/components/${kind}/${name}` });

const TEXT = { 'text/plain': { schema: { type: 'string' } } };
const ANY = { '*/*': { schema: {} } };

/** An XML attribute of an element described as an object (OpenAPI 3.2 XML object, `nodeType`). */
const attribute = (description: string): Json => ({ type: 'string', description, xml: { nodeType: 'attribute' } });

/** `<NAME name="..." value="..."/>` children of a POST body. */
const nameValue = (element: string, description: string, extra: Json = {}): Json => ({
  type: 'object',
  description,
  xml: { name: element },
  required: ['name', 'value'],
  properties: { name: attribute('The name.'), value: attribute('The value.'), ...extra },
});

/** `<NAME><text>...</text></NAME>`: a POST body whose one child is its text. */
const textElement = (element: string, description: string, text: string): Json => ({
  type: 'object',
  description,
  xml: { name: element },
  required: ['text'],
  properties: { text: { type: 'string', description: text } },
});

/** The POST body: one element, `query`, `command`, `run` or `commands`, in the namespace `http://basex.org/rest` or none. */
const POST_SCHEMAS: Json = {
  PostQuery: {
    type: 'object',
    description: 'Evaluates the XQuery in `text`.',
    xml: { name: 'query' },
    required: ['text'],
    properties: {
      text: { type: 'string', description: 'The XQuery.' },
      variable: {
        type: 'array',
        description: 'External variables of the query.',
        items: nameValue('variable', 'An external variable; `name` with or without `$`; repeated names make a sequence.', {
          type: attribute('Optional type to cast the value to (e.g. `xs:integer`); default: the declared type of the variable.'),
        }),
      },
      context: { description: 'The context item: one XML element (a document), or text.', xml: { name: 'context' } },
      parameter: { type: 'array', description: 'Serialization parameters.', items: nameValue('parameter', 'A serialization parameter (`method`, `indent`, ...).') },
      option: { type: 'array', description: 'Database options.', items: nameValue('option', 'A database option (`stripws`, ...).') },
    },
  },
  PostCommand: textElement('command', 'Runs one database command.', 'The command, e.g. `LIST`.'),
  PostRun: textElement('run', 'Runs a `.xq` or `.bxs` file of the server-side folder.', 'The file name.'),
  PostCommands: {
    type: 'object',
    description: 'A command script in XML syntax: one child element per command (`<create-db name="db"/>`, `<xquery>1</xquery>`, ...).',
    xml: { name: 'commands' },
  },
};

const XML_BODY = {
  'application/xml': {
    schema: { oneOf: ['PostQuery', 'PostCommand', 'PostRun', 'PostCommands'].map((name) => ref('schemas', name)) },
    example: '<query><text>declare variable $n external; $n * 2</text><variable name="n" value="21" type="xs:integer"/></query>',
  },
};

/** PUT bodies by Content-Type: XML as it is, JSON, CSV and HTML converted to XML, anything else stored as bytes. */
const PUT_CONTENT = {
  'application/xml': { schema: { type: 'string', description: 'An XML document (also `text/xml`, `*/*+xml`).' } },
  'application/json': { schema: { description: 'Any JSON value, stored as its XML form (`<json type="object">...`; also `*/*+json`).' } },
  'text/csv': { schema: { type: 'string', description: 'CSV, stored as XML (`<csv><record><entry>...`); Content-Type parameters such as `header=yes`, `separator=;` configure it.' } },
  'text/html': { schema: { type: 'string', description: 'HTML, parsed leniently and stored as XML.' } },
  '*/*': { schema: { description: 'Any other type (text/plain included): stored as raw bytes, served back with its Content-Type.' } },
};

/** Error answers: BaseX's text body, or problem details when Accept prefers them. */
const ERROR_CONTENT = { ...TEXT, 'application/problem+json': { schema: ref('schemas', 'Problem') } };

function error(description: string, headers?: Json): Json {
  return { description, content: ERROR_CONTENT, ...(headers ? { headers } : {}) };
}

const RESPONSES: Json = {
  BadRequest: error('Invalid parameters or body (e.g. `Unknown parameter: x.`, a POST body that is not XML).'),
  Unauthorized: error('No or wrong credentials, or a user the host names that does not exist.', {
    'WWW-Authenticate': { schema: { type: 'string' }, description: '`Basic realm="BaseX"`' },
  }),
  Forbidden: error('The user lacks the permission the operation needs; or a browser sent a request that changes state or runs code (query, command, run) for a page of another site (`Sec-Fetch-Site`, `Origin`; see `trustedOrigins`), or default credentials came with a `Host` that is not loopback or in `allowedHosts`.'),
  TooManyRequests: error('Too many failed logins from this client or for this user name; nothing was checked.', {
    'Retry-After': { schema: { type: 'string' }, description: 'Seconds until logins are checked again.' },
  }),
  NotFound: error('No such database, resource or `run` file.'),
  PreconditionFailed: error('`If-Match` or `If-None-Match` does not hold; nothing was changed.'),
  PayloadTooLarge: error('The request body is larger than `maxBodySize` (PUT) or `maxQueryBodySize` (POST, QUERY).'),
  UnsupportedMediaType: error('A body parser of the host application turned the body into an object; mount the router before body parsers, or keep the bytes with `verify: rawBodySaver`.'),
  Unavailable: error('Busy: the query queue is full, a query waited too long for a worker, or the databases stayed locked longer than twice `queryTimeout`.', {
    'Retry-After': { schema: { type: 'string' }, description: 'Seconds to wait before trying again (query queue).' },
  }),
  RangeNotSatisfiable: error('The range starts past the end.', { 'Content-Range': ref('headers', 'Content-Range') }),
  QueryError: error('A query error (`Stopped at ., L/C:` then `[CODE] message`), or an internal error.'),
};

const HEADERS: Json = {
  ETag: { description: 'Strong entity tag of the stored resource; changes on every write of it.', schema: { type: 'string' } },
  'Last-Modified': { description: 'Time of the last write of the resource.', schema: { type: 'string' } },
  'Accept-Ranges': { description: '`bytes` on raw resources.', schema: { type: 'string', enum: ['bytes'] } },
  'Content-Range': {
    description: '`bytes START-END/LENGTH`, `items START-END/TOTAL`, or `UNIT */LENGTH` with a 416.',
    schema: { type: 'string' },
  },
  Allow: { description: `\`${ALLOWED_METHODS.join(', ')}\``, schema: { type: 'string' } },
  'Server-Timing': {
    description: 'Where a query\'s time went, in milliseconds: `parse;dur=…, compile;dur=…, evaluate;dur=…, serialize;dur=…, total;dur=…` (W3C Server Timing).',
    schema: { type: 'string' },
  },
};

const header = (name: string, description: string): Json => ({ name, in: 'header', required: false, description, schema: { type: 'string' } });

const PARAMETERS: Json = {
  db: { name: 'db', in: 'path', required: true, description: 'Database name.', schema: { type: 'string' } },
  path: {
    name: 'path',
    in: 'path',
    required: true,
    description: 'Path of a resource or directory in the database; may contain `/`.',
    schema: { type: 'string' },
  },
  query: { name: 'query', in: 'query', description: 'XQuery to evaluate (GET only).', schema: { type: 'string' } },
  command: { name: 'command', in: 'query', description: 'A database command to run (GET only).', schema: { type: 'string' } },
  run: { name: 'run', in: 'query', description: 'A server-side `.xq` or `.bxs` file to run (GET only).', schema: { type: 'string' } },
  context: { name: 'context', in: 'query', description: 'An XML document as the query context.', schema: { type: 'string' } },
  method: { name: 'method', in: 'query', description: 'Serialization method.', schema: { type: 'string', enum: [...OUTPUT_METHODS] } },
  indent: { name: 'indent', in: 'query', description: 'Indent the result (`yes`/`no`).', schema: { type: 'string' } },
  'item-separator': { name: 'item-separator', in: 'query', description: 'String between the items of the result.', schema: { type: 'string' } },
  'media-type': { name: 'media-type', in: 'query', description: 'Content-Type of the result.', schema: { type: 'string' } },
  encoding: { name: 'encoding', in: 'query', description: 'Character encoding of the result.', schema: { type: 'string' } },
  others: {
    name: 'others',
    in: 'query',
    description: 'Any other serialization parameter, database option (case-insensitive) or external variable (`$name` or `name`).',
    style: 'form',
    explode: true,
    schema: { type: 'object', additionalProperties: { type: 'string' } },
  },
  options: {
    name: 'options',
    in: 'query',
    description: 'Database options (case-insensitive), e.g. `stripws=true`, `replace=false`; nothing else is accepted.',
    style: 'form',
    explode: true,
    schema: { type: 'object', additionalProperties: { type: 'string' } },
  },
  Range: header('Range', '`bytes=START-END` (also `START-`, `-LENGTH`) on raw resources; `items=START-END` (0-based, inclusive) on query results.'),
  'If-None-Match': header('If-None-Match', 'GET: 304 when the resource still has one of these tags. PUT: `*` stores only if no resource exists (412 otherwise).'),
  'If-Modified-Since': header('If-Modified-Since', 'GET: 304 when the resource was not written since (ignored with If-None-Match).'),
  'If-Match': header('If-Match', 'PUT, DELETE: 412 and no change unless the resource has one of these tags (`*`: exists).'),
  'If-Range': header('If-Range', 'GET with Range: the range applies only to this version (tag or date); otherwise the whole resource.'),
  Accept: header('Accept', '`application/problem+json` first: errors as RFC 9457 problem details.'),
};

const READ_PARAMETERS = ['query', 'command', 'run', 'context', 'method', 'indent', 'item-separator', 'media-type', 'encoding', 'others'].map((p) =>
  ref('parameters', p),
);
const QUERY_PARAMETERS = ['context', 'method', 'indent', 'item-separator', 'media-type', 'encoding', 'others'].map((p) => ref('parameters', p));
const COMMON_HEADERS = [ref('parameters', 'Accept')];

const resultContent = (description: string): Json => ({ description, content: ANY });

const paged = (description: string): Json => ({
  description,
  headers: { 'Content-Range': ref('headers', 'Content-Range'), 'Server-Timing': ref('headers', 'Server-Timing') },
  content: ANY,
});

function errorsOf(...pairs: Array<[string, string]>): Json {
  return Object.fromEntries(pairs.map(([status, name]) => [status, ref('responses', name)]));
}

const AUTH_ERRORS: Array<[string, string]> = [
  ['400', 'BadRequest'],
  ['401', 'Unauthorized'],
  ['403', 'Forbidden'],
  ['404', 'NotFound'],
  ['429', 'TooManyRequests'],
  ['500', 'QueryError'],
  ['503', 'Unavailable'],
];

const OPTIONS_OPERATION = (id: string): Json => ({
  operationId: id,
  summary: 'The methods of the interface (no authentication: CORS preflights carry no credentials).',
  security: [],
  responses: { '204': { description: 'No content.', headers: { Allow: ref('headers', 'Allow') } } },
});

/** GET/HEAD/POST/QUERY at a location: `where` names it in summaries, `id` prefixes operation ids. */
function readOperations(id: string, where: string, pathParameters: Json[], getSummary: string, getResponses: Json): Json {
  const queryBody = {
    required: true,
    content: { 'text/plain': { schema: { type: 'string', description: 'The XQuery.' } } },
  };
  const postBody = {
    required: true,
    description: 'A `<query>`, `<command>`, `<run>` or `<commands>` element: `<query><text>1+1</text></query>`.',
    content: XML_BODY,
  };
  const queryResponses = {
    '200': { ...resultContent('The serialized result.'), headers: { 'Server-Timing': ref('headers', 'Server-Timing') } },
    '206': paged('The items of `Range: items=START-END`; `Content-Range: items START-END/TOTAL`.'),
    '416': ref('responses', 'RangeNotSatisfiable'),
    ...errorsOf(...AUTH_ERRORS, ['413', 'PayloadTooLarge'], ['415', 'UnsupportedMediaType']),
  };
  const get = {
    summary: getSummary,
    parameters: [...pathParameters, ...READ_PARAMETERS, ...COMMON_HEADERS, ref('parameters', 'Range'), ref('parameters', 'If-None-Match'), ref('parameters', 'If-Modified-Since'), ref('parameters', 'If-Range')],
    responses: getResponses,
  };
  return {
    get: { operationId: `${id}Get`, ...get },
    head: { operationId: `${id}Head`, ...get, summary: `${getSummary} Headers only, as GET answers them.` },
    post: {
      operationId: `${id}Post`,
      summary: `Run a query, command, server-side file or command script ${where}.`,
      parameters: [...pathParameters, ...COMMON_HEADERS, ref('parameters', 'Range')],
      requestBody: postBody,
      responses: queryResponses,
    },
    query: {
      operationId: `${id}Query`,
      summary: `The QUERY method: evaluate the XQuery of the body ${where}.`,
      parameters: [...pathParameters, ...QUERY_PARAMETERS, ...COMMON_HEADERS, ref('parameters', 'Range')],
      requestBody: queryBody,
      responses: queryResponses,
    },
    options: OPTIONS_OPERATION(`${id}Options`),
  };
}

const GET_RESPONSES = {
  '200': resultContent('A listing (application/xml) or the result of `query`, `command` or `run`.'),
  '206': paged('A page of a query result (`Range: items=...`).'),
  '416': ref('responses', 'RangeNotSatisfiable'),
  ...errorsOf(...AUTH_ERRORS),
};

const RESOURCE_GET_RESPONSES = {
  '200': {
    description: 'The stored resource, or the listing of a directory, or the result of an operation.',
    headers: { ETag: ref('headers', 'ETag'), 'Last-Modified': ref('headers', 'Last-Modified'), 'Accept-Ranges': ref('headers', 'Accept-Ranges') },
    content: ANY,
  },
  '206': {
    description: 'A byte range of a raw resource, or a page of a query result.',
    headers: { 'Content-Range': ref('headers', 'Content-Range'), ETag: ref('headers', 'ETag') },
    content: ANY,
  },
  '304': { description: 'Not modified (If-None-Match, If-Modified-Since).', headers: { ETag: ref('headers', 'ETag'), 'Last-Modified': ref('headers', 'Last-Modified') } },
  '416': ref('responses', 'RangeNotSatisfiable'),
  ...errorsOf(...AUTH_ERRORS),
};

const created = (description: string, etag = false): Json => ({
  description,
  content: TEXT,
  ...(etag ? { headers: { ETag: ref('headers', 'ETag') } } : {}),
});

const putBody = {
  description: 'The resource, by its Content-Type: XML, JSON, CSV and HTML are stored as XML, anything else as raw bytes.',
  content: PUT_CONTENT,
};

export interface OpenApiOptions {
  /** Where the router is mounted (`servers[0].url`). Default `/rest`. */
  readonly serverUrl?: string;
}

/** The OpenAPI 3.2 document of the interface, as a plain JSON value; its version is the package's. */
export function openApiDocument(options: OpenApiOptions = {}): Json {
  const db = ref('parameters', 'db');
  const path = ref('parameters', 'path');
  return {
    openapi: '3.2.0',
    info: {
      title: 'xmldb-rest',
      version: serverVersion(),
      description:
        "BaseX's REST interface: databases of XML and raw resources, XQuery 3.1 with XQuery Update, the command language, users and permissions.",
    },
    servers: [{ url: options.serverUrl ?? '/rest' }],
    security: [{ basic: [] }],
    paths: {
      '/': readOperations('root', 'without a database', [], 'List the databases, or run `query`, `command` or `run`.', GET_RESPONSES),
      '/{db}': {
        ...readOperations('database', 'with the database as context', [db], 'List the resources of the database, or run an operation on it.', GET_RESPONSES),
        put: {
          operationId: 'databaseCreate',
          summary: 'Create (or replace) the database, optionally with one initial document.',
          parameters: [db, ref('parameters', 'options'), ...COMMON_HEADERS],
          requestBody: { ...putBody, required: false },
          responses: { '201': created('`Database \'NAME\' created in N ms.`'), ...errorsOf(...AUTH_ERRORS, ['413', 'PayloadTooLarge'], ['415', 'UnsupportedMediaType']) },
        },
        delete: {
          operationId: 'databaseDrop',
          summary: 'Drop the database.',
          parameters: [db, ref('parameters', 'options'), ...COMMON_HEADERS],
          responses: { '200': created('`Database \'NAME\' was dropped.`'), ...errorsOf(...AUTH_ERRORS) },
        },
      },
      '/{db}/{path}': {
        ...readOperations('resource', 'with the resources at the path as context', [db, path], 'Retrieve the resource (with validators and byte ranges) or list the directory, or run an operation.', RESOURCE_GET_RESPONSES),
        put: {
          operationId: 'resourceStore',
          summary: 'Store a resource (replacing one at the path unless `replace=false` or `If-None-Match: *`).',
          parameters: [db, path, ref('parameters', 'options'), ref('parameters', 'If-Match'), ref('parameters', 'If-None-Match'), ...COMMON_HEADERS],
          requestBody: { ...putBody, required: true },
          responses: {
            '201': created('`Resource(s) added in N ms.`, with the new version\'s ETag.', true),
            '412': ref('responses', 'PreconditionFailed'),
            ...errorsOf(...AUTH_ERRORS, ['413', 'PayloadTooLarge'], ['415', 'UnsupportedMediaType']),
          },
        },
        delete: {
          operationId: 'resourceDelete',
          summary: 'Delete the resource at the path and every resource below it.',
          parameters: [db, path, ref('parameters', 'options'), ref('parameters', 'If-Match'), ...COMMON_HEADERS],
          responses: {
            '200': created('`N resource(s) deleted in N ms.`'),
            '412': ref('responses', 'PreconditionFailed'),
            ...errorsOf(...AUTH_ERRORS),
          },
        },
      },
    },
    components: {
      securitySchemes: { basic: { type: 'http', scheme: 'basic', description: 'HTTP Basic, or a user the host application authenticates.' } },
      parameters: PARAMETERS,
      headers: HEADERS,
      responses: RESPONSES,
      schemas: {
        ...POST_SCHEMAS,
        Problem: {
          type: 'object',
          description: 'RFC 9457 problem details.',
          required: ['type', 'title', 'status', 'detail'],
          properties: {
            type: { type: 'string', description: '`about:blank`: the status tells the kind of problem.' },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string', description: 'The text body BaseX clients get (`[CODE] message` for query errors).' },
            code: { type: 'string', description: 'Query errors: the error code, e.g. `XPST0003`.' },
            line: { type: 'integer', description: 'Query errors: line in the query, when known.' },
            column: { type: 'integer', description: 'Query errors: column in the query, when known.' },
          },
        },
      },
    },
  };
}
