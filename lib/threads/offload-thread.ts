/**
 * The body of an offload thread (offload.ts): loads the named module of the package, calls the
 * named export with the arguments and posts the result, or the error's status, message and code.
 */
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { XmldbError } from '../xmldb-error';
import { movableMemory, reviveBuffers } from './transfer';

export interface OffloadTask {
  readonly id: number;
  /** Absolute path of one of the package's modules. */
  readonly module: string;
  readonly fn: string;
  readonly args: readonly unknown[];
}

export type OffloadReply =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false; readonly message: string; readonly status?: number; readonly code?: string };

/** The package's root folder (lib/ or dist/): only its modules are loaded. */
const ROOT = path.resolve(__dirname, '..');

function handle(task: OffloadTask): OffloadReply {
  try {
    const file = path.resolve(task.module);
    if (!file.startsWith(ROOT + path.sep)) throw new Error(`not a module of the package: ${file}`);
    const fn = (require(file) as Record<string, unknown>)[task.fn];
    if (typeof fn !== 'function') throw new Error(`${task.fn} is not a function of ${file}`);
    return { id: task.id, ok: true, value: (fn as (...a: unknown[]) => unknown)(...task.args.map(reviveBuffers)) };
  } catch (e) {
    if (e instanceof XmldbError) return { id: task.id, ok: false, message: e.message, status: e.status, code: e.code };
    return { id: task.id, ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}

if (parentPort) {
  parentPort.on('message', (task: OffloadTask) => {
    const reply = handle(task);
    parentPort!.postMessage(reply, reply.ok ? movableMemory(reply.value) : []);
  });
}
