/**
 * Who a request runs as: the user the host application names (the `authenticate` option), else
 * HTTP Basic authentication (spec §13.1), else the default credentials of the options. Those
 * follow rules of ours: they are accepted only for requests sent to a loopback host name or one
 * the host lists (a page on another name that resolves to this server, DNS rebinding, gets
 * nothing), and only for a user without create or admin permission unless the host allowed that.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Request } from 'express';
import { raise, withHeaders } from '../xmldb-error';
import type { ResolvedOptions } from '../router-options';
import type { Runtime } from '../operations/composition-root';
import type { Permission } from '../users/permissions';
import type { User, UserStore } from '../users/user-store';
import { clientAddress, hostName, requestHost } from './request-origin';
import { HTTP_ERRORS } from './status';

const PRIVILEGED: ReadonlySet<Permission> = new Set(['create', 'admin']);

/** Whether a host name or address names this machine only (`localhost`, `*.localhost`, `127.x.y.z`, `::1`). */
export function isLoopbackName(name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost') || name === '::1' || /^127(\.\d{1,3}){3}$/.test(name);
}

/**
 * Unless allowed, the default user holds neither create nor admin permission. Checked when the
 * router opens its data folder (a TypeError: a configuration mistake). A default user that does
 * not exist (yet) is refused per request instead, like any unknown user.
 */
export function checkDefaultUser(options: ResolvedOptions, users: UserStore): void {
  const user = options.user === undefined ? undefined : users.get(options.user);
  if (user === undefined) return;
  if (PRIVILEGED.has(user.perm) && !options.allowPrivilegedDefaultUser) {
    throw new TypeError(
      `xmldb-rest: the default user "${user.name}" has ${user.perm} permission; set "allowPrivilegedDefaultUser" to allow it.`,
    );
  }
}

async function login(runtime: Runtime, req: Request, name: string, password: string): Promise<User> {
  const result = await runtime.users.authenticate(name, password, clientAddress(req));
  switch (result.kind) {
    case 'accepted':
      return result.user;
    case 'throttled':
      throw withHeaders(raise(HTTP_ERRORS, 'LOGINS_THROTTLED_X', result.retryAfter), { 'Retry-After': String(result.retryAfter) });
    case 'denied':
      throw raise(HTTP_ERRORS, 'ACCESS_DENIED_X', name);
  }
}

async function defaultLogin(req: Request, runtime: Runtime, name: string, password: string): Promise<User> {
  const { options } = runtime;
  const host = requestHost(req) ?? '';
  const hostname = hostName(host);
  if (!isLoopbackName(hostname) && !options.allowedHosts.has(hostname)) {
    throw raise(HTTP_ERRORS, 'DEFAULT_CREDENTIALS_HOST_X', host);
  }
  const user = await login(runtime, req, name, password);
  // The permission may have been raised since the router opened (GRANT).
  if (PRIVILEGED.has(user.perm) && !options.allowPrivilegedDefaultUser) {
    throw raise(HTTP_ERRORS, 'DEFAULT_USER_PRIVILEGED_XX', user.name, user.perm);
  }
  return user;
}

/**
 * The Basic credentials last accepted on each connection, with their user. A client sends the
 * same header with every request of a connection; the next one with that header is the same
 * user without decoding and proving the password again (users/verified-logins.ts), for as long
 * as the user is unchanged: a new password, permission or grant, or a dropped user, makes a new
 * user object (users/user-store.ts), and the header is checked again. The header is compared in
 * constant time, and only with what this connection sent: a connection that a proxy shares
 * between clients learns nothing of another client's credentials from the time of the check.
 */
const acceptedOn = new WeakMap<Socket, { readonly header: Buffer; readonly user: User }>();

function acceptedBefore(req: Request, runtime: Runtime, header: string): User | undefined {
  const accepted = req.socket && acceptedOn.get(req.socket);
  if (!accepted) return undefined;
  const sent = Buffer.from(header, 'latin1');
  if (sent.length !== accepted.header.length || !timingSafeEqual(sent, accepted.header)) return undefined;
  return runtime.users.get(accepted.user.name) === accepted.user ? accepted.user : undefined;
}

/**
 * Basic credentials: the user the connection's last accepted header names (at once), else the
 * user the decoded name and password log in as.
 */
function basicLogin(req: Request, runtime: Runtime, header: string | undefined): User | Promise<User> {
  const match = /^Basic\s+(\S*)\s*$/i.exec(header ?? '');
  if (match === null) throw raise(HTTP_ERRORS, 'AUTH_EXPECTED');
  const known = acceptedBefore(req, runtime, header!);
  if (known !== undefined) return known;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw raise(HTTP_ERRORS, 'ACCESS_DENIED');
  return login(runtime, req, decoded.slice(0, colon), decoded.slice(colon + 1)).then((user) => {
    if (req.socket) acceptedOn.set(req.socket, { header: Buffer.from(header!, 'latin1'), user });
    return user;
  });
}

/** The user of the request's credentials: Basic ones, else the default ones of the options. */
function credentialsUser(req: Request, runtime: Runtime): User | Promise<User> {
  const header = req.headers.authorization;
  const { user: defaultUser, password: defaultPassword } = runtime.options;
  if (header === undefined && defaultUser !== undefined && defaultPassword !== undefined) {
    return defaultLogin(req, runtime, defaultUser, defaultPassword);
  }
  return basicLogin(req, runtime, header);
}

/** After the users are in sync: the user the host names, else the one of the credentials. */
async function hostOrCredentialsUser(req: Request, runtime: Runtime, syncing: Promise<void> | undefined): Promise<User> {
  if (syncing) await syncing;
  const hook = runtime.options.authenticate;
  const hostUser = hook === undefined ? undefined : await hook(req);
  if (hostUser !== undefined && hostUser !== null) {
    // The host vouches for the name; the permissions are those of the router's user of that name.
    const user = runtime.users.get(String(hostUser));
    if (user === undefined) throw raise(HTTP_ERRORS, 'ACCESS_DENIED_X', hostUser);
    return user;
  }
  return credentialsUser(req, runtime);
}

/**
 * The user a request runs as. Known at once (not a promise) when nothing needs waiting for: no
 * users to sync, no host hook, and credentials this connection had accepted before; a failure
 * may then be thrown rather than rejected.
 */
export function authenticate(req: Request, runtime: Runtime): User | Promise<User> {
  // Users and grants changed by another server sharing the store apply from its next request.
  const syncing = runtime.users.sync();
  if (syncing === undefined && runtime.options.authenticate === undefined) return credentialsUser(req, runtime);
  return hostOrCredentialsUser(req, runtime, syncing);
}
