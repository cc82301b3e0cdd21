/**
 * Users of a data folder, kept in `{dbPath}/users.json`. The file is validated on read; a change
 * is made on a copy, which replaces the current state only after it has been written atomically
 * (store/atomic.ts) with mode 0600: it holds the password hashes, so only the server's own system
 * user may read it, whatever the umask.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { raise } from '../errors';
import { errorCode, writeFileAtomic } from '../store/atomic';
import { USER_ERRORS } from './errors';
import { LoginThrottle } from './login-throttle';
import { hashPassword, isOutdated, isPasswordHash, verifyUnknownUser, type PasswordHash } from './password';
import { checkPassword, isRemembered } from './verified-logins';
import { PERMISSIONS, type Grant, type LocalPermission, type Permission } from './permissions';

export interface User {
  readonly name: string;
  readonly perm: Permission;
  readonly grants: readonly Grant[];
  readonly password: PasswordHash;
}

interface UsersFile {
  users: User[];
}

export const USERS_FILE = 'users.json';
const USERS_FILE_MODE = 0o600;

/** The outcome of a login: the user, a refusal, or a throttled attempt (retry after seconds). */
export type Login =
  | { readonly kind: 'accepted'; readonly user: User }
  | { readonly kind: 'denied' }
  | { readonly kind: 'throttled'; readonly retryAfter: number };

/** Same character rules as database names (spec §1.1). */
const NAME = /^[A-Za-z0-9_\-+=~!#$%^&()[\]{}@'`]([A-Za-z0-9_\-+=~!#$%^&()[\]{}@'`.]*[A-Za-z0-9_\-+=~!#$%^&()[\]{}@'`])?$/;

export function isValidUserName(name: string): boolean {
  return NAME.test(name);
}

function validate(data: unknown): UsersFile {
  const users = (data as UsersFile | null)?.users;
  if (!Array.isArray(users)) throw raise(USER_ERRORS, 'USERS_FILE_INVALID_X', 'no users list');
  for (const u of users) {
    const ok =
      typeof u?.name === 'string' && (PERMISSIONS as readonly string[]).includes(u.perm) &&
      Array.isArray(u.grants) && isPasswordHash(u.password) &&
      u.grants.every((g: Grant) => typeof g?.pattern === 'string' && ['none', 'read', 'write'].includes(g.perm));
    if (!ok) throw raise(USER_ERRORS, 'USERS_FILE_INVALID_X', `bad entry ${JSON.stringify(u?.name)}`);
  }
  return { users };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw raise(USER_ERRORS, 'USERS_FILE_INVALID_X', 'not JSON');
  }
}

