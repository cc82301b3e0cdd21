/**
 * The engine wall of the query sandbox (lib/saxon/patches/host-bindings.ts), alone: a fresh
 * thread applies that patch and nothing else (no translator, no stylesheet guard, no host wall),
 * then hands saxon-js raw XPath, stylesheets and compiled trees that call its host bindings.
 * Then the same attacks through the router, on several routes, as an admin and as a user with
 * permission `none`: refused, never a JavaScript value.
 */
import request from 'supertest';
import { inFreshThread } from '../helpers/fresh-thread';
import { queryRoutes, type SendQuery } from '../helpers/query-routes';
import { seedUsers, startTestServer, tempDir, type TestServer } from '../helpers/rest';

const IXSL = 'http://saxonica.com/ns/interactiveXSLT';
const GLOBAL_JS = 'http://saxonica.com/ns/globalJS';

/** The results of the attacks in a thread where only the engine wall stands. */
let engine: Record<string, string>;

beforeAll(async () => {
  engine = (await inFreshThread(`
    const saxon = lib('saxon').saxon();
    const { removeHostBindings } = lib('saxon/patches/host-bindings');
    const { compileUncached } = lib('xquery/worker/compile');
    const IXSL = ${JSON.stringify(IXSL)}, GLOBAL_JS = ${JSON.stringify(GLOBAL_JS)};
    const out = {};
    const attempt = (name, f) => {
      try { out[name] = String(f()); } catch (e) { out[name] = 'error ' + e.code + ' ' + e.message; }
    };
    // compiled while the bindings are there, run after they are gone
    const compiledCall = saxon.XPath.compile('Q{' + IXSL + '}get(map{}, "constructor")', {}, true);
    const compiledJs = saxon.XPath.compile('Q{' + GLOBAL_JS + '}Math.max(1, 2)', {}, true);
    // a saxon-js whose tables are not 2.7.0's is refused, and left as it is
    saxon.internals.NsConst.mi = 'urn:other';
    attempt('other version', () => removeHostBindings());
    saxon.internals.NsConst.mi = GLOBAL_JS;
    removeHostBindings();
    removeHostBindings(); // idempotent

    const xpath = (e) => saxon.XPath.evaluate(e, null);
    attempt('ixsl:get', () => xpath('Q{' + IXSL + '}get(map{}, "constructor")'));
    attempt('ixsl prefix', () => xpath('ixsl:window()'));
    attempt('globalJS', () => xpath('Q{' + GLOBAL_JS + '}eval("1+41")'));
    attempt('reference', () => xpath('Q{' + IXSL + '}apply#2'));
    attempt('function-lookup', () => xpath('exists(function-lookup(QName("' + IXSL + '", "get"), 2))'));
    attempt('fn:transform', () => xpath('transform(map { "package-text": "{}" })'));
    attempt('compiled call', () => saxon.XPath.evaluateOnly(compiledCall, null, {}));
    attempt('compiled globalJS', () => saxon.XPath.evaluateOnly(compiledJs, null, {}));

    const stylesheet = (body, top = '') =>
      '<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:ixsl="' + IXSL + '" xmlns:js="' + GLOBAL_JS + '">' + top +
      '<xsl:template name="xsl:initial-template">' + body + '</xsl:template></xsl:stylesheet>';
    const run = (text) => {
      const sheet = compileUncached(text);
      return saxon.transform({ stylesheetInternal: sheet.sef, destination: 'serialized', initialTemplate: 'Q{http://www.w3.org/1999/XSL/Transform}initial-template' }, 'sync').principalResult.replace(/^<[?].*?[?]>/, '');
    };
    attempt('xsl ixsl:get', () => run(stylesheet('<xsl:value-of select="ixsl:get(map{}, \\'constructor\\')"/>')));
    attempt('xsl js:', () => run(stylesheet('<xsl:value-of select="js:Math.max(1, 2)"/>')));
    attempt('xsl set-property', () => run(stylesheet('<ixsl:set-property name="x" select="1" object="map{}"/>')));
    attempt('xsl extension element', () => run(stylesheet('<ixsl:set-property name="x" select="1" object="map{}" xsl:extension-element-prefixes="ixsl"/>')));
    attempt('xsl schedule-action', () => run(stylesheet('<ixsl:schedule-action wait="1"><xsl:sequence select="1"/></ixsl:schedule-action>')));
    attempt('xsl static variable', () => run(stylesheet('<xsl:value-of select="$v"/>', '<xsl:variable name="v" static="yes" select="ixsl:get(map{}, \\'constructor\\')"/>')));
    attempt('xsl use-when', () => run(stylesheet('<xsl:value-of use-when="exists(ixsl:window())" select="1"/>')));
    attempt('xsl:evaluate', () => run(stylesheet('<xsl:evaluate xpath="\\'Q{' + IXSL + '}window()\\'"/>')));
    attempt('function-available', () => run(stylesheet('<xsl:value-of select="function-available(\\'ixsl:get\\'), function-available(\\'transform\\'), function-available(\\'concat\\')"/>')));
    attempt('still XSLT', () => run(stylesheet('<xsl:value-of select="upper-case(\\'ok\\')"/>')));
    return out;
  `)) as Record<string, string>;
}, 60_000);

