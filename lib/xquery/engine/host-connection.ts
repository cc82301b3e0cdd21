/**
 * One query host process as the server holds it (query-host.ts): started, or taken up from a
 * test harness's kept processes, with none of the server's environment but the time zone (which
 * may hold secrets otherwise), its own malloc setting, and the Node flags of host-flags.ts; its
 * messages batched once per turn of the event loop (message-batch.ts), held back until the host
 * says it is ready; its stdout and stderr passed on line by line, where a heap abort is noticed.
 */
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import type { Readable } from 'node:stream';
import { startProcess } from '../../threads/launch';
import type { WorkerOutput } from '../host/launch';
import type { FromHost, ToHost } from '../protocol/host-protocol';
import { messageBatch, type MessageBatch } from '../protocol/message-batch';

/** What V8 writes to stderr when a heap limit aborts the process. */
const HEAP_ABORT = /Reached heap limit|heap out of memory|near heap limit/;
/** The server's environment variables the host gets: how it tells local time, nothing else. */
const HOST_ENVIRONMENT = ['TZ'] as const;

/**
 * The host's own environment, two settings of glibc's malloc (other C libraries ignore them):
 * - A fixed mmap threshold of 128 KiB (its default start; setting it turns off the adjustment).
 *   glibc raises the threshold to the size of each mapped block freed, up to 32 MiB, and serves
 *   smaller blocks from its heaps from then on, which rarely give memory back. Reading a large
 *   document frees blocks of tens of MiB (its text, the columns of its tree as they grow). At
 *   XMark factor 1 (108 MB; two runs each, resident memory 10 s after the queries) the host held
 *   283-285 MB after the first query instead of 309-310, and 484-494 MB after seventeen instead
 *   of 503-518.
 * - One arena for all threads. glibc gives a thread that finds the arenas busy one of its own,
 *   and a freed block stays with its arena: a query worker's compilations and collections free
 *   tens of MB of small blocks there that no other thread reuses and that are not given back
 *   (after the XMark queries at factor 1, a worker's arena held 44 MB of which 41 were free).
 *   With one arena the host held 310-319 MB after the twenty queries run three times instead of
 *   334-340 (three runs each, alternating). Eight clients sending new queries (each a compilation)
 *   got 159 and 194 answers a second against 164 and 189 with an arena per thread.
 */
export const HOST_MALLOC_ENVIRONMENT: Readonly<NodeJS.ProcessEnv> = { MALLOC_MMAP_THRESHOLD_: String(128 * 1024), MALLOC_ARENA_MAX: '1' };

export interface HostConnection {
  readonly process: ChildProcess;
  readonly out: MessageBatch<ToHost>;
  /** Messages sent before the host said it is ready (it may not listen yet). */
  readonly early: ToHost[][];
  ready: boolean;
  /** The host wrote that a heap limit aborted it. */
  outOfMemory: boolean;
  /** Settles when the process has ended and its streams are closed. */
  readonly ended: Promise<void>;
  /** Removes the connection's listeners from the process and its streams (it is handed to a harness, query-host.ts `kept`). */
  readonly detach: () => void;
}

export interface HostEvents {
  /** A batch of the host's messages, in order. */
  readonly messages: (messages: FromHost[]) => void;
  /** The process ended: its signal, or `code N`. */
  readonly ended: (how: string) => void;
  /** Where the host's output lines and its process's errors go. */
  readonly output: WorkerOutput;
}

/**
 * Connects to `kept` (a process of equal settings that is ready and idle), or starts a host
 * process with Node flags `flags`. `events` hears of it until the process ends or the
 * connection is detached.
 */
export function connectHost(kept: ChildProcess | undefined, flags: readonly string[], events: HostEvents): HostConnection {
  const child =
    kept ??
    startProcess(path.join(__dirname, '..', 'host', 'host-process'), flags, {
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'advanced',
      env: hostEnvironment(),
    });
  const onMessage = (messages: FromHost[]) => events.messages(messages);
  const onError = (error: Error) => events.output(`query host: ${error.message}`, 'stderr');
  let closed = () => {};
  const onClose = (code: number | null, signal: NodeJS.Signals | null) => {
    closed();
    events.ended(signal ?? `code ${code}`);
  };
  const lines: (Interface | undefined)[] = [];
  const host: HostConnection = {
    process: child,
    out: messageBatch((messages) => (host.ready ? child.send(messages) : host.early.push(messages))),
    early: [],
    ready: kept !== undefined,
    outOfMemory: false,
    ended: new Promise((resolve) => (closed = resolve)),
    detach: () => {
      child.off('message', onMessage).off('error', onError).off('close', onClose);
      for (const line of lines) line?.close();
    },
  };
  lines.push(outputLines(child.stdout, 'stdout', host, events.output), outputLines(child.stderr, 'stderr', host, events.output));
  child.on('message', onMessage);
  child.on('error', onError);
  child.on('close', onClose);
  return host;
}

/** The host said it is ready: the messages held back go now. */
export function hostReady(host: HostConnection): void {
  host.ready = true;
  for (const messages of host.early.splice(0)) host.process.send(messages);
}

/** Sends `message` to the host outside the batches, resolving once the channel has written it (bytes-in-parts.ts waits for each part). */
export function sendNow(host: HostConnection, message: ToHost): Promise<void> {
  return new Promise((resolve, reject) => host.process.send([message], (error: Error | null) => (error ? reject(error) : resolve())));
}

/** The lines of one of the host's output streams, which does not keep the server's event loop alive. */
function outputLines(stream: Readable | null, name: 'stdout' | 'stderr', host: HostConnection, output: WorkerOutput): Interface | undefined {
  if (!stream) return undefined;
  (stream as Readable & { unref?(): void }).unref?.();
  return createInterface({ input: stream }).on('line', (line) => {
    if (name === 'stderr' && HEAP_ABORT.test(line)) host.outOfMemory = true;
    output(line, name);
  });
}

function hostEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...HOST_MALLOC_ENVIRONMENT };
  for (const name of HOST_ENVIRONMENT) if (process.env[name] !== undefined) env[name] = process.env[name];
  return env;
}
