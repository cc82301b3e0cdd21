/**
 * Namespace URIs with braces, the injection class behind the first host escape: before the
 * translator's single emitter, a `}` in a URI was pasted into generated `Q{uri}local` names
 * (doubled, which XPath does not read as a brace), so saxon-js took the URI up to the first `}`:
 * elements landed in another namespace and FORG0001 named the generated code. Now a URI with a
 * brace is XQST0046 wherever it would become a `Q{uri}` name, before any reserved-namespace
 * check; a computed constructor carries it as data.
 */
import { getQuery, startTestServer, type TestServer } from '../helpers/rest';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const CASES: ReadonlyArray<readonly [query: string, status: number, body: string]> = [
  ["declare namespace p = \"urn:a}\"; <p:e p:a=\"1\"/>", 500, "Stopped at ., 1/23:\n[XQST0046] Invalid URI \"urn:a}\": character \"}\" is not allowed"],
  ["<p:e xmlns:p=\"urn:a}}x\"/>", 500, "Stopped at ., 1/6:\n[XQST0046] Invalid URI \"urn:a}x\": character \"}\" is not allowed"],
  ["declare namespace p = \"urn:a}\"; declare variable $p:v := 7; $p:v", 500, "Stopped at ., 1/23:\n[XQST0046] Invalid URI \"urn:a}\": character \"}\" is not allowed"],
  ["declare namespace p = \"urn:a}\"; declare function p:f($p:x) { $p:x }; p:f#1(3)", 500, "Stopped at ., 1/23:\n[XQST0046] Invalid URI \"urn:a}\": character \"}\" is not allowed"],
  ["declare namespace p = \"http://saxonica.com/ns/interactiveXSLT}x\"; declare function p:window() { 1 }; p:window()", 500, "Stopped at ., 1/23:\n[XQST0046] Invalid URI \"http://saxonica.com/ns/interactiveXSLT}x\": character \"}\" is not allowed"],
  ["declare namespace p = \"urn:a}Q{http://saxonica.com/ns/interactiveXSLT\"; declare function p:window() { 1 }; p:window()", 500, "Stopped at ., 1/23:\n[XQST0046] Invalid URI \"urn:a}Q{http://saxonica.com/ns/interactiveXSLT\": character \"}\" is not allowed"],
  ["element {QName(\"urn:a}x\", \"p:a\")} {}", 200, "<p:a xmlns:p=\"urn:a}x\"/>"],
  ["declare namespace p = \"urn:a&#x7D;Q{x}y\"; <p:e/>", 500, "Stopped at ., 1/23:\n[XQST0046] Invalid URI \"urn:a}Q{x}y\": character \"}\" is not allowed"],
];

test.each(CASES)('%s', async (query, status, body) => {
  const r = await getQuery(s, query);
  expect([r.status, r.text]).toEqual([status, body]);
});
