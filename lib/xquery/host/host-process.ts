/**
 * The body of the query host process (engine/query-host.ts starts it): runs a query pool (pool.ts) of
 * worker threads for the server, over Node's IPC channel (host-protocol.ts).
 *
 * - Jobs arrive without their view and signal: cancellation arrives as a message (the job's
 *   cancel switch), and the workers' store requests are answered with a view whose reads are
 *   asked of the server, which answers them with the job's own view (holding the request's
 *   locks). This process reads no stored file itself.
 * - Replies, the workers' output lines and the reads go back in one batch per turn of the event
 *   loop, each batch ending with the pool's counters; the answer of the last running job goes at
 *   once.
 * - The server going away (the channel closes) ends the process.
 */
import { CancelSwitch } from '../../cancel-switch';
import { messageBatch } from '../protocol/message-batch';
import { BytesInParts } from '../protocol/bytes-in-parts';
import { collectSoon, prepareCollection } from '../../threads/collect-garbage';
import { QueryPool } from './pool';
import { UnknownCompileKey } from './shared-compilations';
import { errorData, fromData, type FromHost, type HostJob, type ToHost, type ViewRead } from '../protocol/host-protocol';
import type { ChannelView } from '../protocol/store-channel';
import type { FullTextFound } from '../../store/types';

// The process has `--expose-gc` for its query workers, which take V8's `gc` from their own
// globals (host-flags.ts, threads/collect-garbage.ts). This thread takes it too, and clears it
// from its global: a large file that crossed in parts leaves a megabyte per part to collect
// (messages, their copies), and an idle host allocates nothing that would make V8 collect them.
// At XMark factor 1 (108 MB) this thread kept a heap of 47 MB for 13 MB of live objects.
prepareCollection();

const send = process.send?.bind(process);
if (!send) throw new Error('The query host runs as a child process with an IPC channel.');

let pool: QueryPool | undefined;
/** The cancel switch of each running job, by id. */
const running = new Map<number, CancelSwitch>();
/** Reads asked of the server, by number, until answered. */
const reads = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
let nextRead = 1;
/** Files arriving in parts (bytes-in-parts.ts), by read. */
const parts = new Map<number, BytesInParts>();

const out = messageBatch<FromHost>(
  (messages) => send(messages),
  () => ({ status: { compilations: pool?.compilations ?? 0, workers: pool?.workers ?? 0, queued: pool?.queued ?? 0 } }),
);

function started(): QueryPool {
  if (!pool) throw new Error('The query host got a job before its options.');
  return pool;
}

/** The server's view of job `id`, read over IPC. */
function remoteView(job: number): ChannelView {
  const ask = <T>(read: ViewRead) =>
    new Promise<T>((resolve, reject) => {
      const id = nextRead++;
      reads.set(id, { resolve: resolve as (value: unknown) => void, reject });
      out.push({ read: id, job, ...read });
    });
  return {
    versions: (dbs) => ask({ op: 'versions', dbs }),
    listResources: (db) => ask({ op: 'listResources', db }),
    database: (db) => ask({ op: 'database', db }),
    readBytes: async (db, path) => asBuffer(await ask<Uint8Array>({ op: 'readBytes', db, path })),
    readMany: async (db, paths, maxBytes) => (await ask<(Uint8Array | null)[]>({ op: 'readMany', db, paths, maxBytes })).map((bytes) => bytes && asBuffer(bytes)),
    // null crosses as the server's view answered: no full-text index kept for the database
    fullText: async (db, lookup) => (await ask<FullTextFound | null>({ op: 'fullText', db, lookup })) ?? undefined,
    summaries: async (db, etags) => (await ask<(Uint8Array | null)[]>({ op: 'summaries', db, etags })).map((bytes) => bytes && asBuffer(bytes)),
  };
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function run(id: number, { hasView, ...job }: HostJob): void {
  const cancel = new CancelSwitch();
  running.set(id, cancel);
  started()
    .run({ ...job, ...(hasView ? { view: remoteView(id) } : {}), signal: cancel })
    .then(
      (outcome) => out.push({ done: id, outcome }),
      (e: unknown) => out.push(e instanceof UnknownCompileKey ? { needsText: id } : { done: id, error: errorData(e) }),
    )
    .finally(() => {
      running.delete(id);
      // the answer of the last running job goes at once: no other answer may join its write
      if (running.size === 0) out.flush();
    });
}

function handle(message: ToHost): void {
  if ('init' in message) {
    pool = new QueryPool({ ...message.init, output: (line, stream) => out.push({ output: line, stream }) });
  } else if ('adjust' in message) started().adjust(message.adjust);
  else if ('run' in message) run(message.run, message.job);
  else if ('cancel' in message) running.get(message.cancel)?.abort();
  else if ('read' in message) {
    if ('size' in message) parts.set(message.read, new BytesInParts(message.size));
    else if ('part' in message) parts.get(message.read)?.add(message.part);
    else {
      const read = reads.get(message.read);
      reads.delete(message.read);
      const gathered = parts.get(message.read);
      parts.delete(message.read);
      if ('error' in message) read?.reject(fromData(message.error));
      else read?.resolve('end' in message ? gathered?.done() : message.value);
      if (gathered) collectSoon();
    }
  } else if ('ahead' in message) {
    const [key, xslt] = message.ahead;
    const p = started();
    if (p.compiledOrAhead(xslt)) out.push({ aheadDone: key, compiled: true });
    else void p.compiledAhead().then(() => out.push({ aheadDone: key, compiled: p.compiled(xslt) }));
  } else if ('settle' in message) {
    const id = message.settle;
    void started()
      .compiledAhead()
      .then(() => out.push({ settled: id }));
  } else if ('warm' in message) started().warm();
}

process.on('message', (messages: ToHost[]) => {
  for (const message of messages) handle(message);
  // the batch's runs (those that need no compilation first) start now, not at the end of the turn
  pool?.handOutNow();
});
process.on('disconnect', () => {
  void (pool?.close() ?? Promise.resolve()).finally(() => process.exit(0));
});
out.push({ ready: true });
