/**
 * The json output method as BaseX has it (docs.basex.org, "Serialization", `json` parameter;
 * Serialization 3.1 §10): the one JSON serializer, used by `method=json` (REST parameter,
 * `declare option output:method "json"`, the SERIALIZER option) and by json:serialize.
 *
 * An item becomes JSON this way:
 * - a map: an object, keys by their string value (a key given twice is `[SERE0022]` unless
 *   `allow-duplicate-names=yes`); an array: an array; a value that is not one item: `null` when
 *   empty, `[SERE0023]` when longer;
 * - xs:boolean: `true`/`false`; numbers: their canonical string (`1.0E20`), NaN and the
 *   infinities being `[SERE0020]`; any other atomic value: a string;
 * - a node written in the chosen XML format of BaseX's JSON conversion (the `format` of the `json`
 *   parameter: `direct` (default) and `attributes` for a `<json>` root, `basic`/`w3`/`w3-xml` for
 *   the fn:json-to-xml vocabulary, `jsonml` for any element; serialization/json-from-xml.ts):
 *   the JSON it stands for; any other node: a string holding it serialized with
 *   `json-node-output-method` (default xml); attribute and namespace nodes and functions:
 *   `[SERE0021]`.
 * The `json` parameter's `indent` overrides `indent`, `escape=no` writes strings unescaped,
 * `lax` reads `direct` element names as written with lax rules.
 */
import {
  NodeKind,
  TypeCode,
  atomicDerivesFrom,
  floatCanonical,
  isArray,
  isAtomic,
  isMap,
  isNode,
  type XdmAtomic,
  type XdmItem,
  type XdmNode,
} from '../../saxon';
import { serializationError } from '../query-error';
import { conforms, rootElement, xmlToJson, type JsonXmlFormat } from './json-from-xml';
import { JSON_NULL, jsonLiteral, jsonString, writeJson, type Json, type JsonTextOptions } from './json-text';
import { serializeNode } from './node-output';
import { JSON_FORMATS, nestedOptions, yes, type SerializationParams } from './params';

export type JsonFormat = (typeof JSON_FORMATS)[number];

export interface JsonOutputOptions extends JsonTextOptions {
  readonly format: JsonFormat;
  readonly lax: boolean;
  readonly allowDuplicateNames: boolean;
  /** The output method of nodes that are not in the format, written as strings. */
  readonly nodeOutputMethod: string;
}

/** The XML vocabulary of each format that has one. */
const XML_FORMATS: Readonly<Partial<Record<JsonFormat, JsonXmlFormat>>> = {
  direct: 'direct', attributes: 'attributes', basic: 'basic', w3: 'basic', 'w3-xml': 'basic', jsonml: 'jsonml',
};

/** The options of the json method from a request's serialization parameters (checked by params.ts). */
export function jsonOutputOptions(params: SerializationParams): JsonOutputOptions {
  const json = nestedOptions(params.json);
  return {
    format: (json.format as JsonFormat | undefined) ?? 'direct',
    indent: yes(json.indent ?? params.indent),
    escape: json.escape === undefined || yes(json.escape),
    escapeSolidus: params['escape-solidus'] === undefined || yes(params['escape-solidus']),
    lax: yes(json.lax),
    allowDuplicateNames: yes(params['allow-duplicate-names']),
    nodeOutputMethod: params['json-node-output-method'] ?? 'xml',
  };
}

/** The JSON text of one item. */
export function serializeJson(item: XdmItem, options: JsonOutputOptions): string {
  return writeJson(toJson(item, options), options);
}

function toJson(item: XdmItem, o: JsonOutputOptions): Json {
  if (isAtomic(item)) return atomic(item);
  if (isNode(item)) return node(item, o);
  if (isMap(item)) {
    const seen = new Set<string>();
    return {
      t: 'object',
      members: item.keys().map((k) => {
        const key = k.toString();
        if (!o.allowDuplicateNames && seen.has(key)) throw serializationError('SERE0022', `Duplicate key: "${key}".`);
        seen.add(key);
        return [key, member(item.get(k), o)] as const;
      }),
    };
  }
  if (isArray(item)) return { t: 'array', items: item.value.map((m) => member(m, o)) };
  throw serializationError('SERE0021', 'Functions cannot be serialized as JSON.');
}

/** A map value or array member: one item, or null for none. */
function member(value: XdmItem[], o: JsonOutputOptions): Json {
  if (value.length === 0) return JSON_NULL;
  if (value.length > 1) throw serializationError('SERE0023', `A sequence of ${value.length} items cannot be serialized as one JSON value.`);
  return toJson(value[0], o);
}

function atomic(v: XdmAtomic): Json {
  if (v.code === TypeCode.boolean) return jsonLiteral(v.value ? 'true' : 'false');
  const double = v.code === TypeCode.double || v.code === TypeCode.float;
  if (double || atomicDerivesFrom(v, TypeCode.decimal)) {
    const text = v.code === TypeCode.float ? floatCanonical(Number(v.value)) : v.toString();
    if (double && !Number.isFinite(Number(v.value))) throw serializationError('SERE0020', `Numeric value cannot be serialized as JSON: ${text}.`);
    return jsonLiteral(text);
  }
  return jsonString(v.toString());
}

function node(n: XdmNode, o: JsonOutputOptions): Json {
  if (n.nodeType === NodeKind.attribute || n.nodeType === NodeKind.namespace) {
    throw serializationError('SERE0021', `${n.nodeType === NodeKind.attribute ? 'Attribute' : 'Namespace'} nodes cannot be serialized as JSON.`);
  }
  const format = XML_FORMATS[o.format];
  const element = format === undefined ? undefined : rootElement(n);
  if (format !== undefined && element !== undefined && conforms(element, format)) return xmlToJson(element, { format, lax: o.lax });
  return jsonString(serializeNode(n, { method: o.nodeOutputMethod, 'omit-xml-declaration': true }));
}

