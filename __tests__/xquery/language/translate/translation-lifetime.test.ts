/**
 * A translation lives as long as its caller keeps it, and no longer: once dropped, a minor
 * collection frees it. Translations were object literals whose getters were new closures; V8
 * gave each a hidden class of its own, held weakly by its first hidden class's transitions,
 * which minor collections keep alive. Every translation then survived the young generation with
 * its syntax tree and state (about 25 KB for a FLWOR) until a full collection.
 */
import { setFlagsFromString, getHeapSpaceStatistics } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parseQuery } from '../../../../lib/xquery/language/syntax';
import { translateModule, withLiteralValues } from '../../../../lib/xquery/language/translate';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (options?: { type: 'minor' | 'major'; execution: 'sync' }) => void;

/** Bytes in use in the young and old generations after two minor collections (a survivor of both is promoted). */
function afterMinorCollections(): number {
  gc({ type: 'minor', execution: 'sync' });
  gc({ type: 'minor', execution: 'sync' });
  let used = 0;
  for (const space of getHeapSpaceStatistics()) if (space.space_name === 'new_space' || space.space_name === 'old_space') used += space.space_used_size;
  return used;
}

test('translations that nobody keeps are freed by minor collections', () => {
  const translate = (n: number) => {
    const query = `for $i in 1 to ${n} let $a := $i * 7 where $a mod 3 = 1 order by $a descending return <r${n} n="{$i}">{$a}</r${n}>`;
    const t = translateModule(parseQuery(query), query, { contextMode: 'none' });
    // both kinds: a query's own translation, and one that takes another's with new literals
    const variant = withLiteralValues(t, new Map());
    return (t.xpath?.expression.length ?? 0) + (variant?.externals.length ?? 0);
  };
  for (let n = 0; n < 50; n++) translate(n); // loaded and warm
  const before = afterMinorCollections();
  let sink = 0;
  for (let n = 1000; n < 1400; n++) sink += translate(n);
  const grown = afterMinorCollections() - before;
  expect(sink).toBeGreaterThan(0);
  // 400 translations kept alive take 8 MB and more; freed, what grows is a few allocations of the test's own
  expect(grown).toBeLessThan(1_500_000);
});
