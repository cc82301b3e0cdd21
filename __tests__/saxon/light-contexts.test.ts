/**
 * The context patch (lib/saxon/patches/light-contexts.ts): a child context in its parent's
 * variable frame is built without the constructor's discarded objects, with the fields the
 * original gives it; a new frame still comes from the original; and queries whose answers depend
 * on focus, variables and function calls in nested contexts answer as before.
 */
import { parseToSaxonDocument, saxon, type XdmNode } from '../../lib/saxon';
import { applyQueryPatches } from '../../lib/saxon/patches';

type Context = Record<string, unknown> & { newContext(frame?: boolean): Context };

const api = saxon() as unknown as {
  registerExtensionFunctions(def: { namespace: string; signatures: Record<string, { sig: string; impl: (args: unknown[], context: Context) => unknown }> }): void;
  internals: { Iter: { ForArray(items: unknown[]): unknown } };
};

/** The dynamic context saxon-js calls an extension function with (a context made by `newContext`). */
function someContext(): Context {
  let context: Context | undefined;
  api.registerExtensionFunctions({
    namespace: 'urn:test:light-contexts',
    signatures: {
      grab: {
        sig: '1F r[*] a[]',
        impl: (_args, c) => {
          context = c;
          return api.internals.Iter.ForArray([]);
        },
      },
    },
  });
  saxon().XPath.evaluate('(1, 2) ! Q{urn:test:light-contexts}grab()', null);
  return context!;
}

const XML = '<r><a n="1"><b>x</b><b>y</b></a><a n="2"><b>z</b></a><a n="3"/></r>';

/** Evaluates `expression` on `doc` and joins the string values of its items with `|`. */
function strings(expression: string, doc: XdmNode | null): string {
  const value = saxon().XPath.evaluate(expression, doc, { resultForm: 'array' }) as unknown[];
  return value.map((item) => String(item)).join('|');
}

const QUERIES: [string, string][] = [
  ['focus in nested steps', '/r/a ! (position() || ":" || last() || ":" || string-join(b ! (position() || "/" || last() || "=" || .), ","))'],
  ['paths from variables in a FLWOR', 'for $a in sort(/r/a, (), function($a) { -number($a/@n) })[b] return let $n := $a/@n return ($n || ":" || count($a/b))'],
  ['predicates reading outer variables', 'for $i in 1 to 3 return count(/r/a[@n = $i]/b[. != string($i)])'],
  ['recursive inline function', 'let $f := function($g, $n) { if ($n = 0) then 0 else $n + $g($g, $n - 1) } return $f($f, 10)'],
  ['higher-order functions over nodes', 'for-each(/r/a, function($a) { $a/b ! string() }) => string-join("+"), fold-left(/r/a/@n, 0, function($s, $n) { $s + $n })'],
  ['context-dependent functions in nested steps', '/r/a ! (name() || count(../a) || string(b[last()]) || string-join(b ! (name(..) || position())))'],
  ['map, sort and filter with a focus', 'sort(/r/a, (), function($a) { -count($a/b) }) ! @n, (/r/a/b)[position() = last()]'],
];

describe('light contexts', () => {
  const expected = new Map<string, string>();
  let original: Context['newContext'];
  beforeAll(() => {
    // what saxon-js answers, and the context method it has, before the patch
    const doc = parseToSaxonDocument(XML);
    for (const [name, q] of QUERIES) expected.set(name, strings(q, doc));
    original = Object.getPrototypeOf(someContext()).newContext;
    applyQueryPatches();
  });

  test('a child context in the same frame has the fields and values of the original one, without new objects', () => {
    const parent = someContext();
    expect(Object.getPrototypeOf(parent).newContext).not.toBe(original);
    const light = parent.newContext(false);
    const made = original.call(parent, false);
    expect(Object.keys(light).sort()).toEqual(Object.keys(made).sort());
    for (const key of Object.keys(made)) expect([key, light[key]]).toEqual([key, made[key]]);
    expect(light.b).toBe(parent);
    expect(light.localVars).toBe(parent.localVars);
    expect(light.localParams).toBe(parent.localParams);
    expect(light.depth).toBe((parent.depth as number) + 1);
    expect(light).toBeInstanceOf(parent.constructor as new () => unknown);
    expect(typeof light.getCurrentFocus).toBe('function');
  });

  test('a new variable frame still gets fresh tables and slots', () => {
    const parent = someContext();
    const framed = parent.newContext(true);
    expect(framed.b).toBe(parent);
    expect(framed.localVars).not.toBe(parent.localVars);
    expect(framed.localVars).toEqual([]);
    expect(framed.localParams).not.toBe(parent.localParams);
    expect(framed.currentMergeGroup).toBeNull();
  });

  test('applying the patches again keeps the one patched method', () => {
    const method = Object.getPrototypeOf(someContext()).newContext;
    applyQueryPatches();
    expect(Object.getPrototypeOf(someContext()).newContext).toBe(method);
  });

  test.each(QUERIES)('%s: the same answer as unpatched, twice', (name, q) => {
    const doc = parseToSaxonDocument(XML);
    expect(strings(q, doc)).toBe(expected.get(name));
    expect(strings(q, doc)).toBe(expected.get(name));
  });

  test('fixed answers', () => {
    const doc = parseToSaxonDocument(XML);
    expect(strings(QUERIES[0][1], doc)).toBe('1:3:1/2=x,2/2=y|2:3:1/1=z|3:3:');
    expect(strings(QUERIES[1][1], doc)).toBe('2:1|1:2');
    expect(strings(QUERIES[3][1], null)).toBe('55');
    expect(strings(QUERIES[5][1], doc)).toBe('a3ya1a2|a3za1|a3');
  });
});
