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
 *
 * A thread that has had no work for OFFLOAD_IDLE_MS is stopped. Each thread is a V8 heap of its
 * own, and after converting a large body it keeps that body's garbage and a grown young
 * generation (tens of MB) for as long as it lives, which for an occasional upload is the rest of
 * the process's life; a thread start (tens of ms) is small beside the work on a body that
 * needs one, and a burst of uploads keeps its threads. A thread that has worked on RETIRE_BYTES or
 * more is stopped as soon as it answers: its heap then holds several times that input (a 100 MB
 * XML document leaves about 400 MB) and would hold it for the idle time, while the thread start
 * is nothing beside such work.
 */
import os from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { XmldbError } from '../xmldb-error';
import { startThread } from './launch';
import { reviveBuffers } from './transfer';
import type { OffloadReply, OffloadTask } from './offload-thread';

/** Inputs of at least this many bytes are handled off the request thread. */
export const OFFLOAD_BYTES = 64 * 1024;

/** A thread without work for this long is stopped (file comment). */
export const OFFLOAD_IDLE_MS = 10_000;

/** A thread that has worked on inputs of at least this many bytes is stopped once it answers (file comment). */
export const RETIRE_BYTES = 16 * 1024 * 1024;

interface Waiting {
  readonly task: OffloadTask;
  /** Size of the work's input: past the pool's retire size, its thread is stopped after it. */
  readonly bytes: number;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Thread {
  readonly worker: Worker;
  current: Waiting | null;
  /** Stops the thread once it has been idle for the pool's idle time. */
  idleTimer: NodeJS.Timeout | undefined;
}

export interface OffloadPoolOptions {
  /** Most threads at once (default: 2, or 1 on a single core). */
  readonly size?: number;
  /** Milliseconds a thread may stay idle before it is stopped (default OFFLOAD_IDLE_MS). */
  readonly idleMs?: number;
  /** Input bytes from which a thread is stopped right after the work (default RETIRE_BYTES). */
  readonly retireBytes?: number;
}

/** A pool of offload threads (the process's own is behind `offload`). */
export class OffloadPool {
  private readonly size: number;
  private readonly idleMs: number;
  private readonly retireBytes: number;
  private readonly threads: Thread[] = [];
  private readonly queue: Waiting[] = [];
  private nextId = 1;

  constructor(options: OffloadPoolOptions = {}) {
    this.size = options.size ?? Math.min(2, Math.max(1, os.availableParallelism()));
    this.idleMs = options.idleMs ?? OFFLOAD_IDLE_MS;
    this.retireBytes = options.retireBytes ?? RETIRE_BYTES;
  }

  /** Threads running now (busy or idle). */
  get threadCount(): number {
    return this.threads.length;
  }

  /** Runs `fn` of `module` on `args` (`bytes` of input) in a thread. */
  run<T>(module: string, fn: string, args: readonly unknown[], bytes = 0): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ task: { id: this.nextId++, module, fn, args }, bytes, resolve: resolve as (v: unknown) => void, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let thread = this.threads.find((t) => t.current === null);
      if (!thread && this.threads.length < this.size) thread = this.spawn();
      if (!thread) return;
      const waiting = this.queue.shift()!;
      thread.current = waiting;
      clearTimeout(thread.idleTimer);
      thread.idleTimer = undefined;
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

  private spawn(): Thread {
    const thread: Thread = { worker: startThread(path.join(__dirname, 'offload-thread')), current: null, idleTimer: undefined };
    thread.worker.on('message', (reply: OffloadReply) => {
      const waiting = thread.current;
      thread.current = null;
      thread.worker.unref();
      if (waiting !== null && waiting.bytes >= this.retireBytes && this.remove(thread)) void thread.worker.terminate();
      if (waiting) {
        if (reply.ok) waiting.resolve(reviveBuffers(reply.value));
        else if (reply.status !== undefined) waiting.reject(new XmldbError(reply.status, reply.message, reply.code));
        else waiting.reject(new Error(reply.message));
      }
      this.dispatch();
      if (thread.current === null && this.threads.includes(thread)) this.idle(thread);
    });
    // A thread that dies (out of memory, a crash) fails its work alone and is replaced on demand.
    const fail = (error: Error) => {
      if (!this.remove(thread)) return;
      thread.current?.reject(error);
      thread.current = null;
      this.dispatch();
    };
    thread.worker.on('error', fail);
    thread.worker.on('exit', (code) => fail(new Error(`offload thread exited with code ${code}`)));
    thread.worker.unref();
    this.threads.push(thread);
    return thread;
  }

  /** `thread` has no work: it is stopped unless work comes within the idle time. */
  private idle(thread: Thread): void {
    clearTimeout(thread.idleTimer);
    thread.idleTimer = setTimeout(() => {
      if (thread.current !== null || !this.remove(thread)) return;
      void thread.worker.terminate();
    }, this.idleMs);
    thread.idleTimer.unref();
  }

  /** Takes `thread` out of the pool; false when it was out already. */
  private remove(thread: Thread): boolean {
    const i = this.threads.indexOf(thread);
    if (i < 0) return false;
    this.threads.splice(i, 1);
    clearTimeout(thread.idleTimer);
    thread.idleTimer = undefined;
    return true;
  }
}

const pool = new OffloadPool();

/** Runs `fn` of `module` on `args`: inline for inputs under OFFLOAD_BYTES, else in a thread of the process's pool. */
export async function offload<T>(inputBytes: number, module: string, fn: string, args: readonly unknown[], inline: () => T): Promise<T> {
  if (inputBytes < OFFLOAD_BYTES) return inline();
  return pool.run<T>(module, fn, args, inputBytes);
}
