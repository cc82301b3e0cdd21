/**
 * A FLWOR that is a query's whole body and that engine:leaf-tuples evaluates is tried as that
 * call alone first (translate/translation.ts `Translation.xpath.first`, worker/evaluate.ts
 * `evaluateFirst`): its answer is the query's, found without parsing or compiling the FLWOR as
 * written; when the call declines, the query runs as before. The call's plan is a parameter, so
 * FLWORs of new shapes share one compiled call.
 */
import { applyQueryPatches } from '../../../lib/saxon/patches';
import { registerExtensionFunctions } from '../../../lib/xquery/functions/extension-functions';
import { CONTEXT_URI_PARAM, FIRST_DATA_PARAM, firstToRun, translateFirstCall, xpathToRun, type Translation } from '../../../lib/xquery/language/translate';
import { parseQuery } from '../../../lib/xquery/language/syntax';
import { CONTEXT_PARAM } from '../../../lib/xquery/constants';
import { engineFixture } from '../language/translate/helpers';
import { literalBindings } from '../../../lib/xquery/engine/run-parts';
import { evaluateFirst, evaluateXPath } from '../../../lib/xquery/worker/evaluate';
import { xpathCompilations } from '../../../lib/xquery/worker/xpath-plans';
import { serialize } from '../../../lib/xquery/serialization/serialize';
import type { StringBinding } from '../../../lib/xquery/worker/external-variables';
import { translate } from '../../helpers/translation';

applyQueryPatches();
registerExtensionFunctions();

const BASE = 'file:///xmldb-rest/';

describe('which queries try a call first', () => {
  test.each([
    ['a FLWOR over a range', 'for $i in 1 to 20 let $x := ($i * 7) mod 5 where $x = 1 order by $i descending return <r n="{$i}">{$x}</r>'],
    ['a FLWOR in parentheses', '(for $i in 1 to 3 return $i * 2)'],
    ['a FLWOR over the elements of a path', 'for $p in //item let $v := $p/v where $v > 1 order by $p/n return <x>{$v}</x>'],
  ])('%s: yes', (_name, query) => {
    const first = translate(query, 'multi').xpath?.first;
    expect(first).toBeDefined();
    // the plan is the call's parameter, not part of its text
    expect(first!.expression).toContain(`$${FIRST_DATA_PARAM}`);
    expect(first!.expression).not.toContain(first!.data);
    expect(JSON.parse(first!.data)).toEqual(expect.objectContaining({ clauses: expect.any(Array) }));
  });

  test.each([
    ['a FLWOR in a sequence', '(for $i in 1 to 3 return $i * 2), 1'],
    ['a FLWOR in a function call', 'count(for $i in 1 to 3 return $i * 2)'],
    ['a FLWOR reading an external variable', 'declare variable $k external := 2; for $i in 1 to 3 return $i * $k'],
    ['a FLWOR next to an external variable it does not read', 'declare variable $k external := 2; for $i in 1 to 3 return $i'],
    ['a FLWOR reading a declared variable', 'declare variable $k := 2; for $i in 1 to 3 return $i * $k'],
    ['a declared context item', 'declare context item := <a><item/></a>; for $p in //item return <x/>'],
    ['a FLWOR the call does not evaluate', 'for $i in 1 to 3 for $j in 1 to 2 return $i * $j'],
  ])('%s: no', (_name, query) => {
    const full = translate(query, 'multi');
    expect(full.xpath?.first).toBeUndefined();
    // translated once, in full: the translation the query runs with
    const made = translateFirstCall(parseQuery(query), query, { contextMode: 'multi' });
    expect('full' in made && [made.full.xpath, made.full.xslt, made.full.literals]).toEqual([full.xpath, full.xslt, full.literals]);
  });

  test('translated for the call alone: the same call and literals, without the FLWOR as written', () => {
    const query = 'for $i in 1 to 20 let $x := ($i * 7) mod 5 where $x = 1 order by $x descending, $i return <r n="{$i}">{$x}</r>';
    for (const mode of ['none', 'single', 'multi'] as const) {
      const full = translate(query, mode);
      const made = translateFirstCall(parseQuery(query), query, { contextMode: mode });
      if (!('alone' in made)) throw new Error(`no call tried first in mode ${mode}`);
      const alone = made.alone;
      expect(alone.xpath!.first).toEqual(full.xpath!.first);
      expect(alone.xpath!.offset).toBe(full.xpath!.offset);
      expect(alone.literals).toEqual(full.literals);
      expect(alone.externals).toEqual(full.externals);
      // the plain form (its sort among them) is what only the full translation has
      expect(full.xpath!.expression).toContain('exists(');
      expect(alone.xpath!.expression.length).toBeLessThan(full.xpath!.expression.length / 2);
      expect(() => alone.xslt).toThrow('no stylesheet');
    }
  });

  test('in the context the query runs in: one document, a database', () => {
    const t = translate('for $p in //item return <x>{$p/v}</x>', 'single');
    expect(firstToRun(t, false)!.expression).toBe(`$${CONTEXT_PARAM} ! (${t.xpath!.first!.expression})`);
    const m = translate('for $p in //item return <x>{$p/v}</x>', 'multi');
    expect(firstToRun(m, true)!.expression).toBe(`let $${CONTEXT_PARAM} := Q{urn:xmldb-rest:engine}collection($${CONTEXT_URI_PARAM}) return (${m.xpath!.first!.expression})`);
    expect(firstToRun(m, false)!.expression).toBe(m.xpath!.first!.expression);
  });
});

