/**
 * The PostgreSQL store's module (pg-store.ts), loaded on first use: when a router is given a
 * `storeUrl`. With it come the driver and the store's other modules, about forty modules and a
 * fifth of the time the package took to load (measured on Node 20: `pg` alone 72 of 345 ms),
 * which a process on the file store never needs. Routers open their stores through
 * `pgStoreModule`, so until its first call no router's store is a PostgreSQL store.
 */
import type { Store } from '../types';
import type * as PgStoreModule from './pg-store';

let loaded: typeof PgStoreModule | undefined;

/** pg-store.ts, loaded now if it was not. */
export function pgStoreModule(): typeof PgStoreModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('./pg-store') as typeof PgStoreModule);
}

/** Whether `store` is a PostgreSQL store; loads nothing (see above). */
export function isPostgresStore(store: Store): store is PgStoreModule.PostgresStore {
  return loaded !== undefined && store instanceof loaded.PostgresStore;
}
