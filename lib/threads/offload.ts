/**
 * Running CPU-heavy, pure work (parsing and converting large request bodies) off the request
 * thread, so that one large upload does not stall every other request.
 *
 *   const value = await offload(bytes, require.resolve('./media'), 'convertInput', [body, type]);
 *
 * Work on fewer than OFFLOAD_BYTES of input runs inline: for small inputs a thread hop costs more
 * than it saves. Larger work goes to a small process-wide pool of threads (offload-thread.ts),
 * started on first use and unref'd while idle, so it never keeps the process alive. The function
 * must be an export of one of the package's own modules; its arguments and result must be
 * structured-clone data (Buffers arrive as Buffers). An `XmldbError` it throws is raised again
 * here with its status, message and code.
 */
import os from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { XmldbError } from '../errors';
import { startThread } from './launch';
import type { OffloadReply, OffloadTask } from './offload-thread';

/** Inputs of at least this many bytes are handled off the request thread. */
export const OFFLOAD_BYTES = 64 * 1024;

const POOL_SIZE = Math.min(2, Math.max(1, os.availableParallelism()));

interface Waiting {
  readonly task: OffloadTask;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Thread {
  readonly worker: Worker;
  current: Waiting | null;
}

const threads: Thread[] = [];
const queue: Waiting[] = [];
let nextId = 1;

/** Runs `fn` of `module` on `args`: inline for inputs under OFFLOAD_BYTES, else in a thread. */
export async function offload<T>(inputBytes: number, module: string, fn: string, args: readonly unknown[], inline: () => T): Promise<T> {
  if (inputBytes < OFFLOAD_BYTES) return inline();
  return new Promise<T>((resolve, reject) => {
    queue.push({ task: { id: nextId++, module, fn, args }, resolve: resolve as (v: unknown) => void, reject });
    dispatch();
  });
}

function dispatch(): void {
  while (queue.length > 0) {
    let thread = threads.find((t) => t.current === null);
    if (!thread && threads.length < POOL_SIZE) thread = spawn();
    if (!thread) return;
    const waiting = queue.shift()!;
    thread.current = waiting;
    thread.worker.ref();
    // Bytes are copied into buffers of their own and moved, not cloned: cloning 20 MB in
    // postMessage holds up the request thread far longer than one copy does.
    const transfer: ArrayBuffer[] = [];
    const args = waiting.task.args.map((arg) => {
      if (!(arg instanceof Uint8Array)) return arg;
      const copy = new Uint8Array(arg);
      transfer.push(copy.buffer);
      return copy;
    });
    thread.worker.postMessage({ ...waiting.task, args }, transfer);
  }
}

function spawn(): Thread {
  const thread: Thread = { worker: startThread(path.join(__dirname, 'offload-thread')), current: null };
  thread.worker.on('message', (reply: OffloadReply) => {
    const waiting = thread.current;
    thread.current = null;
    thread.worker.unref();
    if (waiting) {
      if (reply.ok) waiting.resolve(reply.value);
      else if (reply.status !== undefined) waiting.reject(new XmldbError(reply.status, reply.message, reply.code));
      else waiting.reject(new Error(reply.message));
    }
    dispatch();
  });
  // A thread that dies (out of memory, a crash) fails its work alone and is replaced on demand.
  const fail = (error: Error) => {
    const i = threads.indexOf(thread);
    if (i < 0) return;
    threads.splice(i, 1);
    thread.current?.reject(error);
    thread.current = null;
    dispatch();
  };
  thread.worker.on('error', fail);
  thread.worker.on('exit', (code) => fail(new Error(`offload thread exited with code ${code}`)));
  thread.worker.unref();
  threads.push(thread);
  return thread;
}
