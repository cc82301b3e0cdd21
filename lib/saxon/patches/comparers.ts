/**
 * Runtime patch (saxon-js 2.7.0): value and general comparisons, and the sorts and groupings
 * that compare, ask for their comparer (`Compare.be(key, context)` in SaxonJS2N.js) each time
 * they compare, and it builds a new one from the key string every time: a predicate such as
 * `[@id = "x"]` or `[local-name() = "name"]` splits the key and builds its closures once per node
 * it filters, which took more time than the comparisons themselves.
 *
 * Most comparers depend on their key alone: those of numbers (`NC`, `QUNC`, `DblSC`), of
 * generic atomic values (`GAC`, `CAVC`, `DecSC`, `AtSC`, `CalVC`), of equality only (`EQC`), and
 * their descending forms (`DESC|` before one of these). saxon-js builds them from fixed functions
 * of its own, without reading the context or changing anything; the patched function keeps the
 * comparer of each such key (a bounded table) and hands it out again. Every other key (the
 * collation-based `TEXT`, `CAC` and `CCC`, which read the run's collations) is built as before,
 * on every call. Guarded like the other patches: a different function fails when the patch is
 * applied.
 */
import { saxon } from '..';

type ComparerOf = ((key: string, context: unknown) => unknown) & { __comparersPatched?: boolean };

/** The keys whose comparer depends on the key alone (see the module comment). */
const KEY_ONLY = /^(?:DESC\|)*(?:NC|QUNC|DblSC|GAC|CAVC|DecSC|AtSC|CalVC|EQC)(?:\||$)/;

/** Distinct keys kept (a key names a comparison kind and a collation: few per run). */
const MAX_KEYS = 256;

/** Applies the patch in this thread (idempotent; throws for another saxon-js version). */
export function patchComparers(): void {
  const compare = (saxon().internals as unknown as { Compare?: { be?: ComparerOf } }).Compare;
  const original = compare?.be;
  if (original?.__comparersPatched) return;
  const source = String(original);
  if (
    !compare ||
    typeof original !== 'function' ||
    !source.includes('case "CAVC":case "DecSC":case "GAC":case "AtSC":case "CalVC":return{equals:P(a,h),compare:q(q(b,A),h)}') ||
    !source.includes('case "NC":return H.equals=l(!1),H.compare=e(!1),H;case "QUNC":return H.equals=l(!0),H.compare=e(!0),H;case "DblSC":return H.equals=P(a,A),H.compare=q(q(b,A),h),H;') ||
    !source.includes('case "EQC":return H.equals=P(a,h),H.compare=function(C,Z){return H.equals(C,Z)?0:1},H;') ||
    !source.includes('if("DESC"===L[0]){const C=p(E.slice(5),B);')
  ) {
    throw new Error('saxon-js comparer patch: the comparer factory of saxon-js 2.7.0 was not found; review lib/saxon/patches/comparers.ts for this saxon-js version');
  }
  const kept = new Map<string, unknown>();
  const keptComparer: ComparerOf = (key, context) => {
    if (typeof key !== 'string' || !KEY_ONLY.test(key)) return original(key, context);
    let comparer = kept.get(key);
    if (comparer === undefined) {
      comparer = original(key, context);
      if (kept.size >= MAX_KEYS) kept.clear();
      kept.set(key, comparer);
    }
    return comparer;
  };
  compare.be = Object.assign(keptComparer, { __comparersPatched: true });
}
