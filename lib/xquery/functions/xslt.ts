/**
 * BaseX's XSLT Module (docs.basex.org, "XSLT Functions"), XSLT 3.0 on saxon-js, as extension
 * functions in namespace `http://basex.org/modules/xslt` (prefix `xslt`, predeclared):
 *
 *   xslt:processor() as xs:string                      'SaxonJS'
 *   xslt:version() as xs:string                        '3.0'
 *   xslt:transform($input, $stylesheet, $params as map(*)? := {}, $options as map(*)? := {}) as node()
 *   xslt:transform-text(...same...) as xs:string       the result serialized as xsl:output says
 *
 * `$input` and `$stylesheet` are each a node, a string of XML text (one that starts with `<`, as
 * BaseX decides), or a URI: a stored resource (`db/path`, as fn:doc resolves it, so only in a
 * database the caller may read) or, where the run may read host files (an admin, with the router
 * option `allowFileAccess`), a file. A node is passed as its serialization, as BaseX hands nodes
 * to the XSLT processor: the stylesheet sees a fresh document (`match="/"` matches an element
 * input too) and stored documents are never touched. `$params` binds stylesheet parameters by
 * name (an xs:QName, or a string `name` or `Q{uri}name`) to any values. `$options`: BaseX's
 * `cache` is accepted; compilations are always cached (by stylesheet text and base URI, at most
 * 64 per worker).
 *
 * The stylesheet is untrusted code: it is checked before and after compiling against the same
 * function allow-list as queries (guards/stylesheet-guard.ts). It runs in the calling query's
 * worker and run, under its time limit, with its DocumentSource and host-file policy.
 *
 * Errors (BaseX): `xslt:error` for a stylesheet that is refused, does not compile, or fails
 * while it runs (the message starts with saxon-js's code); an input that cannot be parsed or
 * read keeps its own code (FODC0002, FODC0006).
 */
import { QueryCompiler, compileKey, type CompiledQuery } from '../worker/compile';
import { DEFAULT_BASE_URI } from '../constants';
import { collectionFinder, fetchDocument } from '../worker/documents/source';
import { QueryError, toQueryError, xmlParserMessage } from '../query-error';
import { NodeKind, isNode, parseToSaxonDocument, registerFunctions, saxon, stringValue, xpathError, type XdmItem, type XdmMap, type XdmNode, type XdmValue } from '../../saxon';
import { serialize } from '../serialization/serialize';
import { bindingName } from './support/binding-keys';
import { MODULE_NAMESPACES } from '../module-namespaces';
import { compiledRefusal, staticRefusal } from '../worker/guards/stylesheet-guard';

export const XSLT_NS = MODULE_NAMESPACES.xslt;

const compiler = new QueryCompiler({ max: 64 });
/** The allow-list's verdict on each compiled stylesheet (null: allowed). */
const verdicts = new WeakMap<CompiledQuery, string | null>();

function xsltError(message: string): Error {
  return xpathError(message, `Q{${XSLT_NS}}error`);
}

const isXmlText = (text: string): boolean => text.trimStart().startsWith('<');

function parse(text: string, what: string): XdmNode {
  try {
    return parseToSaxonDocument(text);
  } catch (e) {
    const message = e instanceof Error ? xmlParserMessage(e.message) : String(e);
    throw xpathError(`${what} is not well-formed XML: ${message}`, 'FODC0006');
  }
}

/** A document or element node as a fresh document (see the file comment). */
function copy(node: XdmNode, what: string): XdmNode {
  if (node.nodeType !== NodeKind.document && node.nodeType !== NodeKind.element) {
    throw xsltError(`${what} must be a document or element node, a string or a URI.`);
  }
  return parse(serialize([node], { method: 'xml' }), what);
}

function inputDocument(item: XdmItem): XdmNode {
  if (isNode(item)) return copy(item, 'The input');
  const text = String(item);
  return isXmlText(text) ? parse(text, 'The input') : copy(fetchDocument(text.trim()), 'The input');
}