describe('the engine wall alone: saxon-js without its host bindings', () => {
  test('a saxon-js whose tables differ from 2.7.0 is refused', () => {
    expect(engine['other version']).toMatch(/^error undefined saxon-js host-bindings patch: the function tables of saxon-js 2\.7\.0 was not found; review lib\/saxon\/patches\/host-bindings\.ts/);
  });

  test('raw XPath finds no ixsl: or globalJS function, nor fn:transform', () => {
    expect(engine['ixsl:get']).toBe(`error XPST0017 Unknown function Q{${IXSL}}get()`);
    expect(engine['ixsl prefix']).toBe(`error XPST0017 Unknown function Q{${IXSL}}window()`);
    expect(engine.globalJS).toBe(`error XPST0017 Unknown function Q{${GLOBAL_JS}}eval()`);
    expect(engine.reference).toBe(`error XPST0017 Function Q{${IXSL}}apply#2 not found`);
    expect(engine['function-lookup']).toBe('false');
    expect(engine['fn:transform']).toBe('error XPST0017 Unknown function Q{http://www.w3.org/2005/xpath-functions}transform()');
  });

  test('XPath compiled at run time finds none either', () => {
    expect(engine['xsl:evaluate']).toBe(`error XPST0017 Unknown function Q{${IXSL}}window()`);
  });

  test('a tree compiled while they were there finds no dispatcher for them', () => {
    expect(engine['compiled call']).toBe(`error SXJS0003 Unknown function namespace ${IXSL}`);
    expect(engine['compiled globalJS']).toBe(`error SXJS0003 Unknown function namespace ${IXSL}`);
  });

  test('stylesheets: ixsl: functions and instructions are static errors, in static expressions too', () => {
    expect(engine['xsl ixsl:get']).toMatch(/^error XPST0017 .*Unknown function Q\{http:\/\/saxonica\.com\/ns\/interactiveXSLT\}get\(\)/);
    expect(engine['xsl js:']).toMatch(/^error XPST0017 .*Unknown function Q\{http:\/\/saxonica\.com\/ns\/globalJS\}Math\.max\(\)/);
    const instruction = (name: string) => `error XTSE0010 Unknown XSLT instruction ixsl:${name}: saxon-js's host bindings are not available.`;
    expect(engine['xsl set-property']).toBe(instruction('set-property'));
    expect(engine['xsl extension element']).toBe(instruction('set-property'));
    expect(engine['xsl schedule-action']).toBe(instruction('schedule-action'));
    expect(engine['xsl static variable']).toMatch(/^error XPST0017 .*Unknown function Q\{http:\/\/saxonica\.com\/ns\/interactiveXSLT\}get\(\)/);
    expect(engine['xsl use-when']).toMatch(/^error XPST0017 .*Unknown function Q\{http:\/\/saxonica\.com\/ns\/interactiveXSLT\}window\(\)/);
    expect(engine['function-available']).toBe('false false true');
    expect(engine['still XSLT']).toBe('OK');
  });
});

// ---------------------------------------------------------------------------------------------
// Through the router
// ---------------------------------------------------------------------------------------------

let s: TestServer;
const SECRET = 'engine-wall-secret-9f2c';
beforeAll(async () => {
  process.env.XMLDB_ENGINE_WALL_SECRET = SECRET; // what a leaked `process.env` would show
  const dbPath = tempDir();
  await seedUsers(dbPath, [
    { name: 'admin', password: 'admin-pw', perm: 'admin' },
    { name: 'nobody', password: 'pw', perm: 'none' },
  ]);
  s = await startTestServer({ dbPath, workers: 1 });
});
afterAll(async () => {
  delete process.env.XMLDB_ENGINE_WALL_SECRET;
  await s.close();
});

