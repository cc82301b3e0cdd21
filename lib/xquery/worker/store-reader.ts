/**
 * The worker's reader of the store, as the store asked for it (store/types.ts `WorkerReaderSpec`):
 * the file store's folder read directly, or the main thread over the store channel.
 */
import { SyncReader } from '../../store/cache';
import type { SyncStoreReader, WorkerReaderSpec } from '../../store/types';
import type { WorkerInit } from '../protocol/protocol';
import { ChannelReader } from '../protocol/store-channel';

/** `task`: the id of the task the worker runs (see ChannelReader). */
export function openWorkerReader(spec: WorkerReaderSpec, init: WorkerInit, task: () => number): SyncStoreReader {
  switch (spec.kind) {
    case 'files':
      return new SyncReader(spec.dbPath);
    case 'channel':
      if (!init.storeChannel) throw new Error('The channel reader needs WorkerInit.storeChannel.');
      return new ChannelReader(init.storeChannel, task);
  }
}
