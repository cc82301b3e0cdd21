/** What every run of a translation shares (run-parts.ts): made once, and what each run would make. */
import { inlinePredicateLiterals, xpathToRun } from '../../../lib/xquery/language/translate';
import { literalBindings, runExpression, runSerialization } from '../../../lib/xquery/engine/run-parts';
import { contentTypeFor } from '../../../lib/xquery/serialization/response-encoding';
import { translate } from '../../helpers/translation';

describe('literal bindings', () => {
  test('each literal parameter bound to its value and type, the same read-only bindings on every run', () => {
    const t = translate('1 + "a" + 2.5');
    const bindings = literalBindings(t);
    expect(bindings.map(([param, b]) => [param, b.values, b.type])).toStrictEqual(t.literals.map((l) => [l.param, [l.value], l.type]));
    expect(bindings).toHaveLength(3);
    expect(literalBindings(t)).toBe(bindings);
    for (const [, b] of bindings) {
      expect(Object.isFrozen(b)).toBe(true);
      expect(Object.isFrozen(b.values)).toBe(true);
    }
  });

  test('another translation of the same text has its own bindings', () => {
    const a = translate('1 + 2');
    const b = translate('1 + 3');
    expect(literalBindings(a)).not.toBe(literalBindings(b));
    expect(literalBindings(b).map(([, x]) => x.values[0])).toStrictEqual(['1', '3']);
  });
});

describe('run expression', () => {
  test.each([
    ['arithmetic', '1 + 1', 'none'],
    ['a predicate with a literal', '//a[@b = "c"]/string()', 'multi'],
    ['a predicate, one document', '//a[@b = 3]', 'single'],
  ] as const)('%s: the expression and its inlined form, per context, made once', (_name, query, mode) => {
    const t = translate(query, mode);
    for (const database of [false, true]) {
      const run = runExpression(t, database);
      const expression = xpathToRun(t, database)!;
      expect(run).toStrictEqual({ expression, inlined: inlinePredicateLiterals(expression, t.literals) });
      expect(runExpression(t, database)).toBe(run);
    }
  });

  test('a database context and none are kept apart', () => {
    const t = translate('//a[@b = "c"]', 'multi');
    expect(runExpression(t, true).expression).not.toBe(runExpression(t, false).expression);
    expect(runExpression(t, false).expression).toBe(xpathToRun(t, false));
  });

  test('a query that is not one expression: nothing to run', () => {
    // a declared decimal format is a declaration of the query's own stylesheet
    const t = translate('declare decimal-format local:d decimal-separator = ","; 1');
    expect(runExpression(t, false)).toStrictEqual({});
  });

  test('a library run: the expression, not inlined (the library binds the literals)', () => {
    const t = translate('<a>{<b/>, 1}</a>');
    expect(t.xpath?.library).toBe(true);
    expect(runExpression(t, false)).toStrictEqual({ expression: xpathToRun(t, false) });
  });
});

describe('run serialization', () => {
  test('no parameters of the request: the prolog options and their type, kept', () => {
    const t = translate('declare option output:method "json"; 1');
    const plain = runSerialization(t, {});
    expect(plain).toStrictEqual({ serialization: { method: 'json' }, contentType: 'application/json; charset=UTF-8' });
    expect(runSerialization(t, {})).toBe(plain);
    expect(Object.isFrozen(plain.serialization)).toBe(true);
  });

  test('without a prolog option: the default type of query results', () => {
    expect(runSerialization(translate('1'), {})).toStrictEqual({ serialization: {}, contentType: contentTypeFor({}, 'application/xml') });
  });

  test("the request's parameters, the prolog's winning, each request its own", () => {
    const t = translate('declare option output:method "text"; 1');
    const a = runSerialization(t, { method: 'json', indent: 'yes' });
    expect(a).toStrictEqual({ serialization: { method: 'text', indent: 'yes' }, contentType: 'text/plain; charset=UTF-8' });
    const b = runSerialization(t, { encoding: 'ISO-8859-1' });
    expect(b).toStrictEqual({ serialization: { encoding: 'ISO-8859-1', method: 'text' }, contentType: 'text/plain; charset=ISO-8859-1' });
    // a request with parameters does not change what one without gets
    expect(runSerialization(t, {})).toStrictEqual({ serialization: { method: 'text' }, contentType: 'text/plain; charset=UTF-8' });
  });
});
