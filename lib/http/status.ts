/** Errors of the HTTP surface: each entry is a status and a message template (spec §12, §13). */
import { entry } from '../xmldb-error';

export const HTTP_ERRORS = {
  METHOD_NOT_SUPPORTED_X: entry(501, 'Method not supported: %.'),
  AUTH_EXPECTED: entry(401, 'Basic authentication expected.'),
  ACCESS_DENIED_X: entry(401, 'Access denied: %.'),
  /** For a header that names no user (no colon): the submitted text is never echoed. */
  ACCESS_DENIED: entry(401, 'Access denied.'),
  LOGINS_THROTTLED_X: entry(429, 'Too many failed logins; try again in % s.'),
  CROSS_SITE_X: entry(403, 'Cross-site request refused: %. A page of another origin may send it only if the router\'s trustedOrigins option lists that origin.'),
  DEFAULT_CREDENTIALS_HOST_X: entry(403, 'Default credentials are not accepted for host "%".'),
  DEFAULT_USER_PRIVILEGED_XX: entry(403, "Default credentials refused: user '%' has % permission."),
  MULTIPLE_OPS_X: entry(400, 'Multiple operations supplied: %.'),
  UNKNOWN_PARAM_X: entry(400, 'Unknown parameter: %.'),
  INVALID_PARAM_VALUE_XX: entry(400, 'Invalid value for parameter "%": %.'),
  NO_DATABASE: entry(404, 'No database specified.'),
  INVALID_URL_X: entry(400, 'Invalid URL: %.'),
  INVALID_POST_X: entry(400, 'Invalid POST command: %'),
  POST_NOT_XML_X: entry(400, 'The POST body is not well-formed XML: %'),
  POST_NO_TEXT_X: entry(400, 'No "text" element found in POST command "%".'),
  MULTIPLE_CONTEXTS: entry(400, 'Multiple contexts supplied.'),
  /** The limit, then how to raise it (body.ts BODY_LIMIT_HINTS). */
  BODY_TOO_LARGE_XX: entry(413, 'Request body too large: at most % bytes are accepted; %.'),
  /** The router's limits on the URL (options maxUrlLength, maxParameters); RFC 9110 §15.5.15. */
  URL_TOO_LONG_XX: entry(
    414,
    'URI too long: % bytes, at most % are accepted (option maxUrlLength). Send a long query or command in the body of a POST request, or a query in the body of a QUERY request.',
  ),
  TOO_MANY_PARAMETERS_XX: entry(
    414,
    'Too many query parameters: %, at most % are accepted (option maxParameters). Send the query in the body of a POST request, its variables as <variable> elements.',
  ),
  /**
   * Refused by Node's HTTP parser before the router sees the request (the standalone server's
   * client errors): the request line, or the headers, passed the server's header size limit.
   */
  REQUEST_LINE_TOO_LONG_X: entry(
    414,
    'URI too long: the request line and headers may hold at most % bytes. Send a long query or command in the body of a POST request, or a query in the body of a QUERY request.',
  ),
  HEADERS_TOO_LARGE_X: entry(431, 'Request header fields too large: the request line and headers may hold at most % bytes.'),
  MALFORMED_REQUEST_X: entry(400, 'Malformed HTTP request: %.'),
  REQUEST_TIMEOUT: entry(408, 'Request timeout: the request line and headers did not arrive in time.'),
  BODY_UNREADABLE_X: entry(400, 'The request body could not be read: %'),
  /** A body parser of the host application read the body and kept no exact copy (body.ts). */
  BODY_PARSED_BY_HOST_X: entry(
    415,
    'The request body was read by a body parser of the host application (%). Mount the REST router before body parsers, or keep the raw body with the parser\'s verify hook: express.json({ verify: rawBodySaver }), rawBodySaver exported by xmldb-rest.',
  ),
  /** A body parser of the host application refused the body (its status); router.errorHandler answers it. */
  BODY_REFUSED_BY_HOST_X: entry(400, 'The request body was refused by a body parser of the host application: %.'),
  /** A POST body that is JSON: the interface takes XML (spec §7); the message shows the format. */
  POST_JSON: entry(
    400,
    'The POST body is JSON; it must be XML: <query><text>1+1</text></query>, with optional <variable name="n" value="1"/>, <context>, <parameter name="method" value="json"/> and <option> children; or <command><text>LIST</text></command>, <commands>, <run><text>file.xq</text></run>. To send a query as plain text, use the QUERY method.',
  ),
} as const;

export type HttpErrorKey = keyof typeof HTTP_ERRORS;
