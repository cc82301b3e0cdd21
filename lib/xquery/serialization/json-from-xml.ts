/**
 * XML → JSON text for the XML formats of BaseX's JSON conversion (docs.basex.org, "JSON
 * Functions", Conversion Formats), the reverse of convert/json.ts:
 * - `direct`: a `<json>` root; a `type` attribute (`object`, `array`, `string`, `number`,
 *   `boolean`, `null`) per element, `string` when absent, or the root's `objects`/`arrays`/...
 *   lists of names (the `merge` option); object members are child elements named by their key
 *   (decoded as convert:decode-key does), array members `<_>` elements;
 * - `attributes`: the same types, object members `<pair name="key">`, array members `<item>`;
 * - `basic`: the fn:json-to-xml vocabulary (XPath F&O 3.1 §17.5.2): `map`, `array`, `string`,
 *   `number`, `boolean`, `null` in the fn namespace, object members with a `key` attribute;
 * - `jsonml`: any element as `["name", {attributes}?, children…]` (JsonML, jsonml.org); text
 *   children as strings, comments, processing instructions and whitespace-only text left out.
 * Numbers and booleans are written as the text holds them (checked, not reformatted); the
 * result is a {@link Json} tree, written by serialization/json-text.ts.
 *
 * Input that breaks a format's rules is BaseX's `[json:serialize]` error, with its message.
 */
import { JSON_XML_NAMES, MERGE_ATTRIBUTES } from '../../convert/json';
import type { JsonValue } from '../../convert/json-reader';
import { decodeName, FN_NS } from '../../convert/names';
import { NodeKind, isDocumentNode, type XdmNode } from '../../saxon';
import { moduleError } from '../functions/support/option-maps';
import { JSON_NULL, jsonLiteral, jsonString, type Json } from './json-text';

export type JsonXmlFormat = 'direct' | 'attributes' | 'basic' | 'jsonml';

export interface JsonXmlOptions {
  readonly format: JsonXmlFormat;
  /** direct: element names were written with lax rules (they are not decoded). */
  readonly lax?: boolean;
}

interface DomNode extends XdmNode {
  readonly localName: string;
  readonly namespaceURI: string | null;
  readonly childNodes: ArrayLike<DomNode>;
  readonly attributes?: ArrayLike<{ readonly name: string; readonly localName: string; readonly namespaceURI: string | null; readonly value: string }>;
  readonly nodeValue: string | null;
  readonly textContent: string | null;
}

type JsonType = JsonValue['type'];
const TYPES: readonly string[] = MERGE_ATTRIBUTES.map(([type]) => type);
/** The root attributes of the `merge` option, by name. */
const MERGED: ReadonlyMap<string, JsonType> = new Map(MERGE_ATTRIBUTES.map(([type, attribute]) => [attribute, type]));
const { root: ROOT, member: MEMBER, pair: PAIR, item: ITEM } = JSON_XML_NAMES;

const fail = (message: string): never => {
  throw moduleError('json', 'serialize', message);
};

const elements = (n: DomNode): DomNode[] => Array.from(n.childNodes).filter((c) => c.nodeType === NodeKind.element);
const text = (n: DomNode): string => n.textContent ?? '';
const attributesOf = (n: DomNode) => Array.from(n.attributes ?? []);
const attribute = (n: DomNode, name: string): string | undefined => attributesOf(n).find((a) => a.name === name)?.value;

/** The element a node stands for: a document's root element, or the element itself. */
export function rootElement(node: XdmNode): XdmNode | undefined {
  if (node.nodeType === NodeKind.element) return node;
  if (!isDocumentNode(node)) return undefined;
  const roots = elements(node as DomNode);
  return roots.length === 1 ? roots[0] : undefined;
}

/** Whether `element` is written in `format` (else it is serialized as any other item). */
export function conforms(element: XdmNode, format: JsonXmlFormat): boolean {
  const e = element as DomNode;
  if (format === 'basic') return e.namespaceURI === FN_NS;
  if (format === 'jsonml') return true;
  return e.localName === ROOT && !e.namespaceURI;
}

/** The JSON value `element` stands for in `options.format`. */
export function xmlToJson(element: XdmNode, options: JsonXmlOptions): Json {
  const e = element as DomNode;
  switch (options.format) {
    case 'direct':
    case 'attributes':
      return typed(e, undefined, mergedTypes(e), options);
    case 'basic':
      return basic(e);
    case 'jsonml':
      return jsonml(e);
  }
}

