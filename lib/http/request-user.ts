/**
 * The user a request was authenticated as, for the host's access log: recorded by the router,
 * read with `requestUser(req)` once the response is finished. Kept on the request under a symbol
 * of this module (a weak map would cost every request an entry for the garbage collector to
 * trace; the request and its name go together anyway).
 */
import type { IncomingMessage } from 'node:http';

const USER = Symbol('xmldb-rest user');

type WithUser = IncomingMessage & { [USER]?: string };

export function setRequestUser(req: IncomingMessage, name: string): void {
  (req as WithUser)[USER] = name;
}

export function requestUser(req: IncomingMessage): string | undefined {
  return (req as WithUser)[USER];
}
