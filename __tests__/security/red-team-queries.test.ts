/**
 * Attacks of users with permission `none` (nobody), `read` on one database (reader), `write` on
 * it (writer) and admin (without `allowFileAccess`), through the router (GET ?query=), with
 * every wall in place. Each row: the user, the query, and the exact answer the walls give.
 * The data folder holds `pub` (reader may read it, writer may write it) and `secret` (only
 * admin may read it). The other routes that run a query text are covered by engine-wall.test.ts.
 */
import request from 'supertest';
import { queryUrl, seedUsers, startTestServer, tempDir, type SeedUser, type TestServer } from '../helpers/rest';

type User = 'admin' | 'nobody' | 'reader' | 'writer';
type Case = readonly [user: User, query: string, status: number, body: string];

const PASSWORDS: Record<User, string> = { admin: 'admin-pw', nobody: 'pw', reader: 'pw', writer: 'pw' };
const SECRET = 'TOPSECRET-51a9';

let s: TestServer;
/**
 * A server with the same users and a short time limit, for the queries that end only at the limit
 * (each takes a core until then).
 */
let limited: TestServer;
const SHORT_LIMIT_MS = 500;
const USERS: SeedUser[] = [
  { name: 'admin', password: PASSWORDS.admin, perm: 'admin' },
  { name: 'nobody', password: PASSWORDS.nobody, perm: 'none' },
  { name: 'reader', password: PASSWORDS.reader, perm: 'none', grants: [['pub', 'read']] },
  { name: 'writer', password: PASSWORDS.writer, perm: 'none', grants: [['pub', 'write']] },
];
beforeAll(async () => {
  const dbPath = tempDir();
  await seedUsers(dbPath, USERS);
  s = await startTestServer({ dbPath, queryTimeout: 2000 });
  await s.put('/rest/pub', '<pub>hello</pub>', 'application/xml').expect(201);
  await s.put('/rest/secret', `<secret>${SECRET}</secret>`, 'application/xml').expect(201);
  await s.put('/rest/secret/notes.txt', SECRET, 'text/plain').expect(201);
  const limitedPath = tempDir();
  await seedUsers(limitedPath, USERS);
  limited = await startTestServer({ dbPath: limitedPath, queryTimeout: SHORT_LIMIT_MS });
  // The first query that reaches a query worker starts it and compiles through saxon-js (about
  // 2 s on a busy machine, its time limit included): done here, so that no case pays for it
  // within its limit. A start that runs out of time loses its worker, and the next one starts
  // faster (saxon-js's code cache is published by then), so it is asked again until it answers.
  let warm: request.Response | undefined;
  for (let attempt = 0; attempt < 5 && warm?.text !== 'true'; attempt++) {
    warm = await request(s.app).get(queryUrl('function-lookup(xs:QName("fn:true"), 0)()')).auth('admin', PASSWORDS.admin);
  }
  expect([warm?.status, warm?.text]).toEqual([200, 'true']);
}, 60_000);
afterAll(() => Promise.all([s.close(), limited.close()]));

function run(user: User, query: string, server = s): Promise<request.Response> {
  return request(server.app).get(queryUrl(query)).auth(user, PASSWORDS[user]);
}

