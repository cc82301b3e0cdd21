/** The functions subscribed to a store's change hints (`Store.subscribe`), for every store. */
export class ChangeListeners {
  private readonly listeners = new Set<(db: string) => void>();

  /** Adds `fn`; answers the function that removes it. */
  add(fn: (db: string) => void): () => void {
    this.listeners.add(fn);
    return () => {
      this.listeners.delete(fn);
    };
  }

  /** Tells every listener about each database. */
  notify(dbs: readonly string[]): void {
    for (const db of dbs) {
      for (const listener of this.listeners) {
        try {
          listener(db);
        } catch {
          // A hint only: a failing listener must not fail the write that already happened.
        }
      }
    }
  }
}
