/**
 * The store channel: how a query worker reads a store that it cannot read itself (store/types.ts,
 * the `channel` worker reader). A query runs synchronously, so the worker blocks on each request:
 * it posts a StoreRequest and waits (Atomics.wait on a shared Int32) until the main thread has
 * answered through the ReadView that holds the running request's locks and counted the answer
 * on that Int32; the answer is then taken off the port synchronously (`receiveMessageOnPort`).
 * The main thread's event loop stays free meanwhile; a worker stopped while it waits (time limit,
 * cancellation) simply goes away, and a late answer lands on a closed port.
 *
 * Reads may also be asked ahead (`readAhead`): the worker posts the request, goes on with the
 * bytes it has, and takes the answer when it needs it, so that the main thread reads the next
 * batch of documents while the worker parses this one. Requests are numbered (`seq`) and each
 * answer names its request, since the main thread may answer them in any order.
 *
 * A query asks a few times per request at most: the request's database versions come with the
 * task, a catalog only when its version is not cached in the worker, and the documents not
 * cached in batches (documents/store-source.ts).
 */
import { MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { raise, XmldbError } from '../../xmldb-error';
import { STORE_ERRORS } from '../../store';
import type { CatalogSnapshot, FullTextFound, FullTextLookup, LockSet, ReadAhead, ReadView, SyncStoreReader } from '../../store/types';
import type { StoreAnswer, StoreChannel, StoreRequest } from './protocol';

/** Longest wait, in ms, before the worker looks at its port again (see `take`). */
const LAG_MS = 10;

// ------------------------------------------------------------------------------ worker side

/** The worker's reader over its store channel. */
export class ChannelReader implements SyncStoreReader {
  /** Counts the answers posted (see the file comment). */
  private readonly answered: Int32Array;
  private seq = 0;
  /** Requests whose answer is still wanted, and the answers that came before they were taken. */
  private readonly wanted = new Set<number>();
  private readonly early = new Map<number, StoreAnswer>();

  /** `task`: the id of the task the worker runs (its requests are answered with that task's view). */
  constructor(
    private readonly channel: StoreChannel,
    private readonly task: () => number,
  ) {
    this.answered = new Int32Array(channel.signal);
  }

  versions(dbs: LockSet): Map<string, string> {
    const answer = this.ask({ task: this.task(), op: 'versions', dbs });
    if (!('versions' in answer)) throw unexpected();
    return new Map(answer.versions);
  }

  catalog(db: string): CatalogSnapshot {
    const answer = this.ask({ task: this.task(), op: 'catalog', db });
    if (!('catalog' in answer)) throw unexpected();
    return answer.catalog;
  }

  read(db: string, paths: readonly string[]): Buffer[] {
    return this.readAhead(db, paths).take();
  }

  readAhead(db: string, paths: readonly string[]): ReadAhead {
    const seq = this.post({ task: this.task(), op: 'read', db, paths });
    return {
      take: () => {
        const answer = this.take(seq);
        if (!('bytes' in answer)) throw unexpected();
        return answer.bytes.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength));
      },
      drop: () => this.forget(seq),
    };
  }

  fullText(db: string, lookup: FullTextLookup): FullTextFound | undefined {
    const answer = this.ask({ task: this.task(), op: 'fullText', db, lookup });
    if (!('fullText' in answer)) throw unexpected();
    return answer.fullText ?? undefined;
  }

  summaries(db: string, etags: readonly string[]): (Uint8Array | undefined)[] {
    const answer = this.ask({ task: this.task(), op: 'summaries', db, etags });
    if (!('summaries' in answer)) throw unexpected();
    return answer.summaries.map((s) => s ?? undefined);
  }

  private ask(request: Request): StoreAnswer & { ok: true } {
    return this.take(this.post(request));
  }

  /** Posts a request; answers its number. */
  private post(request: Request): number {
    const seq = ++this.seq;
    this.wanted.add(seq);
    this.channel.port.postMessage({ ...request, seq } satisfies StoreRequest);
    return seq;
  }

  /** Waits for the answer to request `seq`, keeping the answers to others still wanted that come first. */
  private take(seq: number): StoreAnswer & { ok: true } {
    try {
      let answer = this.early.get(seq);
      while (answer === undefined) {
        const counted = Atomics.load(this.answered, 0);
        const message = receiveMessageOnPort(this.channel.port);
        if (message === undefined) {
          // The answer is posted before it is counted, so a count that changed brings a message;
          // the bound only guards against a lag between the two, never a wait without end.
          Atomics.wait(this.answered, 0, counted, LAG_MS);
          continue;
        }
        const { seq: of, ...got } = message.message as StoreAnswer & { readonly seq: number };
        if (of === seq) answer = got as StoreAnswer;
        else if (this.wanted.has(of)) this.early.set(of, got as StoreAnswer);
      }
      if (!answer.ok) throw new XmldbError(answer.status, answer.message, answer.code);
      return answer;
    } finally {
      this.forget(seq);
    }
  }

  /** The answer to request `seq` is no longer wanted: dropped on arrival, or now if it came early. */
  private forget(seq: number): void {
    this.wanted.delete(seq);
    this.early.delete(seq);
  }
}