/** Host JavaScript and saxon-js's extensions: hidden namespaces under any spelling, dynamic lookups, nested xquery:eval, reserved namespaces: unknown functions, never a JavaScript value; the environment is empty for every user. */
const HOST_JS: readonly Case[] = [
  ["nobody", "Q{ http://saxonica.com/ns/interactiveXSLT }window()", 500, "Stopped at ., 1/1:\n[XPST0017] Unknown function: Q{http://saxonica.com/ns/interactiveXSLT}window#0."],
  ["nobody", "Q{http://saxonica.com/ns/interactiveXSLT\u00a0}window()", 500, "Stopped at ., 1/1:\n[XQST0046] Invalid URI \"http://saxonica.com/ns/interactiveXSLT\u00a0\": character U+00A0 is not allowed"],
  ["nobody", "declare namespace i=\"http://saxonica.com/ns/interactiveXSLT&#x9;\"; i:window()", 500, "Stopped at ., 1/68:\n[XPST0017] Unknown function: i:window#0."],
  ["nobody", "declare default function namespace \" http://saxonica.com/ns/interactiveXSLT\"; window()", 500, "Stopped at ., 1/79:\n[XPST0017] Unknown function: Q{http://saxonica.com/ns/interactiveXSLT}window#0."],
  ["nobody", "function-lookup(QName(\" http://saxonica.com/ns/interactiveXSLT\", \"window\"), 0)()", 500, "Stopped at ., 1/1:\n[XPTY0004] Required cardinality of first argument of apply() is exactly one; supplied value is empty"],
  ["nobody", "exists(function-lookup(QName(\"urn:xmldb-rest:engine\", \"transform\"), 1))", 200, "false"],
  ["nobody", "Q{urn:xmldb-rest:engine}join-probe(array {1}, [1], 1)", 500, "Stopped at ., 1/1:\n[XPST0017] Unknown function: Q{urn:xmldb-rest:engine}join-probe#3."],
  ["nobody", "Q{urn:xmldb-rest:engine}child-path-covers(/, 'Q{}a')", 500, "Stopped at ., 1/1:\n[XPST0017] Unknown function: Q{urn:xmldb-rest:engine}child-path-covers#2."],
  ["nobody", "Q{urn:xmldb-rest:engine}count-named-as(/, ())", 500, "Stopped at ., 1/1:\n[XPST0017] Unknown function: Q{urn:xmldb-rest:engine}count-named-as#2."],
  ["nobody", "Q{urn:xmldb-rest:engine}parent-path-covers(/, 'Q{}a')", 500, "Stopped at ., 1/1:\n[XPST0017] Unknown function: Q{urn:xmldb-rest:engine}parent-path-covers#2."],
  ["nobody", "function-lookup(xs:QName(\"fn:transform\"), 1)(map { \"stylesheet-text\": \"<x/>\" })", 500, "Stopped at ., 1/1:\n[FOXT0004] fn:transform is disabled: queries may not run stylesheets."],
  ["nobody", "Q{http://saxon.sf.net/}eval(Q{http://saxon.sf.net/}expression(\"1\"))", 500, "Stopped at ., 1/1:\n[XPST0017] Unknown function: Q{http://saxon.sf.net/}eval#1."],
  ["nobody", "system-property(\"xsl:vendor\")", 500, "Stopped at ., 1/1:\n[XPST0017] Unknown function: Q{http://www.w3.org/2005/xpath-functions}system-property#1."],
  ["nobody", "environment-variable(\"PATH\"), available-environment-variables()", 200, ""],
  ["admin", "environment-variable(\"PATH\"), available-environment-variables()", 200, ""],
  ["nobody", "load-xquery-module(\"http://saxonica.com/ns/interactiveXSLT\")", 500, "Stopped at ., 1/1:\n[FOQM0006] No XQuery processor available"],
  ["nobody", "import module namespace m = \"urn:m\" at \"file:///etc/passwd\"; 1", 500, "Stopped at ., 1/1:\n[XQST0059] Module 'urn:m' could not be found."],
  ["nobody", "declare function Q{http://saxonica.com/ns/interactiveXSLT}window() { 1 }; Q{http://saxonica.com/ns/interactiveXSLT}window()", 500, "Stopped at ., 1/1:\n[XQST0045] Function Q{http://saxonica.com/ns/interactiveXSLT}window is declared in a reserved namespace."],
  ["nobody", "declare namespace x = \"urn:xmldb-rest:engine\"; declare function x:f() { 1 }; x:f()", 500, "Stopped at ., 1/48:\n[XQST0045] Function x:f is declared in a reserved namespace."],
  // the parameters of a declared function handed by name to a higher-order function (translate/function-items.ts) cannot be read
  ["nobody", "declare function local:f($x) { $x }; for-each(1, local:f#1), $Q{urn:xmldb-rest:var}ref1.1", 500, "Stopped at ., 1/62:\n[XPST0008] Undeclared variable: $Q{urn:xmldb-rest:var}ref1.1."],
  // the engine's own parameters (the data of a call tried first, translate/unit.ts) can be neither read nor declared
  ["nobody", "for $i in 1 to 3 return $Q{urn:xmldb-rest:engine}first-data", 500, "Stopped at ., 1/25:\n[XPST0008] Undeclared variable: $Q{urn:xmldb-rest:engine}first-data."],
  ["nobody", "declare variable $Q{urn:xmldb-rest:engine}first-data external; for $i in 1 to 3 return $i", 500, "Stopped at ., 1/1:\n[XQST0045] Variable $Q{urn:xmldb-rest:engine}first-data is declared in a reserved namespace."],
  ["nobody", "xquery:eval(\"xquery:eval('Q{http://saxonica.com/ns/interactiveXSLT}window()')\")", 500, "Stopped at ., 1/1:\n[XPST0017] Unknown function: Q{http://saxonica.com/ns/interactiveXSLT}window#0."],
  ["nobody", "xquery:eval(\"declare namespace i = ' http://saxonica.com/ns/interactiveXSLT'; i:window()\")", 500, "Stopped at ., 1/1:\n[XPST0017] Unknown function: i:window#0."],
  ["nobody", "let $f := xquery:eval#1 return $f(\"environment-variable('HOME')\")", 200, ""],
  // inspect:functions gives the query's own functions; a module URI is no way to compile another
  ["nobody", "inspect:functions(\"file:///etc/passwd\")", 500, "Stopped at ., 1/1:\n[XQST0059] Module 'file:///etc/passwd' could not be found."],
];

