/**
 * The PostgreSQL store's module (pg-store.ts), loaded on first use: when a router is given a
 * `storeUrl`. With it come the driver and the store's other modules, about sixty modules and a
 * third of the time the package takes to load (measured on Node 20: 345 ms for the package, of
 * which `pg` alone 72 ms), which a process on the file store never needs.
 */
import type { Store } from '../types';
import type * as PgStoreModule from './pg-store';

let loaded: typeof PgStoreModule | undefined;

/** pg-store.ts, loaded now if it was not. */
export function pgStoreModule(): typeof PgStoreModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('./pg-store') as typeof PgStoreModule);
}

/** Whether `store` is a PostgreSQL store; loads nothing: without the module loaded, no store is one. */
export function isPostgresStore(store: Store): store is PgStoreModule.PostgresStore {
  return loaded !== undefined && store instanceof loaded.PostgresStore;
}
