/**
 * A kept XPath plan (xpath-plans.ts) answers what saxon-js's XPath.evaluate answers for the same
 * expression and parameters: values, errors (code and message), the static base URI of each run,
 * and parameters that change between runs of one plan.
 */
import { saxon } from '../../../lib/saxon';
import { applyQueryPatches } from '../../../lib/saxon/patches';
import { registerExtensionFunctions } from '../../../lib/xquery/functions/extension-functions';
import { bindStrings, type StringBinding } from '../../../lib/xquery/worker/external-variables';
import { serialize } from '../../../lib/xquery/serialization/serialize';
import { evaluatePlanned, xpathCompilations } from '../../../lib/xquery/worker/xpath-plans';
import { compileXPath } from '../../../lib/saxon/xpath-plan';

applyQueryPatches();
registerExtensionFunctions();

const NAMESPACES = { xs: 'http://www.w3.org/2001/XMLSchema' };
const LIT = 'urn:xmldb-rest:lit';

function params(bindings: Record<string, StringBinding>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(bindings).map(([name, b]) => [name, bindStrings(name, b)]));
}

/** The serialized answer or `[CODE] message` of one evaluation. */
function outcome(run: () => unknown): string {
  try {
    const value = run();
    const items = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
    return serialize(items, { method: 'adaptive', 'item-separator': '|' });
  } catch (e) {
    const error = e as { code?: string; message?: string };
    return `[${error.code}] ${error.message}`;
  }
}

function planned(expression: string, bindings: Record<string, StringBinding> = {}, baseUri = 'file:///xmldb-rest/'): string {
  return outcome(() => evaluatePlanned(expression, { params: params(bindings), staticBaseURI: baseUri, namespaceContext: NAMESPACES }));
}

function direct(expression: string, bindings: Record<string, StringBinding> = {}, baseUri = 'file:///xmldb-rest/'): string {
  const options = { params: params(bindings), resultForm: 'xdm', staticBaseURI: baseUri, namespaceContext: NAMESPACES };
  return outcome(() => saxon().XPath.evaluate(expression, null, options));
}

const p1 = `Q{${LIT}}p1`;
const p2 = `Q{${LIT}}p2`;
const sum = `($${p1} + $${p2})`;