/** Host files, data: and http: URIs, through every function and module that reads (no allowFileAccess: admins are refused too); serialization parameter documents are ignored. */
const HOST_FILES: readonly Case[] = [
  ["nobody", "doc(\"file:///etc/passwd\")", 500, "Stopped at ., 1/1:\n[FODC0002] Access to 'file:///etc/passwd' is denied."],
  ["admin", "doc(\"file:///etc/passwd\")", 500, "Stopped at ., 1/1:\n[FODC0002] Access to 'file:///etc/passwd' is denied."],
  ["nobody", "unparsed-text(\"../../../../etc/passwd\")", 500, "Stopped at ., 1/1:\n[FOUT1170] Cannot retrieve unparsed-text file:///etc/passwd XError:Access to 'file:///etc/passwd' is denied.; code:FODC0002"],
  ["nobody", "unparsed-text(\"data:text/plain,hello\")", 500, "Stopped at ., 1/1:\n[FOUT1170] Cannot retrieve unparsed-text data:text/plain,hello XError:Access to 'data:text/plain,hello' is denied.; code:FODC0002"],
  ["nobody", "doc(\"http://127.0.0.1:1/x\")", 500, "Stopped at ., 1/1:\n[FODC0002] Access to 'http://127.0.0.1:1/x' is denied."],
  ["nobody", "json-doc(\"file:///etc/passwd\")", 500, "Stopped at ., 1/1:\n[FOUT1170] Access to 'file:///etc/passwd' is denied."],
  ["nobody", "uri-collection(\"file:///etc/\")", 500, "Stopped at ., 1/1:\n[FODC0002] Access to 'file:///etc/' is denied."],
  ["nobody", "doc-available(\"file:///etc/passwd\"), unparsed-text-available(\"file:///etc/passwd\")", 200, "false\nfalse"],
  ["nobody", "json:doc(\"file:///etc/passwd\")", 500, "Stopped at ., 1/1:\n[FODC0002] Access to 'file:///etc/passwd' is denied."],
  ["nobody", "csv:doc(\"file:///etc/passwd\")", 500, "Stopped at ., 1/1:\n[FODC0002] Access to 'file:///etc/passwd' is denied."],
  ["nobody", "inspect:module(\"file:///etc/passwd\")", 500, "Stopped at ., 1/1:\n[FODC0002] Access to 'file:///etc/passwd' is denied."],
  ["nobody", "archive:entries(\"/etc/passwd\")", 500, "Stopped at ., 1/1:\n[XPTY0004] archive:entries: xs:base64Binary or xs:hexBinary expected, found xs:string."],
  ["nobody", "xquery:eval(xs:anyURI(\"file:///etc/passwd\"))", 500, "Stopped at ., 1/1:\n[FODC0002] Access to 'file:///etc/passwd' is denied."],
  ["nobody", "xquery:eval(\"doc('passwd')\", map {}, map { \"base-uri\": \"file:///etc/\" })", 500, "Stopped at ., 1/1:\n[FODC0002] Resource 'passwd' not found."],
  ["admin", "xquery:eval(\"doc('file:///etc/passwd')\", map {}, map { \"permission\": \"admin\" })", 500, "Stopped at ., 1/1:\n[FODC0002] Access to 'file:///etc/passwd' is denied."],
  ["nobody", "xslt:transform(<a/>, xs:anyURI(\"file:///etc/passwd\"))", 500, "Stopped at ., 1/1:\n[FODC0002] Access to 'file:///etc/passwd' is denied."],
  ["nobody", "serialize(<a/>, map { \"parameter-document\": \"file:///etc/passwd\" })", 200, "<a/>"],
  ["nobody", "declare option output:parameter-document \"file:///etc/passwd\"; 1", 200, "1"],
];

/** A database the user may not read, named through computed names, `..`, percent-encoding, the base folder's URIs, xquery:eval with more permission, dynamic calls and stylesheets' document()/collection()/unparsed-text(): it does not exist. */
const OTHER_DATABASES: readonly Case[] = [
  ["reader", "declare function local:get($d) { db:get($d) }; for-each(\"sec\" || \"ret\", local:get#1)", 500, "Stopped at ., 1/48:\n[db:open] Database 'secret' was not found."],
  ["reader", "declare variable $d external := \"sec\"; declare variable $name := $d || \"ret\"; db:get($name)", 500, "Stopped at ., 1/79:\n[db:open] Database 'secret' was not found."],
  ["reader", "db:get(\"sec\" || \"ret\")", 500, "Stopped at ., 1/1:\n[db:open] Database 'secret' was not found."],
  ["reader", "doc(\"pub/../secret/secret.xml\")", 500, "Stopped at ., 1/1:\n[FODC0002] Resource 'pub/../secret/secret.xml' not found."],
  ["reader", "doc(\"%73ecret/secret.xml\")", 500, "Stopped at ., 1/1:\n[FODC0002] Resource '%73ecret/secret.xml' not found."],
  ["reader", "collection(\"pub/../secret\")", 500, "Stopped at ., 1/1:\n[FODC0002] Resource 'pub/../secret' not found."],
  ["reader", "unparsed-text(\"pub/../secret/notes.txt\")", 500, "Stopped at ., 1/1:\n[FOUT1170] Cannot retrieve unparsed-text file:///xmldb-rest/secret/notes.txt XError:Access to 'file:///xmldb-rest/secret/notes.txt' is denied.; code:FODC0002"],
  ["reader", "unparsed-text(\"file:///xmldb-rest/secret/notes.txt\")", 500, "Stopped at ., 1/1:\n[FOUT1170] Cannot retrieve unparsed-text file:///xmldb-rest/secret/notes.txt XError:Access to 'file:///xmldb-rest/secret/notes.txt' is denied.; code:FODC0002"],
  ["reader", "unparsed-text(\"file:///xmldb-rest/pub/../secret/notes.txt\")", 500, "Stopped at ., 1/1:\n[FOUT1170] Cannot retrieve unparsed-text file:///xmldb-rest/pub/../secret/notes.txt XError:Access to 'file:///xmldb-rest/pub/../secret/notes.txt' is denied.; code:FODC0002"],
  ["reader", "json:doc(\"secret/notes.txt\")", 500, "Stopped at ., 1/1:\n[FODC0002] Resource 'secret/notes.txt' does not exist."],
  ["reader", "csv:doc(\"pub/../secret/notes.txt\")", 500, "Stopped at ., 1/1:\n[FODC0002] Resource 'pub/../secret/notes.txt' does not exist."],
  ["reader", "xquery:eval(\"db:get('secret')\", map {}, map { \"permission\": \"admin\" })", 500, "Stopped at ., 1/1:\n[db:open] Database 'secret' was not found."],
  ["reader", "xquery:eval(xs:anyURI(\"secret/notes.txt\"))", 500, "Stopped at ., 1/1:\n[FODC0002] Access to 'file:///xmldb-rest/secret/notes.txt' is denied."],
  ["reader", "db:exists(\"secret\"), db:list()", 200, "false\npub"],
  ["reader", "index:texts(\"sec\" || \"ret\")", 500, "Stopped at ., 1/1:\n[db:open] Database 'secret' was not found."],
  ["reader", "inspect:xqdoc(\"secret/notes.txt\")", 500, "Stopped at ., 1/1:\n[FODC0002] Resource 'secret/notes.txt' does not exist."],
  ["reader", "archive:entries(db:get-binary(\"sec\" || \"ret\", \"notes.txt\"))", 500, "Stopped at ., 1/1:\n[db:open] Database 'secret' was not found."],
  ["reader", "user:list(), user:list-details()", 200, "reader\n<user name=\"reader\" permission=\"none\"><database pattern=\"pub\" permission=\"read\"/></user>"],
  ["reader", "let $f := db:get#1 return $f(\"secret\")", 500, "Stopped at ., 1/1:\n[db:open] Database 'secret' was not found."],
  ["reader", "xslt:transform(<a/>, '<xsl:stylesheet version=\"3.0\" xmlns:xsl=\"http://www.w3.org/1999/XSL/Transform\"><xsl:template match=\"/\"><xsl:copy-of select=\"document(''secret/secret.xml'')\"/></xsl:template></xsl:stylesheet>')", 500, "Stopped at ., 1/1:\n[xslt:error] FODC0002: Access to 'file:///xmldb-rest/secret/secret.xml' is denied."],
  ["reader", "xslt:transform(<a/>, '<xsl:stylesheet version=\"3.0\" xmlns:xsl=\"http://www.w3.org/1999/XSL/Transform\"><xsl:template match=\"/\"><xsl:copy-of select=\"collection(''secret'')\"/></xsl:template></xsl:stylesheet>')", 500, "Stopped at ., 1/1:\n[xslt:error] FODC0002: Resource 'secret' not found."],
  ["reader", "xslt:transform(<a/>, '<xsl:stylesheet version=\"3.0\" xmlns:xsl=\"http://www.w3.org/1999/XSL/Transform\"><xsl:template match=\"/\"><xsl:copy-of select=\"unparsed-text(''secret/notes.txt'')\"/></xsl:template></xsl:stylesheet>')", 500, "Stopped at ., 1/1:\n[xslt:error] FOUT1170: Cannot retrieve unparsed-text file:///xmldb-rest/secret/notes.txt XError:Access to 'file:///xmldb-rest/secret/notes.txt' is denied.; code:FODC0002"],
];

