import type { QueryContext } from '../../../../../lib/xquery/engine/engine';
import { doc, engineFixture } from '../helpers';
import { translate } from '../../../../helpers/translation';

const e = engineFixture();

const translated = (query: string): string => translate(query, 'single').xslt;
/** How many join maps the translation builds (one `$…join-seq.N := B` each). */
const maps = (query: string): number => translated(query).match(/join-seq\.\d+ := /g)?.length ?? 0;

/** The same query evaluated as nested loops: each inner domain reads the outer variable `$p`. */
const nestedLoop = (query: string, domains: string[]): string => domains.reduce((q, d) => q.replaceAll(`in ${d}`, `in ${d}[exists($p)]`), query);

const outcome = (query: string, context: QueryContext): Promise<string> => e.outcome(query, context);

// an auction site in miniature: buyers by attribute, items in two regions, interests by category
const SITE = doc(
  '<site><regions><europe><item id="i1"><name>lamp</name></item><item id="i2"><name>vase</name></item></europe>' +
    '<asia><item id="i3"><name>bowl</name></item></asia></regions>' +
    '<people><person id="p1"><name>Ann</name><profile><interest category="c1"/><interest category="c2"/></profile></person>' +
    '<person id="p2"><name>Ben</name><profile><interest category="c2"/></profile></person>' +
    '<person id="p3"><name>Cy</name></person></people>' +
    '<closed_auctions><closed_auction><buyer person="p2"/><itemref item="i1"/></closed_auction>' +
    '<closed_auction><buyer person="p1"/><itemref item="i3"/></closed_auction>' +
    '<closed_auction><buyer person="p2"/><itemref item="i2"/></closed_auction>' +
    '<closed_auction><buyer person="p9"/><itemref item="i2"/></closed_auction></closed_auctions></site>',
);

// XMark Q8, Q9 and Q10 in their standard form (the auction document as the context item)
const Q8 =
  'let $auction := . return for $p in $auction/site/people/person ' +
  'let $a := for $t in $auction/site/closed_auctions/closed_auction where $t/buyer/@person = $p/@id return $t ' +
  'return <item person="{$p/name/text()}">{count($a)}</item>';
const Q9 =
  'let $auction := . return let $ca := $auction/site/closed_auctions/closed_auction return ' +
  'let $ei := $auction/site/regions/europe/item for $p in $auction/site/people/person ' +
  'let $a := for $t in $ca where $p/@id = $t/buyer/@person ' +
  'return let $n := for $t2 in $ei where $t/itemref/@item = $t2/@id return $t2 return <item>{$n/name/text()}</item> ' +
  'return <person name="{$p/name/text()}">{$a}</person>';
const Q10 =
  'let $auction := . return for $p in distinct-values($auction/site/people/person/profile/interest/@category) ' +
  'let $t := for $t in $auction/site/people/person where $t/profile/interest/@category = $p return <n>{$t/name/text()}</n> ' +
  'return <categorie><id>{$p}</id>{$t}</categorie>';

describe('where value joins are found', () => {
  it('takes inner domains that read variables bound before the outer binding', () => {
    expect(maps(Q8)).toBe(1);
    expect(maps('let $ca := //closed_auction for $p in //person let $a := for $t in $ca where $t/buyer/@person = $p/@id return $t return count($a)')).toBe(1);
    expect(maps(Q10)).toBe(1);
  });

  it('builds the maps of joins nested in the return of a join once, at the outermost binding', () => {
    // one map for each join: the FLWOR over $t does not build the map of the join in its return again
    expect(maps(Q9)).toBe(2);
  });

  it.each([
    ['the domain reads the outer variable', 'for $p in //person let $a := for $t in $p/../..//closed_auction where $t/buyer/@person = $p/@id return $t return count($a)'],
    ['the domain reads a variable bound after the outer binding', 'for $p in //person let $c := //closed_auction let $a := for $t in $c where $t/buyer/@person = $p/@id return $t return count($a)'],
    ['the site is a conditional branch', 'for $p in //person return if ($p/@id) then count(for $t in //closed_auction where $t/buyer/@person = $p/@id return $t) else 0'],
    ['the site is in a predicate', 'for $p in //person return $p[count(for $t in //closed_auction where $t/buyer/@person = $p/@id return $t) > 0]'],
    ['the site is in a constructor', 'for $p in //person return <n>{count(for $t in //closed_auction where $t/buyer/@person = $p/@id return $t)}</n>'],
    ['the comparison is !=', 'for $p in //person let $a := for $t in //closed_auction where $t/buyer/@person != $p/@id return $t return count($a)'],
  ])('leaves nested loops where %s', (_, query) => {
    expect(maps(query)).toBe(0);
  });

  it.each([
    ['Q8', Q8, ['$auction/site/closed_auctions/closed_auction']],
    ['Q9', Q9, ['$ca', '$ei']],
    ['Q10', Q10, ['$auction/site/people/person']],
    ['a join in an fn function argument', 'for $p in //person return count(for $t in //closed_auction where $t/buyer/@person = $p/@id return $t)', ['//closed_auction']],
    [
      'a join after a where clause, the outer domain a variable',
      'let $people := //person for $p in $people where $p/name != "Cy" let $a := for $t in //closed_auction where $p/@id = $t/buyer/@person return $t/itemref/@item return $p/@id || ":" || string-join($a, ",")',
      ['//closed_auction'],
    ],
  ])('gives the nested loops answers: %s', async (_, query, domains) => {
    const reference = nestedLoop(query, domains);
    if (domains.length) expect(maps(reference)).toBeLessThan(maps(query));
    expect(await outcome(query, SITE)).toBe(await outcome(reference, SITE));
  });

  it('answers XMark Q9 in order', async () => {
    expect(await e.adaptive(Q9, { context: SITE })).toBe(
      '<person name="Ann"><item/></person>\n<person name="Ben"><item>lamp</item><item>vase</item></person>\n<person name="Cy"/>',
    );
  });
});
