/**
 * The lifting API (translate/lift.ts) end to end, as a construct family would use it: a
 * generated xsl:function receives the visible locals and the focus, and its XSLT body sees
 * them under the same names.
 */
import { CONTEXT_PARAM } from '../../../../lib/xquery/constants';
import { needsFocus } from '../../../../lib/xquery/language/translate/focus';
import { FOCUS_PARAMS, liftFunction, liftScope } from '../../../../lib/xquery/language/translate/lift';
import { xmlAttr } from '../../../../lib/xquery/language/translate/names';
import { Scope, StaticContext } from '../../../../lib/xquery/language/translate/scope';
import { TranslationUnit } from '../../../../lib/xquery/language/translate/unit';
import { parseQuery } from '../../../../lib/xquery/language/syntax';
import { QueryPool } from '../../../../lib/xquery/host/pool';
import { registerExtensionFunctions } from '../../../../lib/xquery/functions/extension-functions';

registerExtensionFunctions();

describe('translate: lifting', () => {
  let pool: QueryPool;
  beforeAll(() => {
    pool = new QueryPool({ size: 1 });
  });
  afterAll(async () => {
    await pool.close();
  });

  it('passes locals and the focus to a generated function', async () => {
    const source = 'for $x in (1, 2) return LIFTED';
    const unit = new TranslationUnit(source);
    const outer = Scope.root(new StaticContext(source), { kind: 'native' });
    const { scope, variable } = outer.bind({ local: 'x' }, 4);
    const inner = liftScope(scope, true);
    expect(inner.focus).toEqual({ kind: 'params', item: `$${FOCUS_PARAMS.item}`, position: `$${FOCUS_PARAMS.position}`, last: `$${FOCUS_PARAMS.last}` });
    if (inner.focus.kind !== 'params') throw new Error('params focus expected');
    const body = `<xsl:for-each select="${xmlAttr(inner.focus.item)}"><xsl:sequence select="${xmlAttr(`name(*), ${variable.ref} * 10, ${inner.focus.position}`)}"/></xsl:for-each>`;
    const call = liftFunction(unit, scope, body, true, { start: 24, end: 30 });
    expect(call).toBe(`Q{urn:xmldb-rest:gen}f1(${variable.ref}, ., position(), last())`);
    unit.addParam(`<xsl:param name="${CONTEXT_PARAM}" as="document-node()" required="yes"/>`, { start: 0, end: 0 });
    const template = `<xsl:for-each select="$${CONTEXT_PARAM}"><xsl:sequence select="${xmlAttr(`for ${variable.ref} in (1, 2) return ${call}`)}"/></xsl:for-each>`;
    const { xslt } = unit.assemble(template, { start: 0, end: source.length });
    const out = await pool.run({ xslt, context: { xml: ['<doc/>'] }, serialization: { method: 'adaptive' } });
    expect(out.body).toBe('"doc"\n10\n1\n"doc"\n20\n1');
  });

  it('keeps an absent focus absent and passes no focus when the body does not need it', () => {
    const source = '1';
    const unit = new TranslationUnit(source);
    const scope = Scope.root(new StaticContext(source), { kind: 'absent' });
    expect(liftScope(scope, true).focus).toEqual({ kind: 'absent' });
    expect(liftFunction(unit, scope, '<xsl:sequence select="1"/>', true)).toBe('Q{urn:xmldb-rest:gen}f1()');
    const native = scope.withFocus({ kind: 'native' });
    expect(liftScope(native, false).focus).toEqual({ kind: 'absent' });
    expect(liftFunction(unit, native, '<xsl:sequence select="2"/>', false)).toBe('Q{urn:xmldb-rest:gen}f2()');
  });

  it.each([
    ['.', true],
    ['a/b', true],
    ['/', true],
    ['name()', true],
    ['position#0', true],
    ['?key', true],
    ['$x/a', false],
    ['(1, 2) ! name()', false],
    ['$x[name() = "a"]', false],
    ['function() { . }', false],
    ['for $y in 1 return $y + string-length()', true],
    ['local:f()', false],
  ])('needsFocus(%s) = %s', (query, expected) => {
    expect(needsFocus(parseQuery(query).body)).toBe(expected);
  });
});
