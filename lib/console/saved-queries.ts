/**
 * The web console's saved queries and query history, per user. The rules (names, order, the
 * length of the history) are here; where the data is kept is a backend's: on the file store one
 * JSON file of the data folder through lowdb (console-file.ts), on the PostgreSQL store a row per
 * user shared by every server (console-pg.ts).
 */
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

/** What the console keeps of one user. */
export interface UserData {
  saved: SavedQuery[];
  history: HistoryEntry[];
}

export function emptyUserData(): UserData {
  return { saved: [], history: [] };
}

export interface ConsoleBackend {
  /** The data of `user` now. */
  read(user: string): Promise<UserData>;
  /** Applies `fn` to the data of `user` and keeps the result, one change at a time; answers `fn`'s answer. */
  change<T>(user: string, fn: (data: UserData) => T): Promise<T>;
}

export class SavedQueries {
  constructor(private readonly backend: ConsoleBackend) {}

  async saved(user: string): Promise<readonly SavedQuery[]> {
    return (await this.backend.read(user)).saved;
  }

  async history(user: string): Promise<readonly HistoryEntry[]> {
    return (await this.backend.read(user)).history;
  }

  /** Saves (or replaces) the query `name` of `user`. */
  save(user: string, name: string, query: string): Promise<SavedQuery> {
    return this.backend.change(user, (data) => {
      const entry = { name, query, saved: new Date().toISOString() };
      data.saved = [...data.saved.filter((q) => q.name !== name), entry].sort((a, b) => a.name.localeCompare(b.name));
      return entry;
    });
  }

  /** Whether a saved query was removed. */
  remove(user: string, name: string): Promise<boolean> {
    return this.backend.change(user, (data) => {
      const before = data.saved.length;
      data.saved = data.saved.filter((q) => q.name !== name);
      return data.saved.length < before;
    });
  }

  /** Records a query run; the same text again moves to the top instead of repeating. */
  record(user: string, query: string): Promise<void> {
    return this.backend.change(user, (data) => {
      data.history = [{ query, at: new Date().toISOString() }, ...data.history.filter((h) => h.query !== query)].slice(0, HISTORY_LENGTH);
    });
  }
}
