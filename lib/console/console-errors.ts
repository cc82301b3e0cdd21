/** Errors of the console's own routes (console/router.ts). */
import { entry } from '../xmldb-error';

export const CONSOLE_ERRORS = {
  BODY_NOT_QUERY: entry(400, 'The body must be JSON: {"query": "..."}.'),
  BAD_QUERY_NAME: entry(400, 'A saved query needs a name of 1 to 100 characters, without / or \\.'),
  NO_SAVED_QUERY_X: entry(404, "No saved query named '%'."),
  NO_ROUTE_X: entry(404, 'No such console route: %.'),
  CROSS_SITE_X: entry(403, "Cross-site request refused: % of the console's own routes."),
} as const;
