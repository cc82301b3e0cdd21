/**
 * What each query cost in a worker the last time it ran, for the pool to tell short tasks (it
 * puts several in one message to a worker: pool.ts, batches). A query is known by its compiled
 * stylesheet's key, or by its XPath text; a query not seen yet, or a compilation, is not short.
 * Bounded: the record starts over when it holds `max` queries.
 */
import type { Task } from './protocol';

/** A task whose query last ran under this many milliseconds is short (pool option `shortTaskMs`). */
export const SHORT_TASK_MS = 0.5;

export class TaskCosts {
  private readonly ms = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly shortMs = SHORT_TASK_MS,
  ) {}

  /** Whether `task` is short: its query ran under `shortMs` last time. */
  short(task: Task): boolean {
    const key = keyOf(task);
    if (key === undefined) return false;
    const ms = this.ms.get(key);
    return ms !== undefined && ms < this.shortMs;
  }

  /** `task` ran in `ms` milliseconds. */
  record(task: Task, ms: number): void {
    const key = keyOf(task);
    if (key === undefined) return;
    if (this.ms.size >= this.max && !this.ms.has(key)) this.ms.clear();
    this.ms.set(key, ms);
  }
}

function keyOf(task: Task): string | undefined {
  if (task.kind !== 'run') return undefined;
  return task.key ?? (task.xpath === undefined ? undefined : `xpath ${task.xpath}`);
}
