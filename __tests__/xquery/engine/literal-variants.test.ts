/**
 * Queries that differ from a prepared one only in literals (lib/xquery/engine/literal-variants.ts):
 * they take its translations with their own values where every differing literal is a
 * parameter, and are prepared as any other query elsewhere; their answers, errors and analyses
 * are their own. Over the QT3 queries, each query's variant (every literal's characters changed,
 * kinds and lengths kept) is translated, analysed and fails alike whether it follows the
 * original or comes alone.
 */
import { PreparedQueries, type PreparedQuery } from '../../../lib/xquery/engine/prepared';
import { literalShape } from '../../../lib/xquery/language/syntax/literal-shape';
import type { ContextMode, Translation } from '../../../lib/xquery/language/translate';
import { describeWithShared } from '../../helpers/shared-data';
import { paritySlice, sliceNote } from '../../helpers/parity';
import { engineFixture, doc } from '../language/translate/helpers';
import { loadQt3Cases, QT3_NEEDS } from '../language/syntax/qt3-catalog';

describe('literal variants of a prepared query', () => {
  test('take its translation with their own values, without a parse', () => {
    const cache = new PreparedQueries(8);
    const first = cache.prepare('for $i in 1 to 200 where $i mod 7 = 3 return <r n="{$i}">{$i * 2}</r>');
    const variant = cache.prepare('for $i in 1 to 900 where $i mod 5 = 1 return <r n="{$i}">{$i * 4}</r>');
    const [a, b] = [first.translation('none'), variant.translation('none')];
    expect(b.xpath).toBe(a.xpath);
    expect(b.xslt).toBe(a.xslt);
    expect(a.literals.map((l) => l.value).sort()).toEqual(['2', '200', '3', '7']);
    expect(b.literals.map((l) => [l.param, l.value])).toEqual(a.literals.map((l) => [l.param, { '200': '900', '7': '5', '3': '1', '2': '4' }[l.value]]));
    expect(variant.translation('none')).toBe(b);
    expect(variant.analysis()).toBe(first.analysis());
  });

  test('take the translation of a query with a prolog whose strings are no literal nodes', () => {
    const cache = new PreparedQueries(8);
    const first = cache.prepare('xquery version "3.1"; declare namespace p = "urn:p"; <p:r>{1 + 2}</p:r>').translation('none');
    const variant = cache.prepare('xquery version "3.1"; declare namespace p = "urn:p"; <p:r>{4 + 5}</p:r>').translation('none');
    expect(variant.xpath).toBe(first.xpath);
    expect(variant.literals.map((l) => l.value).sort()).toEqual(['4', '5']);
    // a namespace URI is not a parameter: another one is another query
    const other = cache.prepare('xquery version "3.1"; declare namespace p = "urn:q"; <p:r>{4 + 5}</p:r>').translation('none');
    expect(other.xpath).not.toBe(first.xpath);
    expect(other.xslt).toContain('urn:q');
  });

  test('are prepared as any query where a differing literal is written into the translation', () => {
    const cache = new PreparedQueries(8);
    cache.prepare('(1 to 9)[3] + 1');
    const positional = cache.prepare('(1 to 9)[5] + 1').translation('none');
    expect(positional.xpath?.expression).toContain('+ 5 - 1');
    expect(positional.xpath?.expression).not.toContain('+ 3 - 1');
  });

  test('are queries of their own where a differing literal names a database or document', () => {
    const cache = new PreparedQueries(8);
    // an invalid name makes the analysis name no database: the variant's valid one must be its own
    expect(cache.prepare('doc("d*1/doc.xml")//a[1]').analysis().databases).toEqual([]);
    expect(cache.prepare('doc("db1/doc.xml")//a[1]').analysis().databases).toEqual(['db1']);
    expect(cache.prepare('db:get("d*1")//a').analysis().databases).toEqual([]);
    expect(cache.prepare('db:get("db1")//a').analysis().databases).toEqual(['db1']);
    expect(cache.prepare('db:create("x*1")').analysis()).toMatchObject({ updating: true, databases: [] });
    expect(cache.prepare('db:create("xx1")').analysis()).toMatchObject({ updating: true, databases: ['xx1'] });
  });

  test('take the values the parser gives their literals: line ends normalized, references resolved', () => {
    const cache = new PreparedQueries(8);
    const first = cache.prepare('"ab" || "cd" || "efgh"').translation('none');
    const crs = cache.prepare('"a\r" || "c\r" || "efgh"').translation('none');
    expect(crs.xslt).toBe(first.xslt);
    expect(crs.literals.map((l) => l.value).sort()).toEqual(['a\n', 'c\n', 'efgh']);
    const reference = cache.prepare('"ab" || "cd" || "&lt;"').translation('none');
    expect(reference.xslt).toBe(first.xslt);
    expect(reference.literals.map((l) => l.value).sort()).toEqual(['<', 'ab', 'cd']);
  });

  test('name the databases their own literals name', () => {
    const cache = new PreparedQueries(8);
    expect(cache.prepare('count(doc("db1/a.xml")//x) + 1').analysis().databases).toEqual(['db1']);
    expect(cache.prepare('count(doc("db2/a.xml")//x) + 2').analysis().databases).toEqual(['db2']);
  });

  describe('answered by the engine', () => {
    const e = engineFixture();
    test('with their own values, positions of errors and documents', async () => {
      expect(await e.adaptive('sum(for $i in 1 to 10 return $i * 3)')).toBe('165');
      expect(await e.adaptive('sum(for $i in 1 to 20 return $i * 7)')).toBe('1470');
      const ctx = doc('<r><item><name>ab</name></item><item><name>cd</name></item></r>');
      expect(await e.adaptive('count(//item[name = "ab"]), //item[name = "ab"]/name/string()', { context: ctx })).toBe('1\n"ab"');
      expect(await e.adaptive('count(//item[name = "cd"]), //item[name = "cd"]/name/string()', { context: ctx })).toBe('1\n"cd"');
      expect(await e.adaptive('count(//item[name = "zz"]), //item[name = "zz"]/name/string()', { context: ctx })).toBe('0');
      expect(await e.outcome('for $i in 1 to 3 return\n  $i div (3 - $i)', { kind: 'none' })).toBe('error FOAR0001');
      const [first, variant] = [await e.error('for $i in 1 to 3 return\n  $i idiv (3 - $i)'), await e.error('for $i in 1 to 4 return\n  $i idiv (4 - $i)')];
      expect([variant.code, variant.line, variant.column]).toEqual([first.code, first.line, first.column]);
      expect(variant.code).toBe('FOAR0001');
      expect(await e.outcome('for $i in 1 to 2 return\n  $i div (5 - $i)', { kind: 'none' })).toBe('ok 0.25\n0.66666666666666666667');
      expect(await e.outcome('"12" cast as xs:integer + 1', { kind: 'none' })).toBe('ok 13');
      expect(await e.outcome('"1x" cast as xs:integer + 1', { kind: 'none' })).toBe('error FORG0001');
    });
  });
});

