/**
 * The kept modes source patch (lib/saxon/patches/kept-modes.ts): found once in saxon-js 2.7.0's
 * script and refused elsewhere, and saxon-js as the engine loads it (patched: in the test runner by
 * scripts/jest-saxon.js), running one compiled tree again and again on other inputs, chooses
 * template rules (priorities, modes, next-match, built-in rules) as on the first run.
 */
import { patchKeptModes } from '../../lib/saxon/patches/kept-modes';
import { compileUncached } from '../../lib/xquery/worker/compile';
import { saxon } from '../../lib/saxon';
import { SAXON_SOURCE } from '../helpers/saxon-instance';

const INPUTS = ['<a><b>t</b><c/></a>', '<a><b x="1">u</b><d><c/></d></a>', '<b>v</b>', '<a>w<c/></a>'];

const STYLESHEET = `<xsl:stylesheet xmlns:xsl="http://www.w3.org/1999/XSL/Transform" version="3.0">
<xsl:param name="i" select="'0'"/>
<xsl:variable name="inputs">${INPUTS.join('')}</xsl:variable>
<xsl:mode name="m" on-no-match="shallow-skip"/>
<xsl:template name="xsl:initial-template">
  <r><xsl:apply-templates select="$inputs/*[number($i)]"/>|<xsl:apply-templates select="$inputs/*[number($i)]" mode="m"/></r>
</xsl:template>
<xsl:template match="*"><e n="{local-name()}"><xsl:apply-templates/></e></xsl:template>
<xsl:template match="b" priority="2"><B><xsl:next-match/></B></xsl:template>
<xsl:template match="b[@x]" priority="3"><X><xsl:next-match/></X></xsl:template>
<xsl:template match="text()"><xsl:value-of select="upper-case(.)"/></xsl:template>
<xsl:template match="c" mode="m"><C/></xsl:template>
</xsl:stylesheet>`;

const EXPECTED = [
  '<r><e n="a"><B><e n="b">T</e></B><e n="c"/></e>|<C/></r>',
  '<r><e n="a"><X><B><e n="b">U</e></B></X><e n="d"><e n="c"/></e></e>|<C/></r>',
  '<r><B><e n="b">V</e></B>|</r>',
  '<r><e n="a">W<e n="c"/></e>|<C/></r>',
];

describe('the kept modes patch', () => {
  it("replaces saxon-js 2.7.0's mode set-up once, and refuses a text without it or with it twice", () => {
    const patched = patchKeptModes(SAXON_SOURCE);
    expect(patched).not.toBe(SAXON_SOURCE);
    expect(patched).toContain('Si.kept');
    expect(() => patchKeptModes('function I(){}')).toThrow(/kept modes patch/);
    expect(() => patchKeptModes('y.mode=new Si(Y,ld);y.mode=new Si(Y,ld)')).toThrow(/kept modes patch/);
  });

  it('chooses template rules on every run of one tree as on the first', () => {
    const { sef } = compileUncached(STYLESHEET);
    const outputs = [1, 2, 3, 4, 1, 2, 3, 4].map((i) =>
      String(
        saxon().transform(
          {
            stylesheetInternal: sef,
            destination: 'serialized',
            initialTemplate: 'Q{http://www.w3.org/1999/XSL/Transform}initial-template',
            stylesheetParams: { 'Q{}i': String(i) },
            outputProperties: { 'omit-xml-declaration': true },
          },
          'sync',
        ).principalResult,
      ),
    );
    expect(outputs).toEqual([...EXPECTED, ...EXPECTED]);
  });
});
