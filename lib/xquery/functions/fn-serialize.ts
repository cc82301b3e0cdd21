/**
 * fn:serialize with the serializer of query results, where saxon-js's own differs from BaseX's
 * (translate/call-workarounds.ts rewrites the calls):
 * - methods `json` and `csv` are written by serialization/json-output.ts and csv-output.ts, so
 *   `serialize(<json type="object">…</json>, map { 'method': 'json' })` is the JSON the element
 *   stands for, with the `json` and `csv` parameters (a nested map here:
 *   `map { 'method': 'json', 'json': map { 'format': 'attributes' } }`), as in BaseX;
 * - every other method stays with saxon-js's fn:serialize (character maps, normalization and
 *   the rest of Serialization 3.1), given nodes that declare their namespaces
 *   (serialization/node-output.ts).
 *
 * Parameters come as fn:serialize takes them (F&O 3.1 §14.1.2): a map keyed by parameter name,
 * or an `output:serialization-parameters` element. Names we do not know are left out, as is
 * `parameter-document` (no file is ever read); values are checked as the request's are, an
 * invalid one being `[SEPM0016]`.
 */
import { ENGINE_NS, NS } from '../constants';
import { MODULE_NAMESPACES } from '../module-namespaces';
import { QueryError } from '../query-error';
import { NodeKind, castString, isAtomic, isMap, isNode, registerFunctions, stringValue, xpathError, TypeCode, type XdmItem, type XdmMap, type XdmNode, type XdmValue } from '../../saxon';
import { withNamespaceDeclarations } from '../serialization/node-output';
import { invalidSerializationParam, isSerializationParam } from '../serialization/params';
import { serialize } from '../serialization/serialize';

/** The methods fn:serialize leaves to our serializer. */
const OWN_METHODS = new Set(['json', 'csv']);

interface DomElement extends XdmNode {
  readonly localName: string;
  readonly namespaceURI: string | null;
  readonly childNodes: ArrayLike<DomElement>;
  getAttribute(name: string): string | null;
}

/** One parameter value as text: booleans as yes/no, sequences space-separated, a map as `k=v,…`. */
function valueText(value: XdmValue): string {
  if (value.length === 1 && isMap(value[0])) return nestedText(value[0]);
  return value
    .map((v) => (isAtomic(v) && v.code === TypeCode.boolean ? (v.value ? 'yes' : 'no') : isAtomic(v) && v.code === TypeCode.QName ? (v as unknown as { local: string }).local : String(isNode(v) ? (v as unknown as { textContent: string }).textContent : v)))
    .join(' ');
}

/** BaseX's nested `json`/`csv` options as the string the parameter takes (commas in values doubled). */
function nestedText(map: XdmMap): string {
  return map.keys().map((k) => `${k.toString()}=${valueText(map.get(k)).replace(/,/g, ',,')}`).join(',');
}

/** The serialization parameters of an fn:serialize call, by name. */
export function serializationParams(options: XdmValue): Record<string, string> {
  const params: Record<string, string> = {};
  const add = (name: string, value: string): void => {
    if (!isSerializationParam(name) || name === 'parameter-document' || name in params) return;
    const error = invalidSerializationParam(name, value);
    if (error !== undefined) throw xpathError(error.message, 'SEPM0016');
    params[name] = value;
  };
  if (options.length === 0) return params;
  const item: XdmItem = options[0];
  if (isMap(item)) {
    for (const k of item.keys()) add(k.toString(), valueText(item.get(k)));
  } else if (isNode(item) && item.nodeType === NodeKind.element) {
    for (const c of Array.from((item as DomElement).childNodes)) {
      if (c.nodeType === NodeKind.element && c.namespaceURI === NS.output) add(c.localName, c.getAttribute('value') ?? '');
    }
  }
  return params;
}

/** A module's error code (`json:serialize`) back as the EQName saxon-js raises; W3C codes as they are. */
function eqnameOf(code: string): string {
  const [prefix, local] = code.split(':');
  const uri = local === undefined ? undefined : (MODULE_NAMESPACES as Readonly<Record<string, string>>)[prefix];
  return uri === undefined ? code : `Q{${uri}}${local}`;
}

/** Our serializer's text; its errors become dynamic errors of the query, with their codes. */
function ownSerialization(input: XdmValue, params: Record<string, string>): string {
  try {
    return serialize(input, params);
  } catch (e) {
    if (e instanceof QueryError) throw xpathError(e.message, eqnameOf(e.code));
    throw e;
  }
}

/** Registers the engine's fn:serialize helpers (the list in extension-functions.ts). */
export function registerSerializeFunctions(): void {
  registerFunctions(ENGINE_NS, {
    // whether fn:serialize with these options is written by our serializer
    'serializes-itself': {
      sig: '1F r[1AB] a[*]',
      impl: ([options]) => [castString(String(OWN_METHODS.has(serializationParams(options).method ?? 'xml')), 'boolean')],
    },
    serialize: { sig: '1F r[1AS] a[*,*]', impl: ([input, options]) => [stringValue(ownSerialization(input, serializationParams(options)))] },
    'with-namespaces': { sig: '1F r[*] a[*]', impl: ([items]) => items.map((i) => (isNode(i) ? withNamespaceDeclarations(i) : i)) },
  });
}
