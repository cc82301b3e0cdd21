/**
 * The package walk source patch (lib/saxon/patches/package-walk.ts): found once in saxon-js
 * 2.7.0's script, refused elsewhere, and a patched saxon-js answers every transform of one tree as
 * the first, the global context item's checks included.
 */
import { patchPackageWalk } from '../../lib/saxon/patches/package-walk';
import { compileUncached } from '../../lib/xquery/worker/compile';
import { SAXON_SOURCE, saxonFrom } from '../helpers/saxon-instance';
import type { SaxonApi } from '../../lib/saxon/load';


const stylesheet = (body: string) =>
  `<xsl:stylesheet xmlns:xsl="http://www.w3.org/1999/XSL/Transform" version="3.0">${body}</xsl:stylesheet>`;

describe('the package walk patch', () => {
  it('replaces saxon-js 2.7.0\'s walk once, and refuses a text without it or with it twice', () => {
    const patched = patchPackageWalk(SAXON_SOURCE);
    expect(patched).not.toBe(SAXON_SOURCE);
    expect(patched.length).toBeGreaterThan(SAXON_SOURCE.length);
    expect(() => patchPackageWalk('function I(x,E,B){}')).toThrow(/package walk patch/);
    const twice = 'function I(x,E,B){function L(X,V){H(x,X,V)}';
    expect(() => patchPackageWalk(twice + twice)).toThrow(/package walk patch/);
  });

  describe('in a patched saxon-js', () => {
    let saxon: SaxonApi;
    beforeAll(() => {
      saxon = saxonFrom(patchPackageWalk(SAXON_SOURCE));
    });

    // one tree for every run, as the engine keeps a compiled query (primed by compile.ts)
    const run = (sef: object, options: Record<string, unknown> = {}) => {
      try {
        return String(saxon.transform({ stylesheetInternal: sef, destination: 'serialized', ...options }, 'sync').principalResult);
      } catch (e) {
        return `error ${(e as { code?: string }).code}`;
      }
    };

    it('runs one tree again and again as the first time', () => {
      const { sef } = compileUncached(stylesheet('<xsl:template name="xsl:initial-template"><r><xsl:value-of select="1 + 1"/></r></xsl:template>'));
      const outputs = [1, 2, 3].map(() => run(sef, { initialTemplate: 'Q{http://www.w3.org/1999/XSL/Transform}initial-template' }));
      expect(outputs).toEqual(Array(3).fill('<?xml version="1.0" encoding="UTF-8"?><r>2</r>'));
    });

    it('checks a required global context item on every transform, not only the first', () => {
      const { sef } = compileUncached(
        stylesheet('<xsl:global-context-item use="required" as="document-node()"/><xsl:variable name="n" select="count(//b)"/><xsl:template name="xsl:initial-template"><n><xsl:value-of select="$n"/></n></xsl:template>'),
      );
      const initialTemplate = 'Q{http://www.w3.org/1999/XSL/Transform}initial-template';
      const doc = saxon.getPlatform().parseXmlFromString('<a><b/><b/></a>');
      expect([run(sef, { initialTemplate }), run(sef, { initialTemplate, globalContextItem: doc }), run(sef, { initialTemplate })]).toEqual([
        'error XTDE3086',
        '<?xml version="1.0" encoding="UTF-8"?><n>2</n>',
        'error XTDE3086',
      ]);
    });
  });
});