describe('the call answers what the query answers', () => {
  const bindings = (t: Translation): Record<string, StringBinding> => Object.fromEntries(literalBindings(t));
  const tried = (t: Translation) => {
    const first = firstToRun(t, false)!;
    return evaluateFirst({ expression: first.expression, params: { ...bindings(t), [FIRST_DATA_PARAM]: { values: [first.data] } } }, BASE, {});
  };
  const text = (value: unknown[]) => serialize(value as never, { method: 'adaptive', 'item-separator': '|' });

  // the reference: the FLWOR over `(1 to N, ())` (#…# marks the range), which the call does not take, run by the engine
  const e = engineFixture();
  test.each([
    ['order by and a constructor', 'for $i in #1 to 12# let $x := ($i * 7) mod 5 where $x mod 2 = 1 order by $x descending, $i return <r n="{$i}">{$x}</r>'],
    ['several lets, nested elements', 'for $i in #1 to 6# let $a := $i * 3 let $b := concat("k", $a mod 4) order by $b, $i descending return <row id="{$i}"><v>{$a}</v>{$b}</row>'],
    ['atomic values', 'for $i in #1 to 5# return ($i * 2, $i mod 3)'],
    ['no tuples', 'for $i in #1 to 5# where $i > 9 return $i'],
  ])('%s', async (_name, written) => {
    const t = translate(written.replace(/#/g, ''));
    const answer = tried(t);
    expect(answer).toBeDefined();
    const plain = written.replace(/#(.*?)#/, '($1, ())');
    expect(translate(plain).xpath?.first).toBeUndefined();
    expect(text(answer!)).toBe(await e.adaptive(plain, { serialization: { 'item-separator': '|' } }));
  });

  test('a call that declines answers nothing: the query as written raises its error', () => {
    const t = translate('for $i in 1 to 3 return $i idiv ($i - 2)');
    expect(tried(t)).toBeUndefined();
    expect(() => evaluateXPath(xpathToRun(t, false)!, BASE, { params: bindings(t) })).toThrow(expect.objectContaining({ code: 'FOAR0001' }));
  });

  test('FLWORs of new shapes share the compiled call: only the first compiles a plan', () => {
    const shape = (n: number) => `for $i in 1 to 40 let $a := ($i * ${n}) mod 7 where $a mod 3 = 1 order by $a descending return <e${n} k${n}="{$i}">{$a}</e${n}>`;
    expect(tried(translate(shape(1)))).toBeDefined();
    const before = xpathCompilations();
    for (const n of [2, 3, 4]) expect(text(tried(translate(shape(n)))!)).toMatch(new RegExp(`^<e${n} k${n}="\\d+">`));
    expect(xpathCompilations() - before).toBe(0);
  });
});
