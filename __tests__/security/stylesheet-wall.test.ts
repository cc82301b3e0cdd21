/**
 * The stylesheet wall (guards/stylesheet-guard.ts) of xslt:transform and xslt:transform-text:
 * a stylesheet that binds a hidden namespace, however it spells the prefix or the URI, or whose
 * static expressions call outside the allow-list, is refused before it is compiled, as an admin
 * and as a user with permission `none`. Then the check after compiling, alone: a stylesheet
 * compiled by a saxon-js that still has its host bindings (this test process's main thread,
 * where the engine wall is not applied) and never shown to the first check.
 */
import request from 'supertest';
import { compileUncached } from '../../lib/xquery/worker/compile';
import { compiledRefusal } from '../../lib/xquery/worker/guards/stylesheet-guard';
import { queryUrl, seedUsers, startTestServer, tempDir, type TestServer } from '../helpers/rest';

const IXSL = 'http://saxonica.com/ns/interactiveXSLT';
const GLOBAL_JS = 'http://saxonica.com/ns/globalJS';
const XSL = 'xmlns:xsl="http://www.w3.org/1999/XSL/Transform"';
const sheet = (body: string, extra = '') => `<xsl:stylesheet version="3.0" ${XSL}${extra}>${body}</xsl:stylesheet>`;
const template = (body: string) => `<xsl:template match="/">${body}</xsl:template>`;
/** An XQuery string literal of `text` (XQuery expands character references in string literals). */
const lit = (text: string) => `'${text.replace(/&/g, '&amp;').replace(/'/g, "''")}'`;

let s: TestServer;
beforeAll(async () => {
  const dbPath = tempDir();
  await seedUsers(dbPath, [
    { name: 'admin', password: 'admin-pw', perm: 'admin' },
    { name: 'nobody', password: 'pw', perm: 'none', grants: [['pub*', 'read']] },
  ]);
  s = await startTestServer({ dbPath });
  await s.put('/rest/pub', '<p/>', 'application/xml').expect(201);
  await s.put('/rest/pub/evil.xsl', sheet(template('<x/>'), ` xmlns:ïx="${IXSL}"`), 'application/xml').expect(201);
  await s.put('/rest/pub/static.xsl', sheet('<xsl:variable name="v" static="yes" select="db:list()"/>', ' xmlns:db="http://basex.org/modules/db"'), 'application/xml').expect(201);
});
afterAll(() => s.close());

const USERS = [
  ['admin', 'admin-pw'],
  ['nobody', 'pw'],
] as const;

const namespaceRefused = (declaration: string) => `Namespace not allowed in stylesheets: ${declaration}.`;
const staticRefused = (expression: string) => `Static expression not allowed in stylesheets: ${expression}`;

