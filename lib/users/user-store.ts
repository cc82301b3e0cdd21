/**
 * Users and their permissions: the rules (names, admin, grants, logins) over a backend that keeps
 * them (backend.ts: the users file, or PostgreSQL). The users are held in memory, so that a
 * request finds its user without waiting; `sync` refreshes them where other servers may change
 * them, and every change is made on the backend's current list, not on this copy.
 */
import { raise } from '../xmldb-error';
import { checkPattern } from '../glob';
import type { User, UserBackend } from './backend';
import { USER_ERRORS } from './user-errors';
import { LoginThrottle } from './login-throttle';
import { hashPassword, isOutdated, verifyUnknownUser } from './password';
import { checkPassword, isBeingChecked, isRemembered } from './verified-logins';
import type { LocalPermission, Permission } from './permissions';
import { FileUsers } from './users-file';

export type { User, UserBackend } from './backend';
export { USERS_FILE } from './users-file';

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

export class UserStore {
  private users: readonly User[] = [];
  private readonly throttle = new LoginThrottle();
  private readonly passwordListeners: Array<(name: string) => Promise<void>> = [];

  private constructor(private readonly backend: UserBackend) {}

  /** The users of data folder `dbPath` (its users file). */
  static open(dbPath: string): Promise<UserStore> {
    return UserStore.on(FileUsers.of(dbPath));
  }

  /** The users kept by `backend`. */
  static async on(backend: UserBackend): Promise<UserStore> {
    const store = new UserStore(backend);
    store.users = await backend.load();
    return store;
  }

  /**
   * Takes in changes other servers made; undefined (nothing to wait for) where no other server
   * changes the users (a users file).
   */
  sync(): Promise<void> | undefined {
    return this.backend.changed?.().then((users) => {
      if (users !== undefined) this.users = users;
    });
  }

  close(): Promise<void> {
    return this.backend.close();
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
   * is accepted at once (verified-logins.ts); otherwise failed attempts are throttled
   * (login-throttle.ts) per client, and per name from that client: failures sent from other
   * addresses never block a name (so nobody can lock another user, admin included, out), and
   * guesses spread over many addresses are bounded by scrypt, which runs one hash at a time.
   * An unknown name costs one scrypt like a known one. A password with U+0000 never matches
   * (scrypt's HMAC pads its key with zero bytes: `pw` and `pw\0` would hash alike) and cannot be
   * set. A hash made with weaker parameters than today's is replaced after a successful check.
   */
  async authenticate(name: string, password: string, client: string): Promise<Login> {
    const user = this.get(name);
    const possible = !password.includes('\0');
    if (user !== undefined && possible && isRemembered(password, user.password)) return { kind: 'accepted', user };
    const keys = [`client ${client}`, `user ${name} from ${client}`];
    const shared = user !== undefined && isBeingChecked(password, user.password);
    const retryAfter = this.throttle.retryAfter(keys, shared);
    if (retryAfter > 0) return { kind: 'throttled', retryAfter };
    if (!shared) this.throttle.start(keys);
    let ok = false;
    try {
      ok = user === undefined || !possible ? await verifyUnknownUser(password) : await checkPassword(password, user.password);
    } finally {
      this.throttle.finish(keys, ok, !shared);
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
    for (const listener of this.passwordListeners) await listener(name);
  }

  /** Calls `listener` with the user's name after each password this store changes (admin.ts). */
  onPasswordChanged(listener: (name: string) => Promise<void>): void {
    this.passwordListeners.push(listener);
  }

  /** Sets the global permission, or with a pattern the permission on matching databases. */
  async grant(name: string, perm: Permission, pattern?: string): Promise<void> {
    await this.change((users) =>
      this.existing(users, name).map((u) => {
        if (u.name !== name) return u;
        if (pattern === undefined) return { ...u, perm };
        if (perm !== 'none' && perm !== 'read' && perm !== 'write') throw raise(USER_ERRORS, 'INVALID_PERMISSION_X', perm);
        checkPattern(pattern);
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

  /** Changes the kept users; the copy in memory is replaced once the change is kept. */
  private async change(fn: (users: readonly User[]) => readonly User[]): Promise<void> {
    this.users = await this.backend.change(fn);
  }
}
