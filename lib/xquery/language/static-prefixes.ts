/**
 * The namespace prefixes a query knows statically (XQuery 3.1 §2.1.1, statically known
 * namespaces): the predeclared ones (constants.ts `PREDECLARED`), as its prolog declares or
 * undeclares prefixes. The predeclared prefixes are read through, not copied: every never-seen
 * query starts a set for its analysis and one for its translation, and two copies of the
 * forty-odd predeclared prefixes were about a sixth of what the static steps of such a query
 * allocated.
 */
import { PREDECLARED_PREFIXES } from '../constants';

export class StaticPrefixes {
  /** The prolog's declarations: a URI, or null for a prefix undeclared (`declare namespace p = ""`). */
  private readonly declared = new Map<string, string | null>();

  /** The URI bound to `prefix`, or undefined. */
  get(prefix: string): string | undefined {
    const own = this.declared.get(prefix);
    return own === undefined ? PREDECLARED_PREFIXES.get(prefix) : own ?? undefined;
  }

  set(prefix: string, uri: string): void {
    this.declared.set(prefix, uri);
  }

  delete(prefix: string): void {
    this.declared.set(prefix, null);
  }

  /** Each bound prefix and its URI: the predeclared ones in their order (as declared over), then the others in the order declared. */
  *entries(): IterableIterator<[string, string]> {
    for (const [prefix, uri] of PREDECLARED_PREFIXES) {
      const own = this.declared.get(prefix);
      if (own === undefined) yield [prefix, uri];
      else if (own !== null) yield [prefix, own];
    }
    for (const [prefix, uri] of this.declared) if (uri !== null && !PREDECLARED_PREFIXES.has(prefix)) yield [prefix, uri];
  }

  *keys(): IterableIterator<string> {
    for (const [prefix] of this.entries()) yield prefix;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}
