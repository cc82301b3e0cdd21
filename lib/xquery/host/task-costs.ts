/**
 * What each query cost in a worker the last time it ran, for the pool to tell short tasks (it
 * puts several in one message to a worker: pool.ts, batches). A query is known by its compiled
 * stylesheet's key, or by its XPath text; a query not seen yet, or a compilation, is not short.
 * Bounded: the record starts over when it holds `max` queries.
 */
import type { Task } from '../protocol/protocol';

/** A task whose query last ran under this many milliseconds is short (pool option `shortTaskMs`). */
export const SHORT_TASK_MS = 0.5;

export class TaskCosts {
  /** Milliseconds of the last run, by compiled stylesheet key and by XPath text. */
  private readonly byKey = new Map<string, number>();
  private readonly byXPath = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly shortMs = SHORT_TASK_MS,
  ) {}

  /** Whether `task` is short: its query ran under `shortMs` last time. */
  short(task: Task): boolean {
    const ms = this.mapOf(task)?.get(queryOf(task));
    return ms !== undefined && ms < this.shortMs;
  }

  /** `task` ran in `ms` milliseconds. */
  record(task: Task, ms: number): void {
    const map = this.mapOf(task);
    if (map === undefined) return;
    const query = queryOf(task);
    if (map.size >= this.max && !map.has(query)) map.clear();
    map.set(query, ms);
  }

  /** The record for `task`'s kind of query; none for a compilation or a run without either. */
  private mapOf(task: Task): Map<string, number> | undefined {
    if (task.kind !== 'run') return undefined;
    if (task.key !== undefined) return this.byKey;
    return task.xpath === undefined ? undefined : this.byXPath;
  }
}

/** The text a task's query is known by: its key, or its XPath text (the same string each time it comes from the translation cache). */
const queryOf = (task: Task): string => (task.kind === 'run' ? (task.key ?? task.xpath ?? '') : '');
