/** Starting a query worker thread on `thread.ts`/`thread.js` (threads/launch.ts tells how). */
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { ResourceLimits, Transferable, Worker } from 'node:worker_threads';
import { publishSaxonCodeCache } from '../../saxon/load';
import { startThread } from '../../threads/launch';
import type { WorkerInit } from '../protocol/protocol';

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

/**
 * Young generation of a query worker in MiB (V8 splits it into two semi-spaces and a space for
 * large new objects, so 12 MiB gives semi-spaces of 4 MiB). V8 grows a worker's semi-spaces to
 * 16 MiB each under allocation and keeps them committed while the worker idles: with this cap an
 * idle worker holds 8 MiB of young generation instead of 32. Objects that outlive two scavenges
 * (parsed documents, caches) go to the old generation either way.
 */
export const YOUNG_GENERATION_MB = 12;

/** The heap limits of a query worker: old generation `heapMb` (absent: V8's), young generation YOUNG_GENERATION_MB. */
export function workerLimits(heapMb: number | undefined): ResourceLimits {
  return { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB, ...(heapMb !== undefined ? { maxOldGenerationSizeMb: heapMb } : {}) };
}

/** Whether `e` is Node's error for a worker that reached its `resourceLimits` (`workerLimits`). */
export function isOutOfMemory(e: Error): boolean {
  return (e as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
}

export function startWorker(init: WorkerInit, start: WorkerStart = {}): Worker {
  const { output, resourceLimits, transferList } = start;
  publishSaxonCodeCache(); // once per process: workers deserialize saxon-js instead of compiling it
  const worker = startThread(path.join(__dirname, '..', 'worker', 'thread'), {
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