/** A request as the reader gives it, before it is numbered. */
type Request = DistributiveOmit<StoreRequest, 'seq'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

function unexpected(): Error {
  return new Error('The main thread answered a store request with something else.');
}

// ------------------------------------------------------------------------------ main side

/**
 * What answers a worker's store requests: the reads of a ReadView they use (a ReadView, or in the
 * query host process the server's view, read over IPC: host-process.ts).
 */
export type ChannelView = Pick<ReadView, 'versions' | 'listResources' | 'readBytes' | 'readMany' | 'database' | 'fullText' | 'summaries'>;

/** Buffers of bytes that nothing else holds, which an answer hands to the worker by transfer instead of copying them. */
const ownBuffers = new WeakSet<ArrayBufferLike>();

/** Marks `bytes` (a view of its whole buffer, which nothing else may hold) as handed on by transfer. */
export function transferable<T extends Uint8Array>(bytes: T): T {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) ownBuffers.add(bytes.buffer);
  return bytes;
}

/**
 * Posts `answer` to request `seq` to the worker's port, its buffers marked `transferable` by
 * transfer (they are then empty here).
 */
export function postAnswer(port: MessagePort, answer: StoreAnswer, seq: number): void {
  const transfers = answer.ok && 'bytes' in answer ? [...new Set(answer.bytes.map((b) => b.buffer))].filter((b): b is ArrayBuffer => ownBuffers.has(b) && b instanceof ArrayBuffer) : [];
  port.postMessage({ ...answer, seq }, transfers);
}

/** The main thread's end of one worker's channel. */
export interface StoreChannelHost {
  /** What the worker gets (in WorkerInit; `port` must be in the transfer list). */
  readonly channel: StoreChannel;
  /** Stops answering (the worker is gone). */
  close(): void;
}

/**
 * Opens a channel for one worker; each request is answered with the view `viewOf(task)` gives
 * for the task that asks, or refused when there is none.
 */
export function openStoreChannel(viewOf: (task: number) => ChannelView | undefined): StoreChannelHost {
  const { port1, port2 } = new MessageChannel();
  const signal = new SharedArrayBuffer(4);
  const answered = new Int32Array(signal);
  let open = true;
  port1.on('message', (request: StoreRequest) => {
    void answer(viewOf(request.task), request).then((reply) => {
      if (!open) return;
      postAnswer(port1, reply, request.seq);
      Atomics.add(answered, 0, 1);
      Atomics.notify(answered, 0);
    });
  });
  port1.unref();
  return {
    channel: { port: port2, signal },
    close: () => {
      open = false;
      port1.close();
    },
  };
}

/**
 * Files of at most this many bytes are read together (ReadView `readMany`); a larger one alone,
 * so that a batch of a worker's reads never makes the store hold many large files at once (the
 * file store reads a batch synchronously).
 */
export const BATCHED_FILE_BYTES = 256 * 1024;

/** The bytes of `paths`: together where the view can (the small ones), else one read each. */
async function readAll(view: ChannelView, db: string, paths: readonly string[]): Promise<Uint8Array[]> {
  if (view.readMany === undefined) return Promise.all(paths.map((p) => view.readBytes(db, p)));
  const read = await view.readMany(db, paths, BATCHED_FILE_BYTES);
  return Promise.all(read.map((bytes, i) => bytes ?? view.readBytes(db, paths[i])));
}

/** Answers one request through `view`; every failure becomes a failed answer. */
export async function answer(view: ChannelView | undefined, request: StoreRequest): Promise<StoreAnswer> {
  try {
    if (!view) throw new XmldbError(500, 'Stored data cannot be read here: the query runs outside a store read or write.');
    switch (request.op) {
      case 'versions':
        return { ok: true, versions: [...(await view.versions(request.dbs))] };
      case 'catalog': {
        const [versions, resources, database] = await Promise.all([view.versions([request.db]), view.listResources(request.db), view.database(request.db)]);
        const version = versions.get(request.db);
        if (version === undefined || database === undefined) throw raise(STORE_ERRORS, 'DB_NOT_FOUND_X', request.db);
        return { ok: true, catalog: { version, resources, database } };
      }
      case 'read':
        return { ok: true, bytes: await readAll(view, request.db, request.paths) };
      case 'fullText':
        return { ok: true, fullText: (await view.fullText?.(request.db, request.lookup)) ?? null };
      case 'summaries':
        return { ok: true, summaries: view.summaries ? await view.summaries(request.db, request.etags) : request.etags.map(() => null) };
    }
  } catch (error) {
    if (error instanceof XmldbError) return { ok: false, status: error.status, message: error.message, ...(error.code ? { code: error.code } : {}) };
    return { ok: false, status: 500, message: error instanceof Error ? error.message : String(error) };
  }
}