describe('a kept XPath plan', () => {
  test.each<[string, Record<string, StringBinding>]>([
    ['integers', { [p1]: { values: ['1'], type: 'xs:integer' }, [p2]: { values: ['1'], type: 'xs:integer' } }],
    ['a decimal', { [p1]: { values: ['1'], type: 'xs:integer' }, [p2]: { values: ['2.5'], type: 'xs:decimal' } }],
    ['a double NaN', { [p1]: { values: ['NaN'], type: 'xs:double' }, [p2]: { values: ['1'], type: 'xs:integer' } }],
    ['a string (type error)', { [p1]: { values: ['a'], type: 'xs:string' }, [p2]: { values: ['1'], type: 'xs:integer' } }],
    ['an empty sequence', { [p1]: { values: [], type: 'xs:integer*' }, [p2]: { values: ['1'], type: 'xs:integer' } }],
    ['two items (type error)', { [p1]: { values: ['1', '2'], type: 'xs:integer*' }, [p2]: { values: ['1'], type: 'xs:integer' } }],
    ['untyped', { [p1]: { values: ['3'], type: 'xs:untypedAtomic' }, [p2]: { values: ['1'], type: 'xs:integer' } }],
  ])('runs with new parameters each time: %s', (_name, bindings) => {
    // the first run of the loop may compile, the others use the plan; all answer as XPath.evaluate
    for (let i = 0; i < 3; i++) expect(planned(sum, bindings)).toBe(direct(sum, bindings));
  });

  test('answers the values of each run, not those it was compiled with', () => {
    const int = (v: string) => ({ values: [v], type: 'xs:integer' });
    expect(planned(sum, { [p1]: int('1'), [p2]: int('1') })).toBe('2');
    expect(planned(sum, { [p1]: int('40'), [p2]: int('2') })).toBe('42');
  });

  test('takes the static base URI of each run', () => {
    expect(planned('string(static-base-uri())', {}, 'file:///a/')).toBe('"file:///a/"');
    expect(planned('string(static-base-uri())', {}, 'file:///b/')).toBe('"file:///b/"');
  });

  test.each([
    ['a dynamic error', '1 div 0'],
    ['no context item', '.'],
    ['a syntax error', '1 +'],
    ['an unknown function', 'local:nothing()'],
    ['a type error known statically', '"a" + 1'],
    ['names in no namespace', '$x * 2'],
    ['collations: distinct-values', 'distinct-values((1.2, xs:float(1.2), "a", "a"))'],
    ['collations: compare, sort, index-of, min, contains, deep-equal', 'compare("a", "b"), sort(("b", "a")), index-of(("a", "b"), "b"), min(("b", "a")), contains("abc", "b"), deep-equal("a", "a")'],
    ['a collation named', 'compare("a", "A", "http://www.w3.org/2005/xpath-functions/collation/html-ascii-case-insensitive")'],
    ['an unknown collation', 'compare("a", "A", "urn:none")'],
    ['the default collation', 'default-collation()'],
  ])('%s: the same answer or error, twice', (_name, expression) => {
    const bindings: Record<string, StringBinding> = expression.includes('$x') ? { x: { values: ['21'], type: 'xs:integer' } } : {};
    const expected = direct(expression, bindings);
    expect(planned(expression, bindings)).toBe(expected);
    expect(planned(expression, bindings)).toBe(expected);
  });

  test.each([
    ['let', `let $v := $${p1} return $v * $${p2}`],
    ['for', `for $v in ($${p1}, $${p2}) return $v * 2`],
    ['some', `some $v in ($${p1}, $${p2}) satisfies $v = 3`],
    ['a simple map', `($${p1}, $${p2}) ! (. + 1)`],
  ])('binds variables of its own (%s) beside the parameters', (_name, expression) => {
    const int = (v: string) => ({ values: [v], type: 'xs:integer' });
    for (const [a, b] of [['1', '2'], ['3', '4']]) {
      const bindings = { [p1]: int(a), [p2]: int(b) };
      expect(planned(expression, bindings)).toBe(direct(expression, bindings));
    }
  });

  test('one expression run with other parameter names in turn: each run answers as XPath.evaluate', () => {
    // a plan is kept per expression for the names it was compiled with; other names compile anew
    const int = (v: string) => ({ values: [v], type: 'xs:integer' });
    const runs: Record<string, StringBinding>[] = [{ x: int('1') }, { x: int('2'), y: int('5') }, {}, { x: int('3') }, { y: int('4'), x: int('6') }];
    for (const bindings of [...runs, ...runs]) expect(planned('$x * 2', bindings)).toBe(direct('$x * 2', bindings));
    expect(planned('$x * 2', { x: int('3'), y: int('1') })).toBe('6');
  });

  test('a variable left unbound is the error XPath.evaluate raises', () => {
    const expected = direct('$x * 2');
    expect(expected).toMatch(/^\[XPST0008\]/);
    expect(planned('$x * 2', { x: { values: ['1'], type: 'xs:integer' } })).toBe('2');
    expect(planned('$x * 2')).toBe(expected);
  });

  test.each([
    ['a top-level comma', '1, distinct-values(("a", "a")), 3'],
    ['a for expression and a comma', 'for $i in 1 to 2 return $i * 2, 5'],
    ['an if expression and a comma', 'if (true()) then 1 else 2, compare("a", "b")'],
    ['a quantified expression', 'some $v in ("a", "b") satisfies $v = "b"'],
    ['a comment at the end', '1 + 1 (: a comment :)'],
  ])('%s: the whole expression runs after the collations, as XPath.evaluate answers it', (_name, expression) => {
    const expected = direct(expression);
    expect(planned(expression)).toBe(expected);
    expect(planned(expression)).toBe(expected);
  });

  test('gives the collations in the condition of a conditional, not as a member of a sequence', () => {
    // saxon-js keeps every run's sequence constructor reachable until a full collection (see xpath-plan.ts)
    const plan = compileXPath('1 + 1', {}, {}) as unknown as { C: { N: string; C: { N: string; name?: string }[] }[] };
    expect(plan.C[0].N).toBe('choose');
    expect(plan.C[0].C[0]).toMatchObject({ N: 'ifCall', name: 'Q{urn:xmldb-rest:xpath-plan}collations' });
  });
});

