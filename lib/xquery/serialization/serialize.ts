/**
 * Serialization of a raw query result (spec §2.3, §11): methods basex (default), adaptive, xml,
 * xhtml, html, text, json and csv, with item-separator, indent, omit-xml-declaration, encoding
 * and media-type. Parameters arrive as the HTTP layer collects them (name → string, already
 * checked by serialization/params.ts).
 *
 * saxon-js serializes every node (serialization/node-output.ts); we do what it gets wrong or
 * lacks: the adaptive and basex methods (serialization/adaptive.ts), json
 * (serialization/json-output.ts), csv (serialization/csv-output.ts), and sequence normalisation
 * for the markup methods (saxon's item-separator also separates descendants of a node, and its
 * xhtml method drops the space between atomic values).
 */
import { escapeText } from '../../xml';
import { AdaptiveWriter } from './adaptive';
import { csvOptions, serializeCsv } from './csv-output';
import { jsonOutputOptions, serializeJson } from './json-output';
import { serializationError, toQueryError } from '../query-error';
import { NodeKind, isArray, isAtomic, isMap, isNode, type XdmItem, type XdmNode, type XdmValue } from '../../saxon';
import { yes, type OutputMethod } from './params';
import { serializeNode } from './node-output';
import { writePlainMarkup } from './plain-markup';
import { TextPieces } from '../../xml/text-pieces';
import type { SerializationParameters } from './response-encoding';

// Read once: the saxon door's exports are getters (its `export *`), a call each time they are
// read, which a result of tens of thousands of items paid several times an item.
const isArrayItem = isArray;
const isAtomicItem = isAtomic;
const isNodeItem = isNode;

const INDENT_SPACES = 'Q{http://saxon.sf.net/}indent-spaces';

/** Serializes `value` to text with the given parameters. */
export function serialize(value: XdmValue, params: SerializationParameters = {}): string {
  const method = (params.method ?? 'basex') as OutputMethod;
  const indent = yes(params.indent);
  try {
    switch (method) {
      case 'basex':
      case 'adaptive': {
        const writer = new AdaptiveWriter({ indent }, method === 'basex');
        return writer.items(value, params['item-separator'] ?? '\n');
      }
      case 'json':
        return json(value, params);
      case 'csv':
        return serializeCsv(value, csvOptions(params));
      case 'xml':
      case 'xhtml':
      case 'html':
      case 'text':
        return markup(value, method, params, indent);
    }
  } catch (e) {
    throw toQueryError(e, 'serialize');
  }
}

/**
 * One JSON value; with `json-lines=yes` (Serialization 4.0 §10) one per item, each on a line of
 * its own and never indented.
 */
function json(value: XdmValue, params: SerializationParameters): string {
  const options = jsonOutputOptions(params);
  if (yes(params['json-lines'])) return value.map((item) => serializeJson(item, { ...options, indent: false })).join('\n');
  if (value.length === 0) return '';
  if (value.length > 1) throw serializationError('SERE0023', 'Only one item can be serialized with JSON.');
  return serializeJson(value[0], options);
}

function flatten(items: XdmItem[]): XdmItem[] {
  // most results hold no array: they are their own flat sequence, with no array made per item
  return items.some(isArrayItem) ? items.flatMap((item) => (isArrayItem(item) ? flatten(item.value.flat()) : [item])) : items;
}

/**
 * xml, xhtml, html and text: W3C sequence normalisation, then each node through saxon-js (with
 * the XML method and no indentation, a plain tree is written by plain-markup.ts, as saxon-js writes it).
 * Without item-separator, adjacent atomic values are separated by one space and nodes by
 * nothing (a newline with indent); with it, the separator goes between all items.
 */
