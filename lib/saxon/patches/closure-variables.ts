/**
 * Runtime patch (saxon-js 2.7.0): an inline function item keeps the context it was created in
 * and copies that context's local variables only when it is *called*. A loop reuses its frame's
 * slots, so every closure made in `for $n in (1, 2) return function() { $n }` sees the values of
 * the last iteration once the loop is over, and `! .()` gives `2 2`. XQuery 3.1 §3.1.7 says an
 * inline function's closure holds the in-scope variables' values *when the function item is
 * created*; the patch takes that copy at creation.
 *
 * The class of inline function items is not exported: the patch finds it through an item made
 * by the XPath evaluator, and intercepts the constructor's one assignment of its context (`x`)
 * with an accessor on the prototype that keeps a copy of the frame's slots. The evaluation code
 * is checked first: another saxon-js version fails when the patch is applied.
 */
import { saxon } from '..';

interface CreationContext {
  localVars: unknown[];
}

interface InlineFunctionPrototype {
  evaluate(...args: unknown[]): unknown;
  __closurePatched?: boolean;
}

/** What the creation context becomes: the same context, with the slots' values of that moment. */
const SNAPSHOT = Symbol('closure context');

/** Applies the patch in this thread (idempotent; throws for another saxon-js version). */
export function patchClosureVariables(): void {
  const made = saxon().XPath.evaluate('function() { 1 }', null, { resultForm: 'raw' }) as { value?: object } | null;
  const item = (made && 'value' in made ? made.value : made) as object | null | undefined;
  const proto = item ? (Object.getPrototypeOf(item) as InlineFunctionPrototype) : null;
  if (proto?.__closurePatched) return;
  const code = proto && Object.prototype.hasOwnProperty.call(proto, 'evaluate') ? String(proto.evaluate) : '';
  if (!proto || !item || !Object.prototype.hasOwnProperty.call(item, 'x') || !code.includes('this.x.localVars.slice()')) {
    throw new Error('saxon-js closure patch: the inline function items of saxon-js 2.7.0 were not found; review lib/saxon/patches/closure-variables.ts for this saxon-js version');
  }
  Object.defineProperty(proto, 'x', {
    configurable: true,
    get(this: { [SNAPSHOT]?: CreationContext }): CreationContext | undefined {
      return this[SNAPSHOT];
    },
    set(this: { [SNAPSHOT]?: CreationContext }, context: CreationContext) {
      // the context object itself stays the prototype: anything else read from it is as it was
      this[SNAPSHOT] = Object.create(context, { localVars: { value: context.localVars.slice() } }) as CreationContext;
    },
  });
  proto.__closurePatched = true;
}
