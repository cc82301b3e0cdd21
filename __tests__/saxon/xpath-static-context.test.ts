/**
 * The XPath static context source patch (lib/saxon/patches/xpath-static-context.ts): found once
 * in saxon-js 2.7.0's script and refused elsewhere; with it (the test runner loads saxon-js
 * patched: scripts/jest-saxon.js), a compiled stylesheet's expressions still see its functions
 * and global variables, and saxon-js's own XPath evaluator, which gives no functions, still sees
 * the built-in ones and its parameters.
 */
import { patchXPathStaticContext } from '../../lib/saxon/patches/xpath-static-context';
import { compileUncached } from '../../lib/xquery/worker/compile';
import { saxon } from '../../lib/saxon';
import { SAXON_SOURCE } from '../helpers/saxon-instance';

const STYLESHEET = `<xsl:stylesheet xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:f="urn:f" version="3.0" exclude-result-prefixes="f">
<xsl:variable name="base" select="10"/>
<xsl:function name="f:twice"><xsl:param name="n"/><xsl:sequence select="2 * $n"/></xsl:function>
<xsl:function name="f:plus-base"><xsl:param name="n"/><xsl:sequence select="f:twice($n) + $base"/></xsl:function>
<xsl:template name="xsl:initial-template">
  <r><xsl:value-of select="f:plus-base(1), f:twice#1(4), function-lookup(xs:QName('f:twice'), 1)(5), count((1 to $base)[. mod 2 = 0])" separator=","
    xmlns:xs="http://www.w3.org/2001/XMLSchema"/></r>
</xsl:template>
</xsl:stylesheet>`;

describe('the XPath static context patch', () => {
  it("replaces saxon-js 2.7.0's static context set-up once, and refuses a text without it or with it twice", () => {
    expect(patchXPathStaticContext(SAXON_SOURCE)).not.toBe(SAXON_SOURCE);
    expect(() => patchXPathStaticContext('function f(){}')).toThrow(/XPath static context patch/);
    const setUp = 'if(!c.globalContext&&(d.Ta=e(m.fixed.xa),m=c.globalFunctions)){';
    expect(() => patchXPathStaticContext(setUp + setUp)).toThrow(/XPath static context patch/);
  });

  it('compiles a stylesheet whose expressions call its functions and read its variables', () => {
    const { sef } = compileUncached(STYLESHEET);
    const result = saxon().transform(
      { stylesheetInternal: sef, destination: 'serialized', initialTemplate: 'Q{http://www.w3.org/1999/XSL/Transform}initial-template', outputProperties: { 'omit-xml-declaration': true } },
      'sync',
    );
    expect(String(result.principalResult)).toBe('<r>12,8,10,5</r>');
  });

  it("leaves saxon-js's XPath evaluator its built-in functions and parameters", () => {
    const value = saxon().XPath.evaluate('string-join(for $i in 1 to xs:integer($n) return string($i * 2), "-")', null, { params: { n: 3 } });
    expect(value).toBe('2-4-6');
  });
});
