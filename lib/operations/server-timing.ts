/**
 * The `Server-Timing` header of query responses (W3C Server Timing, §3: `name;dur=MS`, several
 * metrics separated by commas): where the server spent a query's time, so that any client (a
 * browser's network panel, the web console, curl -i) sees it without a profiler. Our addition;
 * BaseX sends no such header. Durations are milliseconds with one decimal.
 *
 * - `parse`: parsing and static analysis of the query text (near 0 when its text was cached)
 * - `compile`: translation to XSLT and compilation by saxon-js (near 0 when cached)
 * - `evaluate`: the run in the query worker
 * - `serialize`: serialization of the result (of the requested page only)
 * - `total`: from the request's query to its serialized answer, lock waits included
 */
import type { RunTimings } from '../xquery/engine/engine';

const dur = (name: string, ms: number): string => `${name};dur=${(Math.round(ms * 10) / 10).toFixed(1)}`;

export function serverTiming(parseMs: number, run: RunTimings, totalMs: number): string {
  return [dur('parse', parseMs), dur('compile', run.compileMs), dur('evaluate', run.evaluateMs), dur('serialize', run.serializeMs), dur('total', totalMs)].join(', ');
}
