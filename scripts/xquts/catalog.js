// The XQUTS catalog (XQUTSCatalog.xml of the W3C XQuery Update Facility 1.0 test suite) as plain
// objects: its sources (ID -> file) and its test cases, each a list of states run in order.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { parseXmlDocument } = require('slimdom');

const CATALOG_NS = 'http://www.w3.org/2005/02/query-test-update';

function children(el, name) {
  return el.children.filter((c) => c.namespaceURI === CATALOG_NS && c.localName === name);
}

/** The `feature`s a test group or case depends on (`depends-on`): `{ name, supported }`, the case's own first. */
function dependsOn(el) {
  const features = [];
  for (let e = el; e && e.nodeType === 1; e = e.parentNode) {
    const holders = [e, ...children(e, 'GroupInfo')];
    for (const h of holders) {
      for (const d of children(h, 'depends-on')) {
        for (const f of children(d, 'feature')) features.push({ name: f.textContent.trim(), supported: f.getAttribute('supported') !== 'false' });
      }
    }
  }
  return features;
}

function readState(el) {
  const query = children(el, 'query')[0];
  return {
    query: query.getAttribute('name'),
    // Documents bound to external variables (`input-file`) and URIs passed as strings (`input-URI`).
    inputs: children(el, 'input-file').map((i) => ({ variable: i.getAttribute('variable'), source: i.textContent.trim() })),
    uris: children(el, 'input-URI').map((i) => ({ variable: i.getAttribute('variable'), source: i.textContent.trim() })),
    // Alternatives: the state passes with any one of the outputs or any one of the errors.
    outputs: children(el, 'output-file').map((o) => ({ compare: o.getAttribute('compare'), file: o.textContent.trim() })),
    errors: children(el, 'expected-error').map((e) => e.textContent.trim()),
  };
}

/**
 * Loads the catalog of `suiteDir`: `{ sources: Map<ID, absolute file>, cases: [{ name, path,
 * scenario, features, states }] }`, cases in catalog order.
 */
function loadCatalog(suiteDir) {
  const doc = parseXmlDocument(fs.readFileSync(path.join(suiteDir, 'XQUTSCatalog.xml'), 'utf8'));
  const root = doc.documentElement;
  const sources = new Map();
  for (const s of children(children(root, 'sources')[0], 'source')) {
    sources.set(s.getAttribute('ID'), path.join(suiteDir, s.getAttribute('FileName')));
  }
  const cases = [];
  const walk = (group) => {
    for (const el of group.children) {
      if (el.namespaceURI !== CATALOG_NS) continue;
      if (el.localName === 'test-group') walk(el);
      else if (el.localName === 'test-case') {
        cases.push({
          name: el.getAttribute('name'),
          path: el.getAttribute('FilePath'),
          scenario: el.getAttribute('scenario'),
          features: dependsOn(el),
          states: children(el, 'state').map(readState),
        });
      }
    }
  };
  walk(root);
  return { sources, cases };
}

module.exports = { loadCatalog };
