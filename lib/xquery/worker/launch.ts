/** Starting a query worker thread on `thread.ts`/`thread.js` (threads/launch.ts tells how). */
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { ResourceLimits, Transferable, Worker } from 'node:worker_threads';
import { startThread } from '../../threads/launch';
import type { WorkerInit } from './protocol';

/** Receives what a worker writes to its stdout or stderr (fn:trace, saxon's messages), line by line. */
export type WorkerOutput = (line: string, stream: 'stdout' | 'stderr') => void;

export interface WorkerStart {
  /** Where the worker's stdout and stderr go instead of the process's. */
  readonly output?: WorkerOutput;
  /** Heap limits of the worker. */
  readonly resourceLimits?: ResourceLimits;
  /** Objects in `init` to transfer rather than copy (the store channel's port). */
  readonly transferList?: readonly Transferable[];
}

export function startWorker(init: WorkerInit, start: WorkerStart = {}): Worker {
  const { output, resourceLimits, transferList } = start;
  const worker = startThread(path.join(__dirname, 'thread'), {
    workerData: init,
    ...(transferList ? { transferList: [...transferList] } : {}),
    ...(output ? { stdout: true, stderr: true } : {}),
    ...(resourceLimits ? { resourceLimits } : {}),
  });
  if (output) {
    createInterface({ input: worker.stdout }).on('line', (line) => output(line, 'stdout'));
    createInterface({ input: worker.stderr }).on('line', (line) => output(line, 'stderr'));
  }
  return worker;
}
