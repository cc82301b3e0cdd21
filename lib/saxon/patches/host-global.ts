/**
 * Runtime patch, part of the wall in query workers (lib/xquery/worker/host-wall.ts): saxon-js's
 * host bindings reach JavaScript through the platform's `globalObject` (`ixsl:window()`, which
 * every call in the `http://saxonica.com/ns/globalJS` namespace goes through, and
 * `ixsl:get`/`call`/`apply` on it). In a query worker it becomes an empty, frozen object, fixed for good. Checked first:
 * a platform whose global object is not Node's `global` is another saxon-js version.
 */
import { saxon } from '..';

/** Applies the patch in this thread (idempotent; throws for another saxon-js version). */
export function sealHostGlobal(): void {
  const platform = saxon().getPlatform();
  const descriptor = Object.getOwnPropertyDescriptor(platform, 'globalObject');
  if (descriptor && !descriptor.writable && !descriptor.configurable) return;
  if (descriptor?.value !== globalThis) {
    throw new Error("saxon-js host wall: the platform's globalObject of saxon-js 2.7.0 was not found; review lib/saxon/patches/host-global.ts for this saxon-js version");
  }
  Object.defineProperty(platform, 'globalObject', { value: Object.freeze(Object.create(null)), writable: false, configurable: false, enumerable: true });
}
