/**
 * XML text parsed by saxon-js's XPath `fn:parse-xml` (which never loads a DTD nor resolves an
 * external entity), for lib/xml and lib/convert, and XPath run on such documents. saxon-js is
 * loaded on first use (load.ts): threads that never parse XML never load it.
 */
import { loadSaxon } from './load';

/** The document node `fn:parse-xml($text)` answers; throws with the parser's message. */
export function parseWithXPath(text: string): unknown {
  return loadSaxon().XPath.evaluate('parse-xml($text)', null, { params: { text } });
}

/** The value of the XPath expression `xpath` with `context` as the context item. */
export function evaluateXPathOn(xpath: string, context: unknown, params: Record<string, unknown> = {}): unknown {
  return loadSaxon().XPath.evaluate(xpath, context, { params });
}
