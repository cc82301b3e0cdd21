/** BaseX's xslt: module over REST (functions/xslt.ts, guards/stylesheet-guard.ts). */
import request from 'supertest';
import { getQuery, queryBody, queryUrl, seedUsers, startTestServer, tempDir, type TestServer } from '../../helpers/rest';

const XSL = 'xmlns:xsl="http://www.w3.org/1999/XSL/Transform"';
const sheet = (body: string, extra = '') => `<xsl:stylesheet version="3.0" ${XSL}${extra}>${body}</xsl:stylesheet>`;
const COPY = sheet('<xsl:template match="/"><out><xsl:copy-of select="."/></out></xsl:template>');
const PARAM = sheet('<xsl:param name="p"/><xsl:template match="/"><r p="{$p}"><xsl:value-of select="count(//i)"/></r></xsl:template>');

let s: TestServer;
beforeAll(async () => {
  const dbPath = tempDir();
  await seedUsers(dbPath, [
    { name: 'admin', password: 'admin-pw', perm: 'admin' },
    { name: 'local', password: 'pw', perm: 'none', grants: [['pub*', 'read']] },
  ]);
  s = await startTestServer({ dbPath, queryTimeout: 2500 });
  await s.put('/rest/pub1', '<p><i>1</i><i>2</i></p>', 'application/xml').expect(201);
  await s.put('/rest/pub1/style.xsl', PARAM, 'application/xml').expect(201);
  await s.put('/rest/secret', '<s>hidden</s>', 'application/xml').expect(201);
  await s.put('/rest/secret/style.xsl', COPY, 'application/xml').expect(201);
});
afterAll(() => s.close());

const ok = (query: string) => queryBody(s, query);
const as = (user: string, query: string) => request(s.app).get(queryUrl(query)).auth(user, 'pw');
/** An XQuery string literal of `text`. */
const lit = (text: string) => `'${text.replace(/'/g, "''")}'`;

describe('xslt:transform and xslt:transform-text', () => {
  test('xslt:processor and xslt:version', async () => {
    expect(await ok('xslt:processor(), xslt:version()')).toBe('SaxonJS\n3.0');
  });

  test('input and stylesheet as nodes, XML strings or stored resources', async () => {
    expect(await ok(`xslt:transform(<a><b/></a>, ${lit(COPY)})`)).toBe('<out><a><b/></a></out>');
    expect(await ok(`xslt:transform('<a/>', parse-xml(${lit(COPY)}))`)).toBe('<out><a/></out>');
    expect(await ok(`xslt:transform('pub1/pub1.xml', 'pub1/style.xsl', map { 'p': 'x' })`)).toBe('<r p="x">2</r>');
    expect(await ok(`xslt:transform(db:get('pub1', 'pub1.xml'), 'pub1/style.xsl', map { xs:QName('p'): 7 }) instance of document-node()`)).toBe('true');
  });

  test('xslt:transform-text serializes as xsl:output says', async () => {
    const text = sheet('<xsl:output method="text"/><xsl:template match="/"><xsl:value-of select="string-join(//i, \'+\')"/></xsl:template>');
    expect(await ok(`xslt:transform-text(<p><i>1</i><i>2</i></p>, ${lit(text)})`)).toBe('1+2');
    expect(await ok(`xslt:transform-text(<a/>, ${lit(COPY)}) instance of xs:string`)).toBe('true');
  });

  test('stored documents are not changed by a stylesheet that strips space', async () => {
    const strip = sheet('<xsl:strip-space elements="*"/><xsl:template match="/"><n><xsl:value-of select="count(//text())"/></n></xsl:template>');
    await s.put('/rest/pub2', '<p> <i>1</i> </p>', 'application/xml').expect(201);
    expect(await ok(`xslt:transform('pub2/pub2.xml', ${lit(strip)})`)).toBe('<n>1</n>');
    expect(await ok('count(doc("pub2/pub2.xml")//text())')).toBe('3');
  });

  test('errors: xslt:error for stylesheets that do not compile or fail', async () => {
    expect((await getQuery(s, `xslt:transform(<a/>, ${lit(sheet('<xsl:template match="/"><xsl:value-of select="1 +"/></xsl:template>'))})`).expect(500)).text).toMatch(
      /^Stopped at \., 1\/1:\n\[xslt:error\] XPST0003: /,
    );
    expect((await getQuery(s, `xslt:transform(<a/>, ${lit(sheet('<xsl:template match="/"><xsl:sequence select="error((), \'bad\')"/></xsl:template>'))})`).expect(500)).text).toBe(
      'Stopped at ., 1/1:\n[xslt:error] FOER0000: bad',
    );
    expect((await getQuery(s, `xslt:transform('<a', ${lit(COPY)})`).expect(500)).text).toMatch(/\[FODC0006\] The input is not well-formed XML: /);
    expect((await getQuery(s, `xslt:transform(<a/>, 'pub1/none.xsl')`).expect(500)).text).toMatch(/\[FODC0002\]/);
  });
});