const REFUSED: ReadonlyArray<readonly [string, string, string]> = [
  [
    'a prefix of non-ASCII letters, called in a static variable',
    sheet(`<xsl:variable name="v" static="yes" select="iä:get(map{}, 'constructor')"/>${template('<x/>')}`, ` xmlns:iä="${IXSL}"`),
    namespaceRefused(`xmlns:iä="${IXSL}"`),
  ],
  ['a URI with a leading space', sheet(template('<x/>'), ` xmlns:i=" ${IXSL}"`), namespaceRefused(`xmlns:i=" ${IXSL}"`)],
  ['a URI with a trailing space', sheet(template('<x/>'), ` xmlns:i="${IXSL} "`), namespaceRefused(`xmlns:i="${IXSL} "`)],
  ['a URI with a space inside', sheet(template('<x/>'), ' xmlns:i="http://saxonica.com/ns/ interactiveXSLT"'), namespaceRefused('xmlns:i="http://saxonica.com/ns/ interactiveXSLT"')],
  ['a URI with a newline character', sheet(template('<x/>'), ` xmlns:j="&#10;${GLOBAL_JS}"`), namespaceRefused(`xmlns:j="&#10;${GLOBAL_JS}"`)],
  ['another case', sheet(template('<x/>'), ' xmlns:j="HTTP://SAXONICA.COM/ns/globalJS"'), namespaceRefused('xmlns:j="HTTP://SAXONICA.COM/ns/globalJS"')],
  ['the default namespace', sheet(template(`<set-property xmlns="${IXSL}" name="x" select="1"/>`)), namespaceRefused(`xmlns="${IXSL}"`)],
  ['a binding on a nested element', sheet(template(`<r><xsl:value-of xmlns:j="${GLOBAL_JS}" select="j:eval('1')"/></r>`)), namespaceRefused(`xmlns:j="${GLOBAL_JS}"`)],
  ["saxon's namespace", sheet(template('<xsl:value-of select="saxon:timestamp()"/>'), ' xmlns:saxon="http://saxon.sf.net/"'), namespaceRefused('xmlns:saxon="http://saxon.sf.net/"')],
  ['an included module', sheet('<xsl:include href="pub/evil.xsl"/>'), namespaceRefused(`xmlns:ïx="${IXSL}"`)],
  [
    'a static parameter calling an EQName',
    sheet(`<xsl:param name="p" static="yes" select="Q{ ${GLOBAL_JS} }eval('1')"/>${template('<x/>')}`),
    staticRefused(`Q{ ${GLOBAL_JS} }eval('1')`),
  ],
  [
    "a static variable calling the engine's modules",
    sheet(`<xsl:variable name="v" static="yes" select="xquery:eval('1')"/>${template('<x/>')}`, ' xmlns:xquery="http://basex.org/modules/xquery"'),
    staticRefused("xquery:eval('1')"),
  ],
  [
    'a variable whose static is a shadow attribute',
    sheet(`<xsl:variable name="v" _static="{true()}" select="xquery:eval('1')"/>${template('<x/>')}`, ' xmlns:xquery="http://basex.org/modules/xquery"'),
    staticRefused("xquery:eval('1')"),
  ],
  [
    'use-when with a non-ASCII prefix of a module namespace',
    sheet(template('<x xsl:use-when="dbé:list() => empty()"/>'), ' xmlns:dbé="http://basex.org/modules/db"'),
    staticRefused('dbé:list() => empty()'),
  ],
  ['use-when with an unbound prefix', sheet(`<xsl:template match="/" use-when="p:f()"><x/></xsl:template>`), staticRefused('p:f()')],
  ['a shadow attribute', sheet(template(`<xsl:value-of _select="Q{${GLOBAL_JS}}x()"/>`)), staticRefused(`Q{${GLOBAL_JS}}x()`)],
  ['a static variable of an included module', sheet('<xsl:include href="pub/static.xsl"/>'), staticRefused('db:list()')],
];

describe.each(USERS)('as %s', (user, password) => {
  const run = (query: string) => request(s.app).get(queryUrl(query)).auth(user, password);

  test.each(REFUSED)('refused: %s', async (_what, stylesheet, message) => {
    for (const f of ['transform', 'transform-text']) {
      const r = await run(`xslt:${f}(<a/>, ${lit(stylesheet)})`);
      expect(r.status).toBe(500);
      expect(r.text).toBe(`Stopped at ., 1/1:\n[xslt:error] ${message}`);
    }
  });

  test('a stylesheet within the allow-list still runs: standard prefixes in static expressions, its own functions', async () => {
    const fine = sheet(
      '<xsl:variable name="v" static="yes" select="fn:abs(-2) + math:pi() idiv 3"/>' +
        '<xsl:function name="f:g"><xsl:param name="x"/><xsl:sequence select="$x * $v"/></xsl:function>' +
        template('<r xsl:use-when="fn:true()"><xsl:value-of select="f:g(21), f:g#1(1)"/></r>'),
      ' xmlns:fn="http://www.w3.org/2005/xpath-functions" xmlns:math="http://www.w3.org/2005/xpath-functions/math" xmlns:f="urn:f" exclude-result-prefixes="#all"',
    );
    const r = await run(`xslt:transform(<a/>, ${lit(fine)})`);
    expect(r.status).toBe(200);
    expect(r.text).toBe('<r>63 3</r>');
  });
});

describe('after compiling, alone: a stylesheet compiled with the host bindings there', () => {
  test.each([
    ['an ixsl: function', sheet(template('<xsl:value-of select="ixsl:get(map{}, \'x\')"/>'), ` xmlns:ixsl="${IXSL}"`), `Function not allowed in stylesheets: Q{${IXSL}}get().`],
    ['a js: function', sheet(template('<xsl:value-of select="js:eval(\'1\')"/>'), ` xmlns:js="${GLOBAL_JS}"`), `Function not allowed in stylesheets: Q{${IXSL}}call().`],
    ['an ixsl: instruction', sheet(template('<ixsl:set-property name="x" select="1" object="map{}"/>'), ` xmlns:ixsl="${IXSL}"`), `Function not allowed in stylesheets: Q{${IXSL}}set-property().`],
    ['a reference', sheet(template('<xsl:sequence select="ixsl:page#0"/>'), ` xmlns:ixsl="${IXSL}"`), `Function not allowed in stylesheets: Q{${IXSL}}page().`],
  ])('%s is refused', (_what, stylesheet, message) => {
    expect(compiledRefusal(compileUncached(stylesheet).sef)).toBe(message);
  });
});
