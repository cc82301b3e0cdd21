/**
 * Which databases a query sees, and their catalogs, for the worker's store source
 * (store-source.ts). The contract is store/types.ts "Versions and etags":
 *
 * - A worker keeps one catalog per database (`CatalogCache`), tagged with the version it was read
 *   at, for as long as the worker lives.
 * - A query run (`RunCatalogs` with `memo`) learns each database's version once: from the
 *   versions its request took from the view holding its locks (authoritative: a database not
 *   among them does not exist for the run), or else by asking the reader the first time it
 *   needs the database. The cached catalog serves the run when its version matches; otherwise
 *   the reader is asked for the catalog once, and that catalog serves the rest of the run.
 * - Without `memo` (the source used outside a run) every call asks the reader for the version.
 */
import { XmldbError } from '../../../xmldb-error';
import type { CatalogSnapshot, DatabaseInfo, ResourceInfo, SyncStoreReader } from '../../../store/types';
import { compareNames } from '../../../store';

/** A catalog as the source uses it: the snapshot, and its resources by path. */
export interface CatalogState {
  readonly version: string;
  /** All resources, sorted by path. */
  readonly resources: readonly ResourceInfo[];
  readonly byPath: ReadonlyMap<string, ResourceInfo>;
  /** The database: times, totals, options. */
  readonly database: DatabaseInfo;
}

/** The catalog of each database a worker has read, at the version it was read at. */
export class CatalogCache {
  private readonly byDb = new Map<string, CatalogState>();

  /** The cached catalog of `db` if it is at `version`. */
  get(db: string, version: string): CatalogState | undefined {
    const state = this.byDb.get(db);
    return state?.version === version ? state : undefined;
  }

  /** Keeps a snapshot read from the store (replacing the one of another version). */
  put(db: string, snapshot: CatalogSnapshot): CatalogState {
    const state: CatalogState = {
      version: snapshot.version,
      resources: snapshot.resources,
      byPath: new Map(snapshot.resources.map((r) => [r.path, r])),
      database: snapshot.database,
    };
    this.byDb.set(db, state);
    return state;
  }

  /** Forgets a database's catalog (or all of them). */
  evict(db?: string): void {
    if (db === undefined) this.byDb.clear();
    else this.byDb.delete(db);
  }
}

/** Versions and catalogs as one run (or, without memo, one call) sees them. */
export class RunCatalogs {
  /**
   * Versions learnt in this run (undefined: the database does not exist); the map is made
   * when the first is learnt: most runs of small queries read no database.
   */
  private known: Map<string, string | undefined> | undefined;
  /** Catalogs used in this run (made with the first one). */
  private used: Map<string, CatalogState> | undefined;

  constructor(
    private readonly reader: SyncStoreReader,
    private readonly cache: CatalogCache,
    private readonly memo: boolean,
    /** The versions of the request: every database the run may see. */
    private readonly given?: ReadonlyMap<string, string>,
  ) {}

  /** Whether database `db` exists. */
  exists(db: string): boolean {
    return this.version(db) !== undefined;
  }

  /** The names of all databases, sorted case-insensitively. */
  names(): string[] {
    const versions = this.given ?? this.reader.versions('*');
    const gone = (name: string) => this.known?.has(name) === true && this.known.get(name) === undefined;
    return [...versions.keys()].filter((name) => !gone(name)).sort(compareNames);
  }

  /** The catalog of `db`; undefined if there is no such database. */
  catalog(db: string): CatalogState | undefined {
    const used = this.used?.get(db);
    if (used) return used;
    const version = this.version(db);
    if (version === undefined) return undefined;
    let state = this.cache.get(db, version);
    if (!state) {
      let snapshot: CatalogSnapshot;
      try {
        snapshot = this.reader.catalog(db);
      } catch (error) {
        if (!(error instanceof XmldbError && error.code === 'DB_NOT_FOUND_X')) throw error;
        if (this.memo) (this.known ??= new Map()).set(db, undefined);
        return undefined;
      }
      state = this.cache.put(db, snapshot);
    }
    if (this.memo) (this.used ??= new Map()).set(db, state);
    return state;
  }

  private version(db: string): string | undefined {
    if (this.known?.has(db)) return this.known.get(db);
    const version = this.given ? this.given.get(db) : this.reader.versions([db]).get(db);
    if (this.memo) (this.known ??= new Map()).set(db, version);
    return version;
  }
}
