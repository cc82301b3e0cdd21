/**
 * The results of pure queries (analysis/pure.ts), kept by the engine: the answer of a query whose
 * result is a function of its text, its external variables' values and its serialization
 * parameters is computed by the query host once and then answered from here, without a round
 * trip to the host. Bounded by entries and by bytes; a large result is not kept.
 */
import { LRUCache } from 'lru-cache';
import type { StringBinding } from './external-variables';

/** A result larger than this is evaluated every time. */
const MAX_RESULT_BYTES = 64 * 1024;
/** All kept results together. */
const MAX_TOTAL_BYTES = 8 * 1024 * 1024;

export interface MemoResult {
  readonly body: string | Buffer;
  readonly contentType: string;
}

export class ResultMemo {
  private readonly results = new LRUCache<string, MemoResult>({
    max: 4096,
    maxSize: MAX_TOTAL_BYTES,
    sizeCalculation: (r) => Math.max(1, typeof r.body === 'string' ? 2 * r.body.length : r.body.byteLength),
  });

  /** The key of a run: the text, the external variables' bindings, the serialization parameters. */
  static key(text: string, externals: readonly (StringBinding | undefined)[], serialization: Readonly<Record<string, string>>): string {
    const params = Object.keys(serialization)
      .sort()
      .map((k) => [k, serialization[k]]);
    return JSON.stringify([text, externals.map((b) => (b ? [b.values, b.type ?? null] : null)), params]);
  }

  get(key: string): MemoResult | undefined {
    return this.results.get(key);
  }

  set(key: string, result: MemoResult): void {
    const size = typeof result.body === 'string' ? 2 * result.body.length : result.body.byteLength;
    if (size <= MAX_RESULT_BYTES) this.results.set(key, result);
  }
}
