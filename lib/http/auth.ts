/**
 * Who a request runs as: the user the host application names (the `authenticate` option), else
 * HTTP Basic authentication (spec §13.1), else the default credentials of the options.
 */
import type { Request } from 'express';
import { raise } from '../errors';
import type { Runtime } from '../operations/runtime';
import type { User } from '../users/user-store';
import { HTTP_ERRORS } from './status';

export async function authenticate(req: Request, runtime: Runtime): Promise<User> {
  const hostUser = await runtime.options.authenticate?.(req);
  if (hostUser !== undefined && hostUser !== null) {
    // The host vouches for the name; the permissions are those of the router's user of that name.
    const user = runtime.users.get(String(hostUser));
    if (user === undefined) throw raise(HTTP_ERRORS, 'ACCESS_DENIED_X', hostUser);
    return user;
  }
  const header = req.headers.authorization;
  const { user: defaultUser, password: defaultPassword } = runtime.options;
  if (header === undefined && defaultUser !== undefined && defaultPassword !== undefined) {
    const user = await runtime.users.authenticate(defaultUser, defaultPassword);
    if (user === undefined) throw raise(HTTP_ERRORS, 'ACCESS_DENIED_X', defaultUser);
    return user;
  }
  const match = /^Basic\s+(\S*)\s*$/i.exec(header ?? '');
  if (match === null) throw raise(HTTP_ERRORS, 'AUTH_EXPECTED');
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw raise(HTTP_ERRORS, 'ACCESS_DENIED_X', decoded);
  const name = decoded.slice(0, colon);
  const user = await runtime.users.authenticate(name, decoded.slice(colon + 1));
  if (user === undefined) throw raise(HTTP_ERRORS, 'ACCESS_DENIED_X', name);
  return user;
}
