/**
 * The web console's saved queries and query history, per user, in one JSON file of the data
 * folder (`.console.json`: a leading dot, so no database can take its name, store/paths.ts),
 * kept through lowdb. Its adapter writes with the store's atomic replace (temp file, fsync,
 * rename) and mode 0600, as the users file is kept: queries may hold data.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Adapter, Low } from 'lowdb' with { 'resolution-mode': 'import' };
import { errorCode, writeFileAtomic } from '../store/atomic';

export const CONSOLE_FILE = '.console.json';
/** History entries kept per user, newest first. */
export const HISTORY_LENGTH = 100;

export interface SavedQuery {
  readonly name: string;
  readonly query: string;
  readonly saved: string;
}

export interface HistoryEntry {
  readonly query: string;
  readonly at: string;
}

interface UserData {
  saved: SavedQuery[];
  history: HistoryEntry[];
}

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

export class SavedQueries {
  private opening: Promise<Low<ConsoleData>> | undefined;
  /** Changes run one at a time: each reads and writes the whole file. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly dbPath: string) {}

  private db(): Promise<Low<ConsoleData>> {
    return (this.opening ??= openLow(path.join(this.dbPath, CONSOLE_FILE)).catch((error: unknown) => {
      this.opening = undefined;
      throw error;
    }));
  }

  private change<T>(fn: (user: UserData) => T, name: string): Promise<T> {
    const run = this.queue.then(async () => {
      const db = await this.db();
      const user = (db.data.users[name] ??= { saved: [], history: [] });
      const result = fn(user);
      await db.write();
      return result;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async user(name: string): Promise<UserData> {
    const db = await this.db();
    return db.data.users[name] ?? { saved: [], history: [] };
  }

  async saved(user: string): Promise<readonly SavedQuery[]> {
    return (await this.user(user)).saved;
  }

  async history(user: string): Promise<readonly HistoryEntry[]> {
    return (await this.user(user)).history;
  }

  /** Saves (or replaces) the query `name` of `user`. */
  save(user: string, name: string, query: string): Promise<SavedQuery> {
    return this.change((data) => {
      const entry = { name, query, saved: new Date().toISOString() };
      data.saved = [...data.saved.filter((q) => q.name !== name), entry].sort((a, b) => a.name.localeCompare(b.name));
      return entry;
    }, user);
  }

  /** Whether a saved query was removed. */
  remove(user: string, name: string): Promise<boolean> {
    return this.change((data) => {
      const before = data.saved.length;
      data.saved = data.saved.filter((q) => q.name !== name);
      return data.saved.length < before;
    }, user);
  }

  /** Records a query run; the same text again moves to the top instead of repeating. */
  record(user: string, query: string): Promise<void> {
    return this.change((data) => {
      data.history = [{ query, at: new Date().toISOString() }, ...data.history.filter((h) => h.query !== query)].slice(0, HISTORY_LENGTH);
    }, user);
  }
}