interface StylesheetSource {
  readonly text: string;
  readonly baseUri: string;
}

/** Text as the compiler reads it: through the platform, which the resource guard watches. */
function readText(uri: string): string {
  return saxon().getPlatform().readFile(uri, 'utf-8');
}

function stylesheetSource(item: XdmItem): StylesheetSource {
  if (isNode(item)) return { text: serialize([item], { method: 'xml' }), baseUri: DEFAULT_BASE_URI };
  const text = String(item);
  if (isXmlText(text)) return { text, baseUri: DEFAULT_BASE_URI };
  let uri: string;
  try {
    uri = new URL(text.trim(), DEFAULT_BASE_URI).href;
  } catch {
    throw xsltError(`Invalid stylesheet URI: ${text}.`);
  }
  return { text: readText(uri), baseUri: uri };
}

function readModule(uri: string): XdmNode | undefined {
  try {
    return parseToSaxonDocument(readText(uri));
  } catch {
    return undefined; // the compiler reports it
  }
}

/** The compiled stylesheet, checked against the allow-list before and after compiling. */
function compiled(source: StylesheetSource): CompiledQuery {
  let result = compiler.lookup(compileKey(source.text, { baseUri: source.baseUri }));
  if (!result) {
    const refusal = staticRefusal(parse(source.text, 'The stylesheet'), source.baseUri, readModule);
    if (refusal) throw xsltError(refusal);
    try {
      result = compiler.compile(source.text, { baseUri: source.baseUri });
    } catch (e) {
      const q = e instanceof QueryError ? e : toQueryError(e, 'compile');
      throw xsltError(`${q.code}: ${q.message}`);
    }
  }
  let verdict = verdicts.get(result);
  if (verdict === undefined) {
    verdict = compiledRefusal(result.sef) ?? null;
    verdicts.set(result, verdict);
  }
  if (verdict !== null) throw xsltError(verdict);
  return result;
}

function stylesheetParams(map: XdmMap | undefined): Record<string, XdmValue> {
  const params: Record<string, XdmValue> = {};
  for (const key of map?.keys() ?? []) params[bindingName(key)] = map!.get(key);
  return params;
}

function transform([input, stylesheet, params]: XdmValue[], destination: 'document' | 'serialized'): XdmValue {
  if (input.length !== 1 || stylesheet.length !== 1) throw xpathError('xslt:transform expects one input and one stylesheet.', 'XPTY0004');
  const sheet = compiled(stylesheetSource(stylesheet[0]));
  const sourceNode = inputDocument(input[0]);
  let result: { principalResult: unknown };
  try {
    result = saxon().transform(
      {
        stylesheetInternal: sheet.sef,
        sourceNode,
        destination,
        stylesheetParams: stylesheetParams(params?.[0] as XdmMap | undefined),
        collectionFinder: collectionFinder(sheet.baseUri),
        documentPool: {},
      },
      'sync',
    );
  } catch (e) {
    if (e instanceof RangeError) throw e; // stack exhaustion: the query's limit, not the stylesheet's error
    const q = toQueryError(e, 'evaluate');
    throw xsltError(`${q.code}: ${q.message}`);
  }
  if (destination === 'serialized') return [stringValue(String(result.principalResult ?? ''))];
  return result.principalResult ? [result.principalResult as XdmNode] : [];
}

/** Registers the xslt: functions with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerXsltFunctions(): void {
  registerFunctions(XSLT_NS, {
    processor: { sig: '1F r[1AS] a[]', arity: [0], impl: () => [stringValue('SaxonJS')] },
    version: { sig: '1F r[1AS] a[]', arity: [0], impl: () => [stringValue('3.0')] },
    transform: { sig: '1F r[1N] a[1,1,?FM,?FM]', arity: [2, 3, 4], impl: (args) => transform(args, 'document') },
    'transform-text': { sig: '1F r[1AS] a[1,1,?FM,?FM]', arity: [2, 3, 4], impl: (args) => transform(args, 'serialized') },
  });
}
