/**
 * Users of a data folder, kept in `{dbPath}/users.json`. The file is validated on read; a change
 * is made on a copy, which replaces the current state only after it has been written atomically
 * (atomic-files.ts) with mode 0600: it holds the password hashes, so only the server's own system
 * user may read it, whatever the umask.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { raise } from '../xmldb-error';
import { errorCode, writeFileAtomic } from '../atomic-files';
import { validateUsers, type User, type UserBackend } from './backend';
import { USER_ERRORS } from './user-errors';
import { USERS_FILE } from '../store/resource-names';

export { USERS_FILE };
const USERS_FILE_MODE = 0o600;

interface UsersFile {
  users: User[];
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw raise(USER_ERRORS, 'USERS_FILE_INVALID_X', 'not JSON');
  }
}

export class FileUsers implements UserBackend {
  private users: readonly User[] = [];
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly file: string) {}

  /** The users file of data folder `dbPath`. */
  static of(dbPath: string): FileUsers {
    return new FileUsers(path.join(dbPath, USERS_FILE));
  }

  async load(): Promise<readonly User[]> {
    let text: string | undefined;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
    }
    this.users = text === undefined ? [] : validateUsers((parseJson(text) as UsersFile | null)?.users);
    // A file of an older version may be readable by others. Best effort: a file this process
    // does not own stays as it is (its owner chose its mode); every write makes it private.
    if (text !== undefined) await fs.chmod(this.file, USERS_FILE_MODE).catch(() => undefined);
    return this.users;
  }

  // No `changed`: the file belongs to one server (the data folder's lock), nobody else changes it.

  /** Serialises changes; the new list is swapped in only after it was written. */
  change(fn: (users: readonly User[]) => readonly User[]): Promise<readonly User[]> {
    const next = this.queue.then(async () => {
      const users = fn(this.users);
      const data: UsersFile = { users: [...users] };
      await writeFileAtomic(this.file, JSON.stringify(data, null, 2), USERS_FILE_MODE);
      this.users = users;
      return users;
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  async close(): Promise<void> {
    await this.queue;
  }
}