/** Writes to a database the user may not write, named through computed names, paths, eval-update, dynamic calls and function-lookup: 403 before the run, or no dynamic call of an updating function. */
const UNPERMITTED_WRITES: readonly Case[] = [
  ["writer", "db:put(\"sec\" || \"ret\", <x/>, \"a.xml\")", 500, "Stopped at ., 1/1:\n[db:open] Database 'secret' was not found."],
  ["writer", "for $d in (\"pub\", \"secret\") return db:put($d, <x/>, \"b.xml\")", 500, "Stopped at ., 1/1:\n[db:open] Database 'secret' was not found."],
  ["writer", "db:put(\"pub\", <x/>, \"../secret/c.xml\")", 500, "Stopped at ., 1/1:\n[db:path] Invalid path: ../secret/c.xml."],
  ["writer", "xquery:eval-update(\"db:put('\" || \"sec\" || \"ret', <x/>, 'd.xml')\")", 500, "Stopped at ., 1/1:\n[db:open] Database 'secret' was not found."],
  ["writer", "xquery:eval-update(\"db:create('new')\")", 403, "Create permission needed."],
  ["writer", "let $f := db:put#3 return $f(\"secret\", <x/>, \"e.xml\")", 500, "Stopped at ., 1/1:\n[db:open] Database 'secret' was not found."],
  ["writer", "function-lookup(xs:QName(\"db:put\"), 3)(\"secret\", <x/>, \"f.xml\")", 500, "Stopped at ., 1/1:\n[XPTY0004] Required cardinality of first argument of apply() is exactly one; supplied value is empty"],
  ["writer", "apply(db:put#3, [\"secret\", <x/>, \"g.xml\"])", 500, "Stopped at ., 1/1:\n[db:open] Database 'secret' was not found."],
  ["writer", "function-lookup(xs:QName(\"db:drop\"), 1)(\"secret\")", 500, "Stopped at ., 1/1:\n[XPTY0004] Required cardinality of first argument of apply() is exactly one; supplied value is empty"],
  ["writer", "let $f := xquery:eval-update#1 return $f(\"db:put('secret', <x/>, 'h.xml')\")", 500, "Stopped at ., 1/1:\n[db:open] Database 'secret' was not found."],
  // a declared updating function as an item of the query's expression, and an updating query on the runtime library
  ["writer", "declare %updating function local:put($d) { db:put($d, <x/>, \"j.xml\") }; local:put(\"sec\" || \"ret\")", 500, "Stopped at ., 1/73:\n[db:open] Database 'secret' was not found."],
  ["writer", "for $d in (\"pub\", \"secret\") group by $k := $d order by $k descending return db:put($k, <x/>, \"k.xml\")", 500, "Stopped at ., 1/1:\n[db:open] Database 'secret' was not found."],
  ["writer", "for-each(\"secret\", function($d) { db:put($d, <x/>, \"i.xml\") })", 500, "Stopped at ., 1/35:\n[XUST0001] Updating expression is not allowed here: db:put()."],
  ["writer", "let $f := function-lookup(xs:QName(\"db:get\"), 1) return insert node <x/> into $f(\"secret\")/*", 500, "Stopped at ., 1/1:\n[XPTY0004] Required cardinality of first argument of apply() is exactly one; supplied value is empty"],
  ["writer", "insert node <x/> into doc(\"secret/secret.xml\")/*", 500, "Stopped at ., 1/1:\n[FODC0002] Resource 'secret/secret.xml' not found."],
  ["reader", "replace value of node db:get(\"pub\")/* with \"changed\"", 403, "Write permission needed."],
];

