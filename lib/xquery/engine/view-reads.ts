/**
 * The store reads a query host asks of the server for a job (host-protocol.ts `ViewRead`),
 * answered from the job's view (store-channel.ts), which holds the job's read permission.
 */
import type { ViewRead } from '../protocol/host-protocol';
import type { ChannelView } from '../protocol/store-channel';

/** One read of a job's view. */
export function viewRead(view: ChannelView, read: ViewRead): Promise<unknown> {
  switch (read.op) {
    case 'versions':
      return view.versions(read.dbs);
    case 'listResources':
      return view.listResources(read.db);
    case 'database':
      return view.database(read.db);
    case 'readBytes':
      return view.readBytes(read.db, read.path);
    case 'readMany':
      // a store without `readMany`: the host reads each alone
      return view.readMany ? view.readMany(read.db, read.paths, read.maxBytes) : Promise.resolve(read.paths.map(() => null));
    case 'fullText':
      return (view.fullText?.(read.db, read.lookup) ?? Promise.resolve(undefined)).then((found) => found ?? null);
    case 'summaries':
      return view.summaries ? view.summaries(read.db, read.etags) : Promise.resolve(read.etags.map(() => null));
  }
}
