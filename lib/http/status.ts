/** Errors of the HTTP surface: each entry is a status and a message template (spec §12, §13). */
import { entry } from '../errors';

export const HTTP_ERRORS = {
  METHOD_NOT_SUPPORTED_X: entry(501, 'Method not supported: %.'),
  AUTH_EXPECTED: entry(401, 'Basic authentication expected.'),
  ACCESS_DENIED_X: entry(401, 'Access denied: %.'),
  /** For a header that names no user (no colon): the submitted text is never echoed. */
  ACCESS_DENIED: entry(401, 'Access denied.'),
  LOGINS_THROTTLED_X: entry(429, 'Too many failed logins; try again in % s.'),
  CROSS_SITE_X: entry(403, 'Cross-site request refused: %.'),
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
  BODY_TOO_LARGE_X: entry(413, 'Request body too large: at most % bytes are accepted.'),
  BODY_UNREADABLE_X: entry(400, 'The request body could not be read: %'),
  /** A body parser of the host application read the body and kept no exact copy (body.ts). */
  BODY_PARSED_BY_HOST_X: entry(
    415,
    'The request body was read by a body parser of the host application (%). Mount the REST router before body parsers, or keep the raw body in req.rawBody with the parser\'s verify hook.',
  ),
} as const;

export type HttpErrorKey = keyof typeof HTTP_ERRORS;