/** `query` with every literal's characters changed: digits and letters rotated, kinds, lengths and delimiters kept. */
function variantOf(query: string): string | undefined {
  const shape = literalShape(query);
  if (!shape || shape.literals.length === 0) return undefined;
  let out = '';
  let at = 0;
  for (const l of shape.literals) {
    const inner = l.kind === 'StringLiteral' ? [l.start + 1, l.end - 1] : [l.start, l.end];
    out += query.slice(at, inner[0]);
    out += query.slice(inner[0], inner[1]).replace(/[0-9]/g, (d) => String((Number(d) + 3) % 10)).replace(/[a-y]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 1));
    at = inner[1];
  }
  return out + query.slice(at);
}

type Facet = { value: unknown } | { error: string };

function facet(step: () => unknown): Facet {
  try {
    return { value: step() };
  } catch (e) {
    return { error: String((e as { code?: string }).code ?? e) };
  }
}

/** What a translation is to a run: its texts, parameters and values. */
function runnable(t: Translation | undefined): unknown {
  if (t === undefined) return undefined;
  return { xslt: t.xslt, lines: t.lineOffsets, xpath: t.xpath, literals: t.literals, externals: t.externals, output: t.outputOptions, base: t.baseUri, copies: t.copiesConstructedElements };
}

function facets(p: PreparedQuery, mode: ContextMode): unknown {
  return {
    analysis: facet(() => p.analysis()),
    mixed: facet(() => p.analysis(true)),
    translation: facet(() => runnable(p.translation(mode))),
    first: facet(() => runnable(p.firstTranslation(mode))),
    stylesheet: facet(() => runnable(p.stylesheetTranslation(mode))),
    pure: facet(() => p.pure()),
    account: facet(() => p.usesAccount()),
  };
}

describeWithShared('literal variants of the QT3 queries', QT3_NEEDS, () => {
  const EVERY = 8;
  const cases = paritySlice(loadQt3Cases(), EVERY);
  it(`are prepared alike after the original and alone${sliceNote(EVERY)}`, () => {
    let compared = 0;
    for (const c of cases) {
      const variant = variantOf(c.query);
      if (variant === undefined) continue;
      for (const mode of ['none', 'single'] as const) {
        const shared = new PreparedQueries(4);
        facet(() => shared.prepare(c.query).translation(mode));
        const want = facets(new PreparedQueries(4).prepare(variant), mode);
        expect([c.name, mode, facets(shared.prepare(variant), mode)]).toEqual([c.name, mode, want]);
      }
      compared++;
    }
    expect(compared).toBeGreaterThan(cases.length / 4);
  });
});
