/**
 * What the reads of a write see (write-view.ts): the committed databases and backups with the
 * write's staged changes over them.
 */
import { committedBackups, type BackupRecord } from './backups';
import type { DbDraft } from './draft';
import type { DbRecord, DbResolver } from './views';

/** Staged databases by name: the draft, or null for a dropped one. */
export type Drafts = Map<string, DbDraft | null>;

/** Staged backup changes by name: the backup's new state, or null for a dropped one. */
export type BackupChanges = Map<string, BackupRecord | null>;

/** The databases and backups of the data folder `dbPath` as a write sees them. */
export function draftResolver(dbPath: string, committed: ReadonlyMap<string, DbRecord>, drafts: Drafts, backups: BackupChanges): DbResolver {
  return {
    names: () => {
      const names = new Set(committed.keys());
      for (const [name, draft] of drafts) {
        if (draft) names.add(name);
        else names.delete(name);
      }
      return [...names];
    },
    get: (name) => (drafts.has(name) ? (drafts.get(name) ?? undefined) : committed.get(name)),
    backups: async () => {
      const result = await committedBackups(dbPath);
      for (const [name, backup] of backups) {
        if (backup) result.set(name, backup);
        else result.delete(name);
      }
      return result;
    },
  };
}