/** XML and JSON input: no DTD loaded, no external or internal entity expanded, deep nesting refused, no prototype pollution. */
const XML_INPUT: readonly Case[] = [
  ["nobody", "parse-xml('<!DOCTYPE a [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><a>&amp;e;</a>')", 500, "Stopped at ., 1/1:\n[FODC0006] Reference to unknown entity &e; at line 1 column 60"],
  ["nobody", "parse-xml('<!DOCTYPE a SYSTEM \"file:///etc/passwd\"><a/>')", 200, "<a/>"],
  ["nobody", "parse-xml('<!DOCTYPE a [<!ENTITY a \"xxxxxxxxxx\"><!ENTITY b \"&amp;a;&amp;a;&amp;a;&amp;a;&amp;a;&amp;a;&amp;a;&amp;a;&amp;a;&amp;a;\"><!ENTITY c \"&amp;b;&amp;b;&amp;b;&amp;b;&amp;b;&amp;b;&amp;b;&amp;b;&amp;b;&amp;b;\">]><a>&amp;c;</a>')", 500, "Stopped at ., 1/1:\n[FODC0006] Reference to unknown entity &c; at line 1 column 133"],
  ["nobody", "parse-xml-fragment('<!DOCTYPE a [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><a>&amp;e;</a>')", 500, "Stopped at ., 1/1:\n[FODC0006] Inappropriately located doctype declaration at line 1 column 12"],
  ["nobody", "parse-xml(string-join((1 to 100000) ! '<a>') || string-join((1 to 100000) ! '</a>'))", 500, "Stopped at ., 1/1:\n[FODC0006] Elements are nested deeper than 2048 levels."],
  ["nobody", "json:parse(string-join((1 to 100000) ! '[') || string-join((1 to 100000) ! ']'))", 500, "Stopped at ., 1/1:\n[json:parse] (Line 1, Column 1001): Nesting is deeper than 1000 levels."],
  ["nobody", "parse-json(string-join((1 to 100000) ! '[') || string-join((1 to 100000) ! ']'))", 500, "[XPDY0130] Stack overflow: the query recursed too deeply."],
  ["nobody", "parse-json('{\"__proto__\": {\"polluted\": 1}, \"constructor\": 2}') ! (map:keys(.), ?constructor, map {}?toString)", 200, "constructor\n__proto__\n2"],
];

