/**
 * The tunnel parameter source patch (lib/saxon/patches/tunnel-params.ts): found once in saxon-js
 * 2.7.0's script, refused elsewhere, and a patched saxon-js passes template parameters (tunnel
 * and local, through call-template, apply-templates and next-match) exactly as the original does.
 */
import { patchTunnelParams } from '../../lib/saxon/patches/tunnel-params';
import { patchSaxonSource } from '../../lib/saxon/patches/source';
import { compileUncached } from '../../lib/xquery/worker/compile';
import { SAXON_SOURCE, saxonFrom } from '../helpers/saxon-instance';
import type { SaxonApi } from '../../lib/saxon/load';


const STYLESHEET = `<xsl:stylesheet xmlns:xsl="http://www.w3.org/1999/XSL/Transform" version="3.0">
<xsl:template name="xsl:initial-template">
  <r>
    <xsl:call-template name="a">
      <xsl:with-param name="t" select="'outer'" tunnel="yes"/>
      <xsl:with-param name="u" select="'u1'" tunnel="yes"/>
    </xsl:call-template>
  </r>
</xsl:template>
<xsl:template name="a">
  <xsl:param name="t" tunnel="yes"/>
  <a t="{$t}">
    <xsl:call-template name="b">
      <xsl:with-param name="t" select="'inner'" tunnel="yes"/>
      <xsl:with-param name="p" select="'local'"/>
    </xsl:call-template>
    <xsl:call-template name="c"/>
    <xsl:variable name="n"><x/></xsl:variable>
    <xsl:apply-templates select="$n/x" mode="m">
      <xsl:with-param name="v" select="'applied'" tunnel="yes"/>
    </xsl:apply-templates>
    <xsl:call-template name="c"/>
  </a>
</xsl:template>
<xsl:template name="b">
  <xsl:param name="t" tunnel="yes"/>
  <xsl:param name="p"/>
  <xsl:param name="u" tunnel="yes"/>
  <b t="{$t}" p="{$p}" u="{$u}"><xsl:call-template name="c"/></b>
</xsl:template>
<xsl:template name="c">
  <xsl:param name="t" tunnel="yes"/>
  <xsl:param name="p" tunnel="yes" select="'none'"/>
  <xsl:param name="v" tunnel="yes" select="'none'"/>
  <c t="{$t}" p="{$p}" v="{$v}"/>
</xsl:template>
<xsl:template match="x" mode="m" priority="2">
  <xsl:param name="v" tunnel="yes"/>
  <m v="{$v}"><xsl:next-match><xsl:with-param name="t" select="'next'" tunnel="yes"/></xsl:next-match></m>
</xsl:template>
<xsl:template match="x" mode="m" priority="1">
  <xsl:param name="t" tunnel="yes"/>
  <xsl:param name="v" tunnel="yes"/>
  <n t="{$t}" v="{$v}"><xsl:call-template name="c"/></n>
</xsl:template>
</xsl:stylesheet>`;

const EXPECTED =
  '<r><a t="outer"><b t="inner" p="local" u="u1"><c t="inner" p="none" v="none"/></b><c t="outer" p="none" v="none"/>' +
  '<m v="applied"><n t="next" v="applied"><c t="next" p="none" v="applied"/></n></m><c t="outer" p="none" v="none"/></a></r>';

describe('the tunnel parameter patch', () => {
  it("replaces saxon-js 2.7.0's parameter set-up once, and refuses a text without it or with it twice", () => {
    const patched = patchTunnelParams(SAXON_SOURCE);
    expect(patched).not.toBe(SAXON_SOURCE);
    expect(patched).not.toContain('F.tunnelParams.forAllPairs(');
    expect(() => patchTunnelParams('function v(k,F,T){}')).toThrow(/tunnel parameter patch/);
    const start = SAXON_SOURCE.indexOf('function v(k,F,T){k=z(k,"withParam")');
    const setUp = SAXON_SOURCE.slice(start, SAXON_SOURCE.indexOf('T.tunnelParams=t[1]}', start) + 'T.tunnelParams=t[1]}'.length);
    expect(() => patchTunnelParams(setUp + setUp)).toThrow(/tunnel parameter patch/);
  });

  it('passes tunnel and local parameters as the original saxon-js does', () => {
    const { sef } = compileUncached(STYLESHEET);
    const run = (saxon: SaxonApi) =>
      String(
        saxon.transform(
          { stylesheetInternal: sef, destination: 'serialized', initialTemplate: 'Q{http://www.w3.org/1999/XSL/Transform}initial-template', outputProperties: { 'omit-xml-declaration': true } },
          'sync',
        ).principalResult,
      );
    expect(run(saxonFrom(SAXON_SOURCE))).toBe(EXPECTED);
    expect(run(saxonFrom(patchSaxonSource(SAXON_SOURCE)))).toBe(EXPECTED);
  });
});