export class UserStore {
  private users: readonly User[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private readonly throttle = new LoginThrottle();

  private constructor(private readonly file: string) {}

  static async open(dbPath: string): Promise<UserStore> {
    const store = new UserStore(path.join(dbPath, USERS_FILE));
    let text: string | undefined;
    try {
      text = await fs.readFile(store.file, 'utf8');
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
    }
    store.users = text === undefined ? [] : validate(parseJson(text)).users;
    // A file of an older version may be readable by others. Best effort: a file this process
    // does not own stays as it is (its owner chose its mode); every write makes it private.
    if (text !== undefined) await fs.chmod(store.file, USERS_FILE_MODE).catch(() => undefined);
    return store;
  }

  get(name: string): User | undefined {
    return this.users.find((u) => u.name === name);
  }

  /** All users, `admin` first, then by name. */
  list(): readonly User[] {
    return [...this.users].sort((a, b) =>
      a.name === 'admin' ? -1 : b.name === 'admin' ? 1 : a.name.localeCompare(b.name),
    );
  }

  get size(): number {
    return this.users.length;
  }

  /**
   * Checks a name and password given by `client` (an address). A password proven right before
   * is accepted at once (verified-logins.ts); otherwise failed attempts of the client and of the
   * name are throttled (login-throttle.ts), and an unknown name costs one scrypt like a known one.
   * A hash made with weaker parameters than today's is replaced after a successful check.
   */
  async authenticate(name: string, password: string, client: string): Promise<Login> {
    const user = this.get(name);
    if (user !== undefined && isRemembered(password, user.password)) return { kind: 'accepted', user };
    const keys = [`client ${client}`, `user ${name}`];
    const retryAfter = this.throttle.retryAfter(keys);
    if (retryAfter > 0) return { kind: 'throttled', retryAfter };
    this.throttle.start(keys);
    let ok = false;
    try {
      ok = user === undefined ? await verifyUnknownUser(password) : await checkPassword(password, user.password);
    } finally {
      this.throttle.finish(keys, ok);
    }
    if (user === undefined || !ok) return { kind: 'denied' };
    if (isOutdated(user.password)) await this.rehash(user, password);
    return { kind: 'accepted', user: this.get(name) ?? user };
  }

  /** Stores a hash with today's parameters, unless the password changed meanwhile. */
  private async rehash(user: User, password: string): Promise<void> {
    const hash = await hashPassword(password);
    await this.change((users) =>
      users.map((u) => (u.name === user.name && u.password === user.password ? { ...u, password: hash } : u)),
    );
  }

  async create(name: string, password: string, perm: Permission = 'none'): Promise<User> {
    if (!isValidUserName(name)) throw raise(USER_ERRORS, 'INVALID_USER_NAME_X', name);
    const user: User = { name, perm, grants: [], password: await hashPassword(password) };
    await this.change((users) => {
      if (users.some((u) => u.name === name)) throw raise(USER_ERRORS, 'USER_EXISTS_X', name);
      return [...users, user];
    });
    return user;
  }

  async drop(name: string): Promise<void> {
    if (name === 'admin') throw raise(USER_ERRORS, 'ADMIN_STATIC');
    await this.change((users) => this.existing(users, name).filter((u) => u.name !== name));
  }

  async rename(name: string, newName: string): Promise<void> {
    if (name === 'admin') throw raise(USER_ERRORS, 'ADMIN_STATIC');
    if (!isValidUserName(newName)) throw raise(USER_ERRORS, 'INVALID_USER_NAME_X', newName);
    await this.change((users) => {
      if (users.some((u) => u.name === newName)) throw raise(USER_ERRORS, 'USER_EXISTS_X', newName);
      return this.existing(users, name).map((u) => (u.name === name ? { ...u, name: newName } : u));
    });
  }

  async setPassword(name: string, password: string): Promise<void> {
    const hash = await hashPassword(password);
    await this.change((users) => this.existing(users, name).map((u) => (u.name === name ? { ...u, password: hash } : u)));
  }

  /** Sets the global permission, or with a pattern the permission on matching databases. */
  async grant(name: string, perm: Permission, pattern?: string): Promise<void> {
    await this.change((users) =>
      this.existing(users, name).map((u) => {
        if (u.name !== name) return u;
        if (pattern === undefined) return { ...u, perm };
        if (perm !== 'none' && perm !== 'read' && perm !== 'write') throw raise(USER_ERRORS, 'INVALID_PERMISSION_X', perm);
        const grants = u.grants.filter((g) => g.pattern !== pattern);
        return { ...u, grants: [...grants, { pattern, perm: perm as LocalPermission }] };
      }),
    );
  }

  /** Removes the grants of a user whose pattern matches exactly. */
  async dropGrant(name: string, pattern: string): Promise<void> {
    await this.change((users) =>
      this.existing(users, name).map((u) => (u.name === name ? { ...u, grants: u.grants.filter((g) => g.pattern !== pattern) } : u)),
    );
  }

  private existing(users: readonly User[], name: string): readonly User[] {
    if (!users.some((u) => u.name === name)) throw raise(USER_ERRORS, 'USER_NOT_FOUND_X', name);
    return users;
  }

  /** Serialises changes; the new list is swapped in only after it was written. */
  private change(fn: (users: readonly User[]) => readonly User[]): Promise<void> {
    const next = this.queue.then(async () => {
      const users = fn(this.users);
      const data: UsersFile = { users: [...users] };
      await writeFileAtomic(this.file, JSON.stringify(data, null, 2), USERS_FILE_MODE);
      this.users = users;
    });
    this.queue = next.catch(() => undefined);
    return next;
  }
}