/** Stylesheets run by xslt:transform: no xsl:evaluate or result-document, no modules from files or data: URIs, static expressions checked, hidden namespaces refused, host files denied; a function item passed as a parameter runs under the query's allow-list. */
const STYLESHEETS: readonly Case[] = [
  ["nobody", "xslt:transform(<a/>, '<xsl:stylesheet version=\"3.0\" xmlns:xsl=\"http://www.w3.org/1999/XSL/Transform\"><xsl:template match=\"/\"><xsl:evaluate xpath=\"''1+1''\"/></xsl:template></xsl:stylesheet>')", 500, "Stopped at ., 1/1:\n[xslt:error] xsl:evaluate is not allowed in stylesheets."],
  ["nobody", "xslt:transform(<a/>, '<xsl:stylesheet version=\"3.0\" xmlns:xsl=\"http://www.w3.org/1999/XSL/Transform\"><xsl:template match=\"/\"><xsl:result-document href=\"pwn.xml\">x</xsl:result-document></xsl:template></xsl:stylesheet>')", 500, "Stopped at ., 1/1:\n[xslt:error] xsl:result-document is not allowed in stylesheets."],
  ["nobody", "xslt:transform(<a/>, '<xsl:stylesheet version=\"3.0\" xmlns:xsl=\"http://www.w3.org/1999/XSL/Transform\"><xsl:import href=\"file:///etc/passwd\"/><xsl:template match=\"/\"><xsl:value-of select=\"1\"/></xsl:template></xsl:stylesheet>')", 500, "Stopped at ., 1/1:\n[xslt:error] Stylesheet module cannot be read: file:///etc/passwd."],
  ["nobody", "xslt:transform(<a/>, '<xsl:stylesheet version=\"3.0\" xmlns:xsl=\"http://www.w3.org/1999/XSL/Transform\"><xsl:include href=\"data:application/xml,%3Cx/%3E\"/><xsl:template match=\"/\"><xsl:value-of select=\"1\"/></xsl:template></xsl:stylesheet>')", 500, "Stopped at ., 1/1:\n[xslt:error] Stylesheet module cannot be read: data:application/xml,%3Cx/%3E."],
  ["nobody", "xslt:transform(<a/>, '<xsl:stylesheet version=\"3.0\" xmlns:xsl=\"http://www.w3.org/1999/XSL/Transform\"><xsl:variable name=\"v\" static=\"yes\" select=\"''Q{'' || ''http://saxonica.com/ns/interactiv'' || ''eXSLT}window()''\"/><xsl:variable name=\"w\" _select=\"{$v}\"/><xsl:template match=\"/\"><xsl:value-of select=\"$w\"/></xsl:template></xsl:stylesheet>')", 500, "Stopped at ., 1/1:\n[xslt:error] Static expression not allowed in stylesheets: 'Q{' || 'http://saxonica.com/ns/interactiv' || 'eXSLT}window()'"],
  ["nobody", "xslt:transform(<a/>, '<xsl:stylesheet version=\"3.0\" xmlns:xsl=\"http://www.w3.org/1999/XSL/Transform\"><xsl:template match=\"/\"><xsl:value-of select=\"1\" _use-when=\"{''Q{http://saxonica.com/ns/interactiveXSLT}window()''}\"/></xsl:template></xsl:stylesheet>')", 500, "Stopped at ., 1/1:\n[xslt:error] Static expression not allowed in stylesheets: {'Q{http://saxonica.com/ns/interactiveXSLT}window()'}"],
  ["nobody", "xslt:transform(<a/>, '<xsl:stylesheet version=\"3.0\" xmlns:xsl=\"http://www.w3.org/1999/XSL/Transform\" xmlns:i=\"http://saxonica.com/ns/interactiveXSLT&#xA0;\"><xsl:template match=\"/\"><xsl:value-of select=\"i:window()\"/></xsl:template></xsl:stylesheet>')", 500, "Stopped at ., 1/1:\n[xslt:error] Namespace not allowed in stylesheets: xmlns:i=\"http://saxonica.com/ns/interactiveXSLT\u00a0\"."],
  ["nobody", "xslt:transform(<a/>, '<xsl:stylesheet version=\"3.0\" xmlns:xsl=\"http://www.w3.org/1999/XSL/Transform\"><xsl:template match=\"/\"><xsl:value-of select=\"Q{ http://saxonica.com/ns/interactiveXSLT}window()\"/></xsl:template></xsl:stylesheet>')", 500, "Stopped at ., 1/1:\n[xslt:error] XPST0017: Unknown function Q{http://saxonica.com/ns/interactiveXSLT}window()"],
  ["nobody", "xslt:transform(<a/>, '<xsl:stylesheet version=\"3.0\" xmlns:xsl=\"http://www.w3.org/1999/XSL/Transform\"><xsl:key name=\"k\" match=\"*\" use=\"Q{http://saxonica.com/ns/interactiveXSLT}window()\"/><xsl:template match=\"/\"><xsl:sequence select=\"1\"/></xsl:template></xsl:stylesheet>')", 500, "Stopped at ., 1/1:\n[xslt:error] XPST0017: Unknown function Q{http://saxonica.com/ns/interactiveXSLT}window()"],
  ["nobody", "xslt:transform(<a/>, '<xsl:stylesheet version=\"3.0\" xmlns:xsl=\"http://www.w3.org/1999/XSL/Transform\"><xsl:template match=\"/\"><xsl:value-of select=\"saxon:eval(saxon:expression(''1''))\" xmlns:saxon=\"http://saxon.sf.net/\"/></xsl:template></xsl:stylesheet>')", 500, "Stopped at ., 1/1:\n[xslt:error] Namespace not allowed in stylesheets: xmlns:saxon=\"http://saxon.sf.net/\"."],
  ["nobody", "xslt:transform(<a/>, '<xsl:stylesheet version=\"3.0\" xmlns:xsl=\"http://www.w3.org/1999/XSL/Transform\"><xsl:template match=\"/\"><xsl:sequence select=\"xquery:eval(''1'')\" xmlns:xquery=\"http://basex.org/modules/xquery\"/></xsl:template></xsl:stylesheet>')", 500, "Stopped at ., 1/1:\n[xslt:error] Function not allowed in stylesheets: Q{http://basex.org/modules/xquery}eval()."],
  ["nobody", "xslt:transform(<a/>, '<xsl:stylesheet version=\"3.0\" xmlns:xsl=\"http://www.w3.org/1999/XSL/Transform\"><xsl:template match=\"/\"><xsl:sequence select=\"function-lookup(QName(''http://basex.org/modules/xquery'', ''eval''), 1)(''1'')\"/></xsl:template></xsl:stylesheet>')", 500, "Stopped at ., 1/1:\n[xslt:error] Function not allowed in stylesheets: fn:function-lookup()."],
  ["nobody", "xslt:transform(<a/>, '<xsl:stylesheet version=\"3.0\" xmlns:xsl=\"http://www.w3.org/1999/XSL/Transform\"><xsl:template match=\"/\"><xsl:value-of select=\"transform(map { ''stylesheet-text'': ''x'' })\"/></xsl:template></xsl:stylesheet>')", 500, "Stopped at ., 1/1:\n[xslt:error] XPST0017: Unknown function Q{http://www.w3.org/2005/xpath-functions}transform()"],
  ["nobody", "xslt:transform(<a/>, '<xsl:stylesheet version=\"3.0\" xmlns:xsl=\"http://www.w3.org/1999/XSL/Transform\"><xsl:template match=\"/\"><xsl:value-of select=\"environment-variable(''HOME''), available-environment-variables()\"/></xsl:template></xsl:stylesheet>')", 200, ""],
  ["nobody", "xslt:transform(<a/>, '<xsl:stylesheet version=\"3.0\" xmlns:xsl=\"http://www.w3.org/1999/XSL/Transform\"><xsl:template match=\"/\"><xsl:copy-of select=\"doc(''passwd'')\" xml:base=\"file:///etc/\"/></xsl:template></xsl:stylesheet>')", 500, "Stopped at ., 1/1:\n[xslt:error] FODC0002: Access to 'file:///xmldb-rest/passwd' is denied."],
  ["nobody", "xslt:transform(<a/>, '<xsl:stylesheet version=\"3.0\" xmlns:xsl=\"http://www.w3.org/1999/XSL/Transform\"><xsl:param name=\"p\"/><xsl:template match=\"/\"><xsl:sequence select=\"$p(''Q{http://saxonica.com/ns/interactiveXSLT}window()'')\"/></xsl:template></xsl:stylesheet>', map { \"p\": xquery:eval#1 })", 500, "Stopped at ., 1/1:\n[xslt:error] XPST0017: Unknown function: Q{http://saxonica.com/ns/interactiveXSLT}window#0."],
];

