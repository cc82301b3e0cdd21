/**
 * Loads lowdb, which ships as ESM only, from this CommonJS package through `import()`. (The test
 * setup compiles `import()` to `require`, and jest transforms lowdb to CommonJS; see jest.config.js.)
 */

const importLowdb = () => import('lowdb');

/** The lowdb module's exports. */
export type LowdbModule = Awaited<ReturnType<typeof importLowdb>>;

/** lowdb's storage seam, repeated here because its types are ESM-only. */
export interface JsonAdapter<T> {
  read(): Promise<T | null>;
  write(data: T): Promise<void>;
}

/** A lowdb document: data in memory, read from and written to an adapter. */
export interface LowDocument<T> {
  data: T;
  read(): Promise<void>;
  write(): Promise<void>;
}

let loading: Promise<LowdbModule> | undefined;

/** The lowdb module, loaded once. */
export function loadLowdb(): Promise<LowdbModule> {
  loading ??= importLowdb();
  return loading;
}

/** A new lowdb document over `adapter`, holding `defaults` until read. */
export async function lowDocument<T>(adapter: JsonAdapter<T>, defaults: T): Promise<LowDocument<T>> {
  const { Low } = await loadLowdb();
  return new Low<T>(adapter, defaults);
}
