/**
 * A store that lets query workers see no files: the file store behind views that offer only the
 * store interface, and without a worker reader of its own, so workers read through the store
 * channel as they would from a store that is not a folder. The documents read (by `readBytes`,
 * or as one of several by `readMany`) are counted.
 */
import type { ReadView, Store, WriteView } from '../../lib/store/types';

export const seamCalls = { documents: 0, versions: 0 };

function only<V extends ReadView>(view: V): V {
  return new Proxy(view, {
    get(target, key) {
      if (key === 'readBytes') seamCalls.documents++;
      if (key === 'versions') seamCalls.versions++;
      if (key === 'readMany' && target.readMany) {
        const readMany = target.readMany.bind(target);
        return async (db: string, paths: readonly string[], maxBytes: number) => {
          const read = await readMany(db, paths, maxBytes);
          seamCalls.documents += read.filter((bytes) => bytes !== null).length;
          return read;
        };
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

export function withoutWorkerReader(store: Store): Store {
  return {
    read: (dbs, fn) => store.read(dbs, (view: ReadView) => fn(only(view))),
    write: (dbs, fn) => store.write(dbs, (view: WriteView) => fn(only(view))),
    subscribe: (fn) => store.subscribe(fn),
    close: () => store.close(),
  };
}
