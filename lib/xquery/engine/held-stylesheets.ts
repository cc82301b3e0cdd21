/**
 * The stylesheets a query host holds compiled, as the server knows them (query-host.ts): the
 * compile keys of those it said it compiled (a job of the stylesheet was answered, or its
 * compilation ahead is done). A job of a held stylesheet names it by key instead of sending its
 * text. The host's own cache is bounded, so it may have dropped one since: it then asks for the
 * text (host-process.ts `needsText`) and the key is dropped here too; a host started anew holds
 * nothing.
 */
import { LRUCache } from 'lru-cache';
import { compileKey, type CompileOptions } from '../compile-key';

export class HeldStylesheets {
  private readonly keys: LRUCache<string, true>;
  /** The last text given a key, and its key (`keyOf`). */
  private last: { readonly xslt: string; readonly baseUri: string | undefined; readonly key: string } = { xslt: '', baseUri: undefined, key: '' };

  /** `max`: as many as the host's pool keeps (its `cacheMax`). */
  constructor(max: number) {
    this.keys = new LRUCache({ max });
  }

  /**
   * The compile key of `xslt`. The runtime library's text comes with run after run, and a query's
   * own stylesheet is asked about (`compiledOrAhead`) just before its run: the last key is kept
   * rather than hashing the text again.
   */
  keyOf(xslt: string, options: CompileOptions = {}): string {
    const { baseUri } = options;
    if (xslt !== this.last.xslt || baseUri !== this.last.baseUri) this.last = { xslt, baseUri, key: compileKey(xslt, options) };
    return this.last.key;
  }

  has(key: string): boolean {
    return this.keys.has(key);
  }

  /** The host holds `key`'s compilation (or its compile error). */
  held(key: string): void {
    this.keys.set(key, true);
  }

  /** The host no longer holds `key`'s compilation. */
  dropped(key: string): void {
    this.keys.delete(key);
  }

  /** The host process ended: its successor holds nothing. */
  clear(): void {
    this.keys.clear();
  }
}