/** Catastrophic regular expressions end at the time limit (on the server of a short one); the server answers the next query. */
const RUNAWAY_REGEXES: readonly Case[] = [
  ["nobody", "matches(string-join((1 to 40) ! 'a') || 'b', '^(a+)+$')", 500, `[BASX0003] Timeout exceeded (${SHORT_LIMIT_MS} ms).`],
  ["nobody", "analyze-string(string-join((1 to 40) ! 'a') || 'b', '(a+)+c')", 500, `[BASX0003] Timeout exceeded (${SHORT_LIMIT_MS} ms).`],
  ["nobody", "1 + 1", 200, "2"],
];

/** Deep recursion and nesting are errors of the query, a string past the engine's limit is an error; the server answers the next query. */
const LIMITS: readonly Case[] = [
  ["nobody", "declare function local:f($n) { 1 + local:f($n + 1) }; local:f(1)", 500, "[XPDY0130] Stack overflow: the query recursed too deeply."],
  ["nobody", "let $f := function($f, $n) { $f($f, $n + 1) + 1 } return $f($f, 1)", 500, "[XPDY0130] Stack overflow: the query recursed too deeply."],
  ["nobody", "xquery:eval(string-join((1 to 50000) ! '(') || '1' || string-join((1 to 50000) ! ')'))", 500, "Stopped at ., 1/1:\n[XPST0003] Expression nested too deeply"],
  ["nobody", "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))", 500, "Stopped at ., 1/151:\n[XPST0003] Expression nested too deeply"],
  ["nobody", "let $s := string-join((1 to 1000) ! 'x') return string-length(string-join((1 to 1000000) ! $s))", 500, "Stopped at ., 1/1:\n[SXJS0004] Internal error in saxon-js: Invalid string length"],
  ["nobody", "1 + 1", 200, "2"],
];
/** Database names and stored-resource URIs spelled otherwise: globs, case, encodings, backslashes, other spellings of the base folder's scheme and authority, base URIs of xquery:eval. */
const NAME_SPELLINGS: readonly Case[] = [
  ["reader", "db:get('*')", 500, "Stopped at ., 1/1:\n[db:open] Database '*' was not found."],
  ["reader", "db:get('s*')", 500, "Stopped at ., 1/1:\n[db:open] Database 's*' was not found."],
  ["reader", "db:get('?ecret')", 500, "Stopped at ., 1/1:\n[db:open] Database '?ecret' was not found."],
  ["reader", "db:open('secret')", 500, "Stopped at ., 1/1:\n[db:open] Database 'secret' was not found."],
  ["reader", "db:list('secret')", 500, "Stopped at ., 1/1:\n[db:open] Database 'secret' was not found."],
  ["reader", "db:list('*')", 500, "Stopped at ., 1/1:\n[db:open] Database '*' was not found."],
  ["reader", "db:exists('secret','secret.xml')", 200, "false"],
  ["reader", "db:type('secret','notes.txt')", 500, "Stopped at ., 1/1:\n[db:open] Database 'secret' was not found."],
  ["reader", "db:content-type('secret','notes.txt')", 500, "Stopped at ., 1/1:\n[db:open] Database 'secret' was not found."],
  ["reader", "db:get-binary('secret','bin.raw')", 500, "Stopped at ., 1/1:\n[db:open] Database 'secret' was not found."],
  ["reader", "db:get-value('secret','notes.txt')", 500, "Stopped at ., 1/1:\n[db:open] Database 'secret' was not found."],
  ["reader", "uri-collection('secret')", 500, "Stopped at ., 1/1:\n[FODC0002] Resource 'secret' not found."],
  ["reader", "uri-collection('*')", 500, "Stopped at ., 1/1:\n[FODC0002] Resource '*' not found."],
  ["reader", "collection('*')", 500, "Stopped at ., 1/1:\n[FODC0002] Resource '*' not found."],
  ["reader", "collection('s*')", 500, "Stopped at ., 1/1:\n[FODC0002] Resource 's*' not found."],
  ["reader", "collection('')", 500, "Stopped at ., 1/1:\n[FODC0002] Resource '' not found."],
  ["reader", "collection('/')", 500, "Stopped at ., 1/1:\n[FODC0002] Resource '/' not found."],
  ["reader", "collection('.')", 500, "Stopped at ., 1/1:\n[FODC0002] Resource '.' not found."],
  ["reader", "doc('')", 500, "Stopped at ., 1/1:\n[FODC0002] Resource '' not found."],
  ["reader", "doc('/secret/secret.xml')", 500, "Stopped at ., 1/1:\n[FODC0002] Resource '/secret/secret.xml' not found."],
  ["reader", "doc('//secret/secret.xml')", 500, "Stopped at ., 1/1:\n[FODC0002] Resource '//secret/secret.xml' not found."],
  ["reader", "doc('pub/../../secret/secret.xml')", 500, "Stopped at ., 1/1:\n[FODC0002] Resource 'pub/../../secret/secret.xml' not found."],
  ["reader", "doc('PUB/pub.xml')", 500, "Stopped at ., 1/1:\n[FODC0002] Resource 'PUB/pub.xml' not found."],
  ["reader", "doc('SECRET/secret.xml')", 500, "Stopped at ., 1/1:\n[FODC0002] Resource 'SECRET/secret.xml' not found."],
  ["reader", "doc('secret%2Fsecret.xml')", 500, "Stopped at ., 1/1:\n[FODC0002] Resource 'secret%2Fsecret.xml' not found."],
  ["reader", "doc('secret\\secret.xml')", 500, "Stopped at ., 1/1:\n[FODC0002] Resource 'secret\\secret.xml' not found."],
  ["reader", "unparsed-text('secret\\notes.txt')", 500, "Stopped at ., 1/1:\n[FOUT1170] Cannot retrieve unparsed-text file:///xmldb-rest/secret/notes.txt XError:Access to 'file:///xmldb-rest/secret/notes.txt' is denied.; code:FODC0002"],
  ["reader", "unparsed-text('file:///xmldb-rest/SECRET/notes.txt')", 500, "Stopped at ., 1/1:\n[FOUT1170] Cannot retrieve unparsed-text file:///xmldb-rest/SECRET/notes.txt XError:Access to 'file:///xmldb-rest/SECRET/notes.txt' is denied.; code:FODC0002"],
  ["reader", "unparsed-text('file:////xmldb-rest/secret/notes.txt')", 500, "Stopped at ., 1/1:\n[FOUT1170] Cannot retrieve unparsed-text file:////xmldb-rest/secret/notes.txt XError:Access to 'file:////xmldb-rest/secret/notes.txt' is denied.; code:FODC0002"],
  ["reader", "unparsed-text('FILE:///xmldb-rest/secret/notes.txt')", 500, "Stopped at ., 1/1:\n[FOUT1170] Cannot retrieve unparsed-text FILE:///xmldb-rest/secret/notes.txt XError:Access to 'FILE:///xmldb-rest/secret/notes.txt' is denied.; code:FODC0002"],
  ["reader", "unparsed-text('file://localhost/xmldb-rest/secret/notes.txt')", 500, "Stopped at ., 1/1:\n[FOUT1170] Cannot retrieve unparsed-text file://localhost/xmldb-rest/secret/notes.txt XError:Access to 'file://localhost/xmldb-rest/secret/notes.txt' is denied.; code:FODC0002"],
  ["reader", "xquery:eval('db:get(\"secret\")', map{}, map{'base-uri': 'file:///xmldb-rest/secret/'})", 500, "Stopped at ., 1/1:\n[db:open] Database 'secret' was not found."],
  ["reader", "xquery:eval(\"doc('secret.xml')\", map{}, map{'base-uri': 'file:///xmldb-rest/secret/'})", 500, "Stopped at ., 1/1:\n[FODC0002] Resource 'secret.xml' not found."],
  ["reader", "resolve-uri('secret.xml', 'file:///xmldb-rest/secret/') ! doc(.)", 500, "Stopped at ., 1/1:\n[FODC0002] Resource 'file:///xmldb-rest/secret/secret.xml' not found."],
];