const USERS = [
  ['admin', 'admin-pw'],
  ['nobody', 'pw'],
] as const;

/** `q` as an XQuery string literal. */
const literal = (q: string): string => `"${q.replace(/"/g, '""')}"`;

const ROUTES: ReadonlyArray<readonly [string, SendQuery]> = [
  ...queryRoutes(() => s.app),
  ['xquery:eval', (q, [u, p]) => request(s.app).get(`/rest?query=${encodeURIComponent(`xquery:eval(${literal(q)})`)}`).auth(u, p)],
];

/** The namespace with a leading space: saxon-js trims it, the translator of this version does not. */
const SPACED = `declare namespace i = " ${IXSL}";`;
const DECLARED = `${SPACED} declare function i:get($o, $p) { () }; declare function i:apply($f, $a) { () }; declare function i:call($o, $m, $a) { () };`;

const ATTACKS: ReadonlyArray<readonly [string, string]> = [
  ['a declared i:get in the spaced namespace', `${DECLARED} i:get(map {}, 'constructor')`],
  [
    'the global object through appendChild, then process.env',
    `${DECLARED} let $G := i:get(i:apply(i:get(parse-xml('<r/>')/*, 'appendChild'), [i:call(i:get(map{}, 'constructor'), 'fromEntries', [[['nodeType', 1]]])]), 'parentNode') return i:get($G, 'process.env.XMLDB_ENGINE_WALL_SECRET')`,
  ],
  [
    'the global object through appendChild, then a child process',
    `${DECLARED} let $G := i:get(i:apply(i:get(parse-xml('<r/>')/*, 'appendChild'), [i:call(i:get(map{}, 'constructor'), 'fromEntries', [[['nodeType', 1]]])]), 'parentNode') return i:call(i:call($G, 'process.getBuiltinModule', ['child_process']), 'execSync', ['id', map { 'encoding': 'utf8' }])`,
  ],
  ['an EQName with a spaced namespace', `Q{ ${IXSL}}get(map {}, 'constructor')`],
];

const CASES = ROUTES.flatMap(([route, send]) => USERS.map((user) => [route, user[0], send, user] as const));

describe.each(CASES)('%s as %s', (_route, _name, send, user) => {
  test.each(ATTACKS)('%s is refused', async (_attack, query) => {
    const r = await send(query, user);
    expect(r.status).toBe(500);
    // an unknown function: the translator's (XPST0017, XQST0045 for the declarations) or the engine's
    expect(r.text.split('\n').pop()).toMatch(/^\[(XPST0017|XQST0045)\] /);
    expect(r.text).not.toContain(SECRET);
    expect(r.text).not.toMatch(/uid=|function Object|\[object /);
  });
});

describe('the main thread', () => {
  test('compiles and evaluates no query text: its saxon-js (the host application’s, without the engine wall) never sees one', async () => {
    const saxon = require('saxon-js') as Record<string, unknown> & { XPath: Record<string, unknown> };
    const seen: string[] = [];
    const spied: Array<[Record<string, unknown>, string, unknown]> = [];
    const spy = (target: Record<string, unknown>, key: string) => {
      const original = target[key] as (...args: unknown[]) => unknown;
      spied.push([target, key, original]);
      target[key] = function (this: unknown, ...args: unknown[]) {
        seen.push(typeof args[0] === 'string' ? args[0] : JSON.stringify(args[0] ?? null)?.slice(0, 10_000) ?? '');
        return original.apply(this, args);
      };
    };
    for (const key of ['evaluate', 'evaluateXDM', 'compile', 'compileToXML', 'evaluateOnly']) spy(saxon.XPath, key);
    for (const key of ['transform', 'internalTransform']) spy(saxon, key);
    try {
      const marker = 'main-thread-marker-5d1e';
      for (const [, send] of ROUTES) {
        const r = await send(`${DECLARED} i:get(map {}, '${marker}'), <e>{'${marker}'}</e>`, USERS[1]);
        expect(r.status).toBe(500);
      }
      expect(seen.filter((text) => text.includes('main-thread-marker'))).toEqual([]);
    } finally {
      for (const [target, key, original] of spied) target[key] = original;
    }
  });
});