// --- direct and attributes ---------------------------------------------------------------

function mergedTypes(root: DomNode): Map<string, JsonType> {
  const types = new Map<string, JsonType>();
  for (const a of attributesOf(root)) {
    const type = MERGED.get(a.name);
    if (type) for (const name of a.value.split(/\s+/).filter(Boolean)) types.set(name, type);
  }
  return types;
}

function typed(e: DomNode, key: string | undefined, merged: Map<string, JsonType>, options: JsonXmlOptions): Json {
  const explicit = attribute(e, 'type');
  if (explicit !== undefined && !TYPES.includes(explicit)) fail(`<${e.localName}> has invalid type "${explicit}".`);
  const type = (explicit as JsonType | undefined) ?? (key !== undefined ? merged.get(key) : merged.get(ROOT)) ?? 'string';
  const children = elements(e);
  if (type !== 'object' && type !== 'array' && children.length > 0) fail(`<${e.localName}> is typed as "${type}" and cannot be nested.`);
  const attributes = options.format === 'attributes';
  switch (type) {
    case 'object':
      return {
        t: 'object',
        members: children.map((c) => {
          if (attributes && c.localName !== PAIR) fail(`<${c.localName}> found, <${PAIR}> expected.`);
          const name = attributes ? attribute(c, 'name') ?? fail(`<${c.localName}> has no name attribute.`) : decodeName(c.localName, options.lax === true);
          return [name, typed(c, attributes ? name : c.localName, merged, options)] as const;
        }),
      };
    case 'array':
      return {
        t: 'array',
        items: children.map((c) => {
          const expected = attributes ? ITEM : MEMBER;
          if (c.localName !== expected) fail(`<${c.localName}> found, <${expected}> expected.`);
          return typed(c, c.localName, merged, options);
        }),
      };
    default:
      return scalar(e.localName, type, text(e));
  }
}

function scalar(name: string, type: 'string' | 'number' | 'boolean' | 'null', value: string): Json {
  switch (type) {
    case 'string':
      return jsonString(value);
    case 'number':
      if (Number.isNaN(Number(value.trim())) || value.trim() === '') fail(`Value of <${name}> is no number: "${value}".`);
      return jsonLiteral(value.trim());
    case 'boolean':
      if (value.trim() !== 'true' && value.trim() !== 'false') fail(`Value of <${name}> is no boolean: "${value}".`);
      return jsonLiteral(value.trim());
    case 'null':
      if (value.trim() !== '') fail(`<${name}> is typed as "null" and cannot have a value.`);
      return JSON_NULL;
  }
}

// --- basic (fn:json-to-xml vocabulary) ----------------------------------------------------

function basic(e: DomNode): Json {
  if (e.namespaceURI !== FN_NS) fail(`Element <${e.localName}> is not in the namespace ${FN_NS}.`);
  const children = elements(e);
  const keyed = (c: DomNode): readonly [string, Json] => [attribute(c, 'key') ?? fail(`<${c.localName}> has no key attribute.`), basic(c)];
  switch (e.localName) {
    case 'map':
      return { t: 'object', members: children.map(keyed) };
    case 'array':
      return { t: 'array', items: children.map(basic) };
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
      if (children.length > 0) fail(`<${e.localName}> cannot have child elements.`);
      return scalar(e.localName, e.localName, text(e));
    default:
      return fail(`Invalid element <${e.localName}>.`);
  }
}

// --- jsonml ------------------------------------------------------------------------------

function jsonml(e: DomNode): Json {
  const items: Json[] = [jsonString(e.nodeName ?? e.localName)];
  const attributes = attributesOf(e).filter((a) => a.name !== 'xmlns' && !a.name.startsWith('xmlns:'));
  if (attributes.length > 0) items.push({ t: 'object', members: attributes.map((a) => [a.name, jsonString(a.value)] as const) });
  for (const c of Array.from(e.childNodes)) {
    if (c.nodeType === NodeKind.element) items.push(jsonml(c));
    else if (c.nodeType === NodeKind.text && (c.nodeValue ?? '').trim() !== '') items.push(jsonString(c.nodeValue ?? ''));
  }
  return { t: 'array', items };
}
