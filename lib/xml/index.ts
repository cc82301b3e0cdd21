/**
 * The XML toolkit shared by http, operations, commands, convert and the query engine: escaping,
 * the REST namespace, parsing to a DOM and serializing DOM nodes; text written in pieces and
 * joined in chunks (text-pieces.ts, imported from its file).
 */
export { escapeAttribute, escapeText } from './escape';
export { REST_NS } from './namespaces';
export { childElements, childNodes, isElement, isText, parseToDom, serializeNodes, stringValue } from './dom';
