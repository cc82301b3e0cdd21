// The XQUTS comparators (catalog `comparisons`): `XML` compares documents, `Fragment` and `Text`
// wrap both sides in a container element first; both sides are parsed and compared as infosets:
// elements by expanded name, attributes as a set, in-scope namespaces, text, comments and
// processing instructions. Whitespace-only text nodes count, except in a second, lenient pass
// whose success is reported apart (`whitespace`), since serializers may indent differently.
'use strict';
const { parseXmlDocument } = require('slimdom');

const XMLNS = 'http://www.w3.org/2000/xmlns/';

function withoutDeclaration(text) {
  return text.replace(/^\uFEFF?\s*<\?xml\s[^?]*\?>/, '');
}

function parse(text, wrap) {
  const body = withoutDeclaration(text.replace(/\r\n?/g, '\n'));
  return parseXmlDocument(wrap ? `<xquts-fragment>${body}</xquts-fragment>` : body);
}

/** The in-scope namespace bindings of an element, as sorted `prefix=uri` (xmlns attributes of it and its ancestors). */
function inScope(el) {
  const seen = new Map();
  for (let e = el; e && e.nodeType === 1; e = e.parentNode) {
    for (const a of e.attributes) {
      if (a.namespaceURI !== XMLNS) continue;
      const prefix = a.prefix === null ? '' : a.localName;
      if (!seen.has(prefix)) seen.set(prefix, a.value);
    }
  }
  return [...seen].filter(([, uri]) => uri !== '').map(([p, uri]) => `${p}=${uri}`).sort().join(' ');
}

/** A canonical text of a node; `lenient` drops whitespace-only text nodes. */
function canonical(node, lenient, out) {
  switch (node.nodeType) {
    case 9:
      for (const c of node.childNodes) canonical(c, lenient, out);
      return out;
    case 1: {
      const attrs = node.attributes
        .filter((a) => a.namespaceURI !== XMLNS)
        .map((a) => `{${a.namespaceURI ?? ''}}${a.localName}=${JSON.stringify(a.value)}`)
        .sort();
      const wrapper = node.localName === 'xquts-fragment' && node.parentNode.nodeType === 9;
      out.push(`<{${node.namespaceURI ?? ''}}${node.localName}${attrs.map((a) => ` ${a}`).join('')}${wrapper ? '' : ` ns[${inScope(node)}]`}>`);
      let text = '';
      const flush = () => {
        if (text !== '' && !(lenient && text.trim() === '')) out.push(JSON.stringify(text));
        text = '';
      };
      for (const c of node.childNodes) {
        if (c.nodeType === 3 || c.nodeType === 4) {
          text += c.data;
          continue;
        }
        flush();
        canonical(c, lenient, out);
      }
      flush();
      out.push('</>');
      return out;
    }
    case 7:
      out.push(`<?${node.target} ${node.data}?>`);
      return out;
    case 8:
      out.push(`<!--${node.data}-->`);
      return out;
    default:
      return out;
  }
}

function firstDifference(a, b) {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return `expected ${a[i] ?? '(end)'} but found ${b[i] ?? '(end)'}`;
}

/**
 * Compares an actual result with an expected one under a catalog comparator. Answers
 * `{ ok: true, whitespace? }` or `{ ok: false, reason }`.
 */
function compareResult(compare, expected, actual) {
  if (compare === 'Ignore') return { ok: true };
  const wrap = compare !== 'XML';
  let want;
  let got;
  try {
    want = parse(expected, wrap);
  } catch (e) {
    return { ok: false, reason: `expected result does not parse: ${e.message}` };
  }
  try {
    got = parse(actual, wrap);
  } catch (e) {
    if (compare === 'XML') {
      // A document result may legitimately be a fragment only if the expectation is one too.
      return { ok: false, reason: `result is not a document: ${String(e.message).split('\n')[0]}` };
    }
    return { ok: false, reason: `result does not parse: ${String(e.message).split('\n')[0]}` };
  }
  const strictWant = canonical(want, false, []);
  const strictGot = canonical(got, false, []);
  if (strictWant.join('') === strictGot.join('')) return { ok: true };
  const lenientWant = canonical(want, true, []);
  const lenientGot = canonical(got, true, []);
  if (lenientWant.join('') === lenientGot.join('')) return { ok: true, whitespace: true };
  return { ok: false, reason: firstDifference(lenientWant, lenientGot) };
}

module.exports = { compareResult };