function markup(value: XdmValue, method: 'xml' | 'xhtml' | 'html' | 'text', params: SerializationParameters, indent: boolean): string {
  const nodeProps: Record<string, unknown> = { method, indent, 'omit-xml-declaration': true };
  if (indent) nodeProps[INDENT_SPACES] = '2';
  for (const name of ['doctype-system', 'doctype-public']) {
    if (params[name] !== undefined) nodeProps[name] = params[name];
  }
  // BaseX 10 and later (so 13) write HTML5 with both methods unless html-version names an
  // earlier one; saxon-js writes HTML5 only, so for an earlier version we take away its
  // `<!DOCTYPE html>` (Serialization 3.1 §5, §7; spec §11.2)
  if ((method === 'xhtml' || method === 'html') && !isHtml5(params, method) && params['doctype-system'] === undefined) nodeProps[NO_HTML5_DOCTYPE] = true;
  const separator = params['item-separator'];
  const text = (s: string): string => (method === 'text' ? s : escapeText(s));
  // saxon-js writes a plain tree as plain-markup.ts does, with the XML method, no indentation and no document type
  const plain = method === 'xml' && !indent && nodeProps['doctype-system'] === undefined && nodeProps['doctype-public'] === undefined;
  const pieces = new TextPieces();
  let count = 0;
  let previousAtomic = false;
  for (const item of flatten(value)) {
    pieces.settle();
    const out = pieces.out;
    const atomic = isAtomicItem(item);
    if (count > 0) {
      if (separator !== undefined) out.push(text(separator));
      else if (atomic && previousAtomic) out.push(' ');
      else if (indent && !atomic && !previousAtomic && method !== 'text') out.push('\n');
    }
    if (atomic) out.push(text(item.toString()));
    else if (!isNodeItem(item)) throw serializationError('SENR0001', `Items of type ${isMap(item) ? 'map(*)' : 'function(*)'} cannot be serialized with method ${method}.`);
    else if (!plain || !writePlainMarkup(item, out)) out.push(node(item, method, nodeProps));
    previousAtomic = atomic;
    count++;
  }
  const body = pieces.text();
  if ((method === 'xml' || method === 'xhtml') && params['omit-xml-declaration'] !== undefined && !yes(params['omit-xml-declaration'])) {
    const standalone = params.standalone && params.standalone !== 'omit' ? ` standalone="${yes(params.standalone) ? 'yes' : 'no'}"` : '';
    return `<?xml version="1.0" encoding="${params.encoding ?? 'UTF-8'}"${standalone}?>${indent ? '\n' : ''}${body}`;
  }
  return body;
}

function node(n: XdmNode, method: string, props: Record<string, unknown>): string {
  if (n.nodeType === NodeKind.attribute || n.nodeType === NodeKind.namespace) {
    throw serializationError('SENR0001', `${n.nodeType === NodeKind.attribute ? 'Attribute' : 'Namespace'} nodes cannot be serialized with method ${method}.`);
  }
  const { [NO_HTML5_DOCTYPE]: noDoctype, ...saxonProps } = props;
  const out = serializeNode(n, saxonProps);
  if (noDoctype) return out.replace(HTML5_DOCTYPE, '');
  // saxon-js ends a document type declaration with a newline; without indent the reference
  // server writes the element right after it (`<!DOCTYPE html><html>`)
  return props.indent ? out : out.replace(DOCTYPE_NEWLINE, '$1');
}

const DOCTYPE_NEWLINE = /^(<!DOCTYPE [^[>]*>)\r?\n/;
const HTML5_DOCTYPE = /^<!DOCTYPE html>\r?\n?/;
/** A property of ours among saxon-js's serialization properties, removed before they reach it. */
const NO_HTML5_DOCTYPE = 'xmldb:no-html5-doctype';

/**
 * Whether the xhtml or html method writes HTML5: yes unless `html-version` is below 5, or, with
 * the html method, `version` (the HTML version there; with xhtml it is the XML version).
 */
function isHtml5(params: SerializationParameters, method: 'xhtml' | 'html'): boolean {
  const version = params['html-version'] ?? (method === 'html' ? params.version : undefined);
  return version === undefined || Number(version) >= 5;
}