describe('stylesheets keep to the sandbox', () => {
  const refused = async (stylesheet: string, message: string) => {
    const r = await getQuery(s, `xslt:transform(<a/>, ${lit(stylesheet)})`).expect(500);
    expect(r.text).toBe(`Stopped at ., 1/1:\n[xslt:error] ${message}`);
  };
  const JS = ' xmlns:js="http://saxonica.com/ns/globalJS"';
  const IXSL = ' xmlns:ixsl="http://saxonica.com/ns/interactiveXSLT"';

  test('bindings of js:, ixsl: and saxon: are refused; calls by EQName find no such function', async () => {
    await refused(sheet('<xsl:template match="/"><xsl:value-of select="js:eval(\'1\')"/></xsl:template>', JS),
      'Namespace not allowed in stylesheets: xmlns:js="http://saxonica.com/ns/globalJS".');
    await refused(sheet('<xsl:template match="/"><ixsl:set-property name="x" select="1"/></xsl:template>', IXSL),
      'Namespace not allowed in stylesheets: xmlns:ixsl="http://saxonica.com/ns/interactiveXSLT".');
    await refused(sheet('<xsl:template match="/"><xsl:sequence select="Q{http://saxonica.com/ns/interactiveXSLT}window()"/></xsl:template>'),
      'XPST0017: Unknown function Q{http://saxonica.com/ns/interactiveXSLT}window()');
    await refused(sheet('<xsl:template match="/"><xsl:sequence select="Q{http://saxonica.com/ns/globalJS}eval#1"/></xsl:template>'),
      'XPST0017: Function Q{http://saxonica.com/ns/globalJS}eval#1 not found');
    await refused(sheet('<xsl:template match="/"><xsl:value-of select="Q{http://saxon.sf.net/}timestamp()"/></xsl:template>'),
      'Function not allowed in stylesheets: Q{http://saxon.sf.net/}timestamp().');
    await refused(sheet('<xsl:template match="/"><xsl:value-of select="Q{http://basex.org/modules/db}list()"/></xsl:template>'),
      'Function not allowed in stylesheets: Q{http://basex.org/modules/db}list().');
  });

  test('function-lookup, fn:transform, xsl:evaluate and xsl:result-document are refused', async () => {
    await refused(sheet('<xsl:template match="/"><xsl:value-of select="function-lookup(QName(\'http://saxonica.com/ns/interactiveXSLT\', \'window\'), 0)()"/></xsl:template>'),
      'Function not allowed in stylesheets: fn:function-lookup().');
    await refused(sheet('<xsl:template match="/"><xsl:sequence select="transform(map { })"/></xsl:template>'),
      'XPST0017: Unknown function Q{http://www.w3.org/2005/xpath-functions}transform()');
    await refused(sheet('<xsl:template match="/"><xsl:evaluate xpath="\'1\'"/></xsl:template>'), 'xsl:evaluate is not allowed in stylesheets.');
    await refused(sheet('<xsl:template match="/"><xsl:result-document href="x.xml"><x/></xsl:result-document></xsl:template>'),
      'xsl:result-document is not allowed in stylesheets.');
  });

  test('static expressions evaluated by the compiler may not name hidden functions', async () => {
    await refused(sheet('<xsl:template match="/" use-when="exists(Q{http://saxonica.com/ns/interactiveXSLT}window())"><x/></xsl:template>'),
      'Static expression not allowed in stylesheets: exists(Q{http://saxonica.com/ns/interactiveXSLT}window())');
    await refused(sheet('<xsl:variable name="v" static="yes" select="function-lookup(QName(\'u\', \'f\'), 0)"/><xsl:template match="/"><x/></xsl:template>'),
      "Static expression not allowed in stylesheets: function-lookup(QName('u', 'f'), 0)");
    await refused(sheet('<xsl:template match="/"><xsl:value-of _select="Q{http://saxonica.com/ns/globalJS}x()"/></xsl:template>'),
      'Static expression not allowed in stylesheets: Q{http://saxonica.com/ns/globalJS}x()');
    // an included module is checked as well
    await s.put('/rest/pub1/evil.xsl', sheet('<xsl:template match="a" use-when="Q{http://saxonica.com/ns/interactiveXSLT}page()"><x/></xsl:template>'), 'application/xml').expect(201);
    await refused(sheet('<xsl:include href="pub1/evil.xsl"/>'), 'Static expression not allowed in stylesheets: Q{http://saxonica.com/ns/interactiveXSLT}page()');
    await refused(sheet('<xsl:include xml:base="pub1/" href="evil.xsl"/>'), 'Static expression not allowed in stylesheets: Q{http://saxonica.com/ns/interactiveXSLT}page()');
    const imports = sheet('<xsl:import href="secret/style.xsl"/>');
    expect((await as('local', `xslt:transform(<a/>, ${lit(imports)})`).expect(500)).text).toBe(
      'Stopped at ., 1/1:\n[xslt:error] Stylesheet module cannot be read: file:///xmldb-rest/secret/style.xsl.',
    );
    expect(await ok(`xslt:transform(<a/>, ${lit(imports)})`)).toBe('<out><a/></out>');
  });

  test('a function of the stylesheet does not open the extension function of the same name', async () => {
    const own = '<xsl:function name="Q{http://saxonica.com/ns/interactiveXSLT}get"><xsl:param name="x"/><xsl:param name="y"/><xsl:sequence select="$x"/></xsl:function>';
    await refused(sheet(`${own}<xsl:template match="/"><xsl:sequence select="Q{http://saxonica.com/ns/interactiveXSLT}get(., \'x\')"/></xsl:template>`),
      'XPST0017: Unknown function Q{http://saxonica.com/ns/interactiveXSLT}get()');
    const mine = sheet('<xsl:function name="f:g" xmlns:f="urn:f"><xsl:param name="x"/><xsl:sequence select="$x * 2"/></xsl:function><xsl:template match="/"><r><xsl:value-of select="f:g#1(21)" xmlns:f="urn:f"/></r></xsl:template>');
    expect(await ok(`xslt:transform(<a/>, ${lit(mine)})`)).toBe('<r>42</r>');
  });

  test('host files stay out of reach', async () => {
    await refused(sheet('<xsl:template match="/"><xsl:value-of select="unparsed-text(\'file:///etc/passwd\')"/></xsl:template>'),
      "FOUT1170: Cannot retrieve unparsed-text file:///etc/passwd XError:Access to 'file:///etc/passwd' is denied.; code:FODC0002");
    await refused(sheet('<xsl:template match="/"><xsl:copy-of select="document(\'file:///etc/hosts\')"/></xsl:template>'),
      "FODC0002: Access to 'file:///etc/hosts' is denied.");
    expect((await getQuery(s, `xslt:transform(<a/>, 'file:///etc/passwd')`).expect(500)).text).toMatch(/\[FODC0002\] Access to 'file:\/\/\/etc\/passwd' is denied\./);
  });

  test('a database the user may not read is out of reach for the stylesheet and its inputs', async () => {
    expect((await as('local', `xslt:transform('pub1/pub1.xml', 'pub1/style.xsl', map { 'p': 1 })`).expect(200)).text).toBe('<r p="1">2</r>');
    expect((await as('local', `xslt:transform('secret/secret.xml', 'pub1/style.xsl')`).expect(500)).text).toMatch(/\[FODC0002\]/);
    expect((await as('local', `xslt:transform(<a/>, 'secret/style.xsl')`).expect(500)).text).toMatch(/\[FODC0002\] Access to 'file:\/\/\/xmldb-rest\/secret\/style\.xsl' is denied\./);
    const reads = sheet('<xsl:template match="/"><xsl:copy-of select="doc(\'secret/secret.xml\')"/></xsl:template>');
    expect((await as('local', `xslt:transform(<a/>, ${lit(reads)})`).expect(500)).text).toMatch(/\[xslt:error\] FODC0002: /);
    expect(await ok(`xslt:transform(<a/>, ${lit(reads)})`)).toBe('<s>hidden</s>');
  });

  test('a runaway stylesheet is stopped by the time limit', async () => {
    // a router of its own with a short limit: the loop takes a core until it is stopped
    const short = await startTestServer({ queryTimeout: 700 });
    try {
      const loop = sheet('<xsl:template match="/"><xsl:value-of select="count((1 to 100000000000)[. lt 0])"/></xsl:template>');
      expect((await getQuery(short, `xslt:transform(<a/>, ${lit(loop)})`).expect(500)).text).toBe('[BASX0003] Timeout exceeded (700 ms).');
      expect((await getQuery(short, 'xslt:version()').expect(200)).text).toBe('3.0');
    } finally {
      await short.close();
    }
  });
});
