/**
 * The user a request was authenticated as, for the host's access log: recorded by the router,
 * read with `requestUser(req)` once the response is finished.
 */
import type { IncomingMessage } from 'node:http';

const users = new WeakMap<IncomingMessage, string>();

export function setRequestUser(req: IncomingMessage, name: string): void {
  users.set(req, name);
}

export function requestUser(req: IncomingMessage): string | undefined {
  return users.get(req);
}