describe('a query with literals in its predicates, and its shape', () => {
  const bindings = (value: string) => ({ [p1]: { values: [value], type: 'xs:integer' } });
  /** Runs `shape` with its parameter written in as `value` (as the engine sends it), answering and counting compilations. */
  const run = (shape: string, value: string) => {
    const before = xpathCompilations();
    const answer = outcome(() => evaluatePlanned(shape.replace(`$${p1}`, value), { params: params(bindings(value)), staticBaseURI: 'file:///x/', namespaceContext: NAMESPACES }, shape));
    return { answer, compiled: xpathCompilations() - before };
  };

  test('a shape whose runs cost less than a compilation runs on its own plan for every new literal', () => {
    const shape = `count((1 to 20)[. mod 5 = $${p1}])`;
    // first sight: the literal written in; then the shape's plan, compiled once. (A run that a
    // pause of the garbage collector, or a busy machine, made slower than a compilation has the
    // next literal written in: the count allows a few of those, far below one per literal.)
    const literals = ['1', '2', '0', '7', '3', '4', '8', '9', '10', '11', '12', '13'];
    const runs = literals.map((value) => run(shape, value));
    expect(runs.map((r) => r.answer)).toEqual(literals.map((value) => (Number(value) < 5 ? '4' : '0')));
    expect(runs.reduce((n, r) => n + r.compiled, 0)).toBeLessThanOrEqual(literals.length / 2);
    // a text compiled before runs on its own plan
    expect(run(shape, '1')).toEqual({ answer: '4', compiled: 0 });
  });

  test('one slow run of a cheap shape does not make the next literal compile (the least of its last runs counts)', () => {
    const shape = `count((1 to $${p1})[. mod 7 = 0])`;
    // cheap runs, as many as the shape's recent runs, so that their least is a quiet one on a busy machine too
    const values = ['20', '21', '22', '24', '25', '26'];
    for (const value of values) run(shape, value);
    // a run over 300,000 numbers on the shape's plan takes far longer than a compilation
    expect(run(shape, '300000')).toEqual({ answer: '42857', compiled: 0 });
    expect(run(shape, '23')).toEqual({ answer: '3', compiled: 0 });
  });

  test('a shape whose runs cost more than a compilation has each new literal written in', () => {
    const shape = `count((1 to 40000)[. mod 7 = $${p1}])`;
    expect(run(shape, '1')).toEqual({ answer: '5715', compiled: 1 });
    expect(run(shape, '2')).toEqual({ answer: '5715', compiled: 1 });
    expect(run(shape, '3')).toEqual({ answer: '5714', compiled: 1 });
  });
});

describe('which plans are kept', () => {
  test('a text run once leaves no plan behind; it is kept from its second run on', () => {
    const text = 'string-join(for $i in 1 to 3 return string($i * 17), "-")';
    const runs = [1, 2, 3, 4].map(() => {
      const before = xpathCompilations();
      const answer = planned(text);
      return [answer, xpathCompilations() - before];
    });
    expect(runs).toEqual([
      ['"17-34-51"', 1],
      ['"17-34-51"', 1],
      ['"17-34-51"', 0],
      ['"17-34-51"', 0],
    ]);
  });
});
