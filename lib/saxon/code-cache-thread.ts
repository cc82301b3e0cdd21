/**
 * V8's code cache of a CommonJS script, compiled in a short-lived thread (code-cache.ts uses it).
 *
 * The compiler's working memory is malloc'ed in the arena of the thread that compiles, and glibc
 * keeps it resident there, fragmented, after the compilation (about 34 MiB for saxon-js's 2.4 MB
 * script on Node 20, in the main thread's heap when the main thread compiled it). A thread that
 * ends frees everything it allocated, so its arena empties and glibc gives the memory back to the
 * system (measured on Node 20: a process's resident memory is 95 MiB right after the thread
 * compiled saxon-js, 54 MiB once the thread has ended, against 39 MiB before it started, the
 * 2.5 MB cache included).
 *
 * The caller waits for the cache (Atomics.wait; the main thread compiled synchronously before,
 * for as long) and takes it from its message port without returning to the event loop.
 * The thread runs an inline script that only reads the file and compiles it, without running it.
 */
import { isSharedArrayBuffer } from 'node:util/types';
import { MessageChannel, Worker, receiveMessageOnPort } from 'node:worker_threads';

/** How long to wait for the thread before compiling without it (a compile takes well under a second). */
const TIMEOUT_MS = 60_000;

/** The thread's script: workerData = { file, source, signal, port } (source null: the file's text); posts the cache (a SharedArrayBuffer) or null, then signals. */
const COMPILER = `
'use strict';
const { workerData } = require('node:worker_threads');
const { file, source, signal, port } = workerData;
let shared = null;
try {
  const wrapped = require('node:module').wrap(source ?? require('node:fs').readFileSync(file, 'utf8'));
  const data = new (require('node:vm').Script)(wrapped, { filename: file }).createCachedData();
  shared = new SharedArrayBuffer(data.length);
  new Uint8Array(shared).set(data);
} catch {
  shared = null;
}
port.postMessage(shared);
port.close();
Atomics.store(signal, 0, 1);
Atomics.notify(signal, 0);
`;

/**
 * The code cache of `file` as Node's module loader compiles it (`Module.wrap`), compiled in a
 * thread that ends afterwards; undefined when the thread cannot start, fails or takes too long.
 * `source`: the script's text, when it is not the file's own.
 */
export function codeCacheFromThread(file: string, source?: string): SharedArrayBuffer | undefined {
  let worker: Worker | undefined;
  let channel: MessageChannel | undefined;
  try {
    const signal = new Int32Array(new SharedArrayBuffer(4));
    channel = new MessageChannel();
    // execArgv: none of the process's flags: under `--input-type=module` an inherited flag would
    // make the script an ES module, without `require`, and the thread would fail before it signals
    worker = new Worker(COMPILER, { eval: true, execArgv: [], workerData: { file, source: source ?? null, signal, port: channel.port2 }, transferList: [channel.port2] });
    worker.unref();
    worker.on('error', () => undefined); // a thread that fails is waited for no longer than TIMEOUT_MS; the caller compiles
    if (Atomics.wait(signal, 0, 0, TIMEOUT_MS) === 'timed-out') {
      void worker.terminate();
      return undefined;
    }
    const data: unknown = receiveMessageOnPort(channel.port1)?.message;
    return isSharedArrayBuffer(data) ? data : undefined; // made in the thread's realm: instanceof may not hold
  } catch {
    void worker?.terminate();
    return undefined;
  } finally {
    channel?.port1.close();
  }
}