/** The answer is the walls' refusal, and nothing of the secret database or the host shows. */
async function expectAnswer([user, query, status, body]: Case, server = s): Promise<void> {
  const r = await run(user, query, server);
  expect([r.status, r.text]).toEqual([status, body]);
  expect(r.text).not.toContain(SECRET);
  expect(r.text).not.toMatch(/root:x:0|\/work\/|node_modules|\bat \S+ \(/);
}

describe.each([
  ['host JavaScript', HOST_JS],
  ['host files and the network', HOST_FILES],
  ['databases the user may not read', OTHER_DATABASES],
  ['database names and URIs spelled otherwise', NAME_SPELLINGS],
  ['writes the user may not make', UNPERMITTED_WRITES],
  ['XML and JSON input', XML_INPUT],
  ['stylesheets', STYLESHEETS],
  ['resource limits', LIMITS],
])('%s', (_group, cases) => {
  test.each(cases.map((c) => [c[0], c[1], c] as const))('as %s: %s', async (_user, _query, c) => {
    await expectAnswer(c);
  });
});

describe('runaway regular expressions', () => {
  test.each(RUNAWAY_REGEXES.map((c) => [c[0], c[1], c] as const))('as %s: %s', async (_user, _query, c) => {
    await expectAnswer(c, limited);
  });
});

describe('no existence oracle', () => {
  test('a database the reader may not read answers as one that does not exist, through every reading function', async () => {
    const answers = async (db: string) => {
      const out: string[] = [];
      for (const query of [
        `doc('${db}/doc.xml')`,
        `unparsed-text('${db}/notes.txt')`,
        `doc-available('${db}/doc.xml')`,
        `collection('${db}')`,
        `db:get('${db}')`,
        `db:exists('${db}')`,
      ]) {
        const r = await run('reader', query);
        out.push(`${r.status} ${r.text.replaceAll(db, 'DB')}`);
      }
      return out;
    };
    expect(await answers('secret')).toEqual(await answers('nodb'));
  });
});

describe('the data stays as it was', () => {
  test('after all the refused writes, secret holds its one document and text, and pub is unchanged', async () => {
    const r = await run('admin', `string-join(sort(db:list('secret')), ','), db:get('secret') ! string(), db:get('pub') ! string()`);
    expect([r.status, r.text]).toEqual([200, `notes.txt,secret.xml\n${SECRET}\nhello`]);
  });
});
