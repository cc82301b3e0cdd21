/**
 * The XML toolkit shared by http, operations, commands, convert and the query engine: escaping,
 * the REST namespace, parsing to a DOM and serializing DOM nodes.
 */
export { escapeAttribute, escapeText } from './escape';
export { REST_NS } from './namespaces';
export { childElements, childNodes, isElement, isText, parseToDom, serializeNodes, stringValue } from './dom';
