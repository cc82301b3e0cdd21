/**
 * The constant globals source patch (lib/saxon/patches/constant-globals.ts): found once in
 * saxon-js 2.7.0's script and refused elsewhere; only global variables built from literals are
 * marked; a patched saxon-js computes a marked variable once and unmarked ones in every transform;
 * the built-in compiler's constant tables are marked, and it compiles as before.
 */
import { KEPT, MARK, markConstantGlobals, patchConstantGlobals } from '../../lib/saxon/patches/constant-globals';
import { patchSaxonSource } from '../../lib/saxon/patches/source';
import { compileUncached } from '../../lib/xquery/worker/compile';
import type { SefTree } from '../../lib/saxon';
import { SAXON_SOURCE, saxonFrom } from '../helpers/saxon-instance';


const STYLESHEET = `<xsl:stylesheet xmlns:xsl="http://www.w3.org/1999/XSL/Transform" version="3.0">
<xsl:param name="p" select="'default'"/>
<xsl:variable name="table" select="map{'a': (1, 2.5, 'x'), 'b': map{'c': true()}}"/>
<xsl:variable name="fromParam" select="map{'p': $p}"/>
<xsl:variable name="fromCall" select="map{'n': string-length('abc')}"/>
<xsl:variable name="built"><e/></xsl:variable>
<xsl:template name="xsl:initial-template">
  <r><xsl:value-of select="$table?a, $table?b?c, $fromParam?p, $fromCall?n, count($built/e)" separator=","/></r>
</xsl:template>
</xsl:stylesheet>`;

const globalsOf = (sef: SefTree) => {
  const found = new Map<string, SefTree>();
  const visit = (node: SefTree): void => {
    if (node.N === 'globalVariable') found.set(String(node.name), node);
    for (const child of node.C ?? []) visit(child);
  };
  visit(sef);
  return found;
};

describe('the constant globals patch', () => {
  it("replaces saxon-js 2.7.0's global variable evaluation once, and refuses a text without it or with it twice", () => {
    expect(patchConstantGlobals(SAXON_SOURCE)).not.toBe(SAXON_SOURCE);
    expect(() => patchConstantGlobals('function E(){}')).toThrow(/constant globals patch/);
    const evaluation = 'try{const ua=d(t);T.value=a;T.value=ua(ia).expand()}';
    expect(() => patchConstantGlobals(evaluation + evaluation)).toThrow(/constant globals patch/);
  });

  it('marks the variables built from literals and maps of them, and no other', () => {
    const { sef } = compileUncached(STYLESHEET);
    expect(markConstantGlobals(sef)).toEqual(['Q{}table']);
    const globals = globalsOf(sef);
    expect(globals.get('Q{}table')?.[MARK]).toBe(true);
    for (const name of ['Q{}fromParam', 'Q{}fromCall', 'Q{}built']) expect(globals.get(name)?.[MARK]).toBeUndefined();
  });

  it('computes a marked variable once across transforms, and the others in each', () => {
    const { sef } = compileUncached(STYLESHEET);
    markConstantGlobals(sef);
    const saxon = saxonFrom(patchSaxonSource(SAXON_SOURCE));
    const run = (p: string) =>
      String(
        saxon.transform(
          {
            stylesheetInternal: sef,
            destination: 'serialized',
            initialTemplate: 'Q{http://www.w3.org/1999/XSL/Transform}initial-template',
            stylesheetParams: { 'Q{}p': p },
            outputProperties: { 'omit-xml-declaration': true },
          },
          'sync',
        ).principalResult,
      );
    expect(run('one')).toBe('<r>1,2.5,x,true,one,3,1</r>');
    const globals = globalsOf(sef);
    const kept = globals.get('Q{}table')?.[KEPT];
    expect(kept).toBeDefined();
    expect(globals.get('Q{}fromParam')?.[KEPT]).toBeUndefined();
    // the parameter's variable follows each transform's parameter; the kept value is the one reused
    expect(run('two')).toBe('<r>1,2.5,x,true,two,3,1</r>');
    expect(globals.get('Q{}table')?.[KEPT]).toBe(kept);
    // a variable marked by mistake would show it: its first value is kept (so only literals may be marked)
    globals.get('Q{}fromParam')![MARK] = true;
    expect(run('three')).toBe('<r>1,2.5,x,true,three,3,1</r>');
    expect(run('four')).toBe('<r>1,2.5,x,true,three,3,1</r>');
  });

  it("marks the built-in compiler's constant tables, its XSLT schema among them", () => {
    const compiler = saxonFrom(SAXON_SOURCE).getPlatform().resource('compiler');
    const marked = markConstantGlobals(compiler);
    expect(marked).toContain('Q{}xslt.schema');
    expect(marked).toContain('Q{}known-namespaces');
    expect(marked).not.toContain('Q{}roles');
    expect(marked).not.toContain('Q{}xslt.standard.attributes');
  });
});
