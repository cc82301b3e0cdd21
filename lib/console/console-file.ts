/**
 * The console's data on the file store: `.console.json` in the data folder (a leading dot, so no
 * database can take its name, store/resource-names.ts), kept through lowdb. Its adapter writes with the
 * atomic replace of atomic-files.ts (temp file, fsync, rename) and mode 0600, as the users file is kept:
 * queries may hold data.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Adapter, Low } from 'lowdb' with { 'resolution-mode': 'import' };
import { errorCode, writeFileAtomic } from '../atomic-files';
import { emptyUserData, type ConsoleBackend, type UserData } from './saved-queries';

export const CONSOLE_FILE = '.console.json';

interface ConsoleData {
  users: Record<string, UserData>;
}

/** lowdb's adapter over a JSON file, written atomically with mode 0600. */
class AtomicJsonFile implements Adapter<ConsoleData> {
  constructor(private readonly file: string) {}

  async read(): Promise<ConsoleData | null> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return null;
      throw error;
    }
    const data = JSON.parse(text) as ConsoleData;
    return typeof data === 'object' && data !== null && typeof data.users === 'object' ? data : null;
  }

  write(data: ConsoleData): Promise<void> {
    return writeFileAtomic(this.file, `${JSON.stringify(data, null, 1)}\n`, 0o600);
  }
}

/**
 * lowdb is published as an ES module only: loaded with `import()`, which TypeScript keeps as
 * it is in the CommonJS build (module node16) and Node resolves natively.
 */
async function openLow(file: string): Promise<Low<ConsoleData>> {
  const { Low } = await import('lowdb');
  const db = new Low<ConsoleData>(new AtomicJsonFile(file), { users: {} });
  await db.read();
  return db;
}

export class ConsoleFile implements ConsoleBackend {
  private opening: Promise<Low<ConsoleData>> | undefined;
  /** Changes run one at a time: each writes the whole file. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly dbPath: string) {}

  private db(): Promise<Low<ConsoleData>> {
    return (this.opening ??= openLow(path.join(this.dbPath, CONSOLE_FILE)).catch((error: unknown) => {
      this.opening = undefined;
      throw error;
    }));
  }

  async read(user: string): Promise<UserData> {
    return (await this.db()).data.users[user] ?? emptyUserData();
  }

  change<T>(user: string, fn: (data: UserData) => T): Promise<T> {
    const run = this.queue.then(async () => {
      const db = await this.db();
      const result = fn((db.data.users[user] ??= emptyUserData()));
      await db.write();
      return result;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}
