// Runs XQUTS test cases through the REST interface of a running server (BaseX's protocol): each
// case gets a fresh database holding the source documents its states name; the external
// variables of the `insert-start`/`insert-end` part of a query are bound by rewriting their
// declarations (`:= doc('DB/ID.xml')` for documents, `:= 'DB/ID.xml'` for URIs); states run in
// order against the same data and the case passes when every state does.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { loadCatalog } = require('./catalog');
const { compareResult } = require('./compare');

const REST_NS = 'http://basex.org/rest';

/**
 * The optional features (catalog `depends-on`) this implementation has. A case applies when each
 * feature it depends on is as it requires (`supported="false"` cases check the errors of an
 * implementation without it); the others are not run. No static typing feature, no schema
 * revalidation (XQUF 1.0 §2.2.1 leaves the supported modes to the implementation: strict and lax
 * raise XUST0026); fn:put stores documents and elements only (FOUP0001 otherwise).
 */
const FEATURES = {
  'full-axis': true,
  'static-typing': false,
  'revalidation:strict': false,
  'revalidation:lax': false,
  'revalidation:skip': false,
  'put:attribute': false,
  'put:comment': false,
  'put:processing-instruction': false,
  'put:text': false,
};

const applies = (tc, features) => tc.features.every((f) => (features[f.name] ?? false) === f.supported);

const escapeXml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const quoteXq = (s) => `'${s.replace(/'/g, "''")}'`;

function client(url, user, password) {
  const auth = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const base = url.replace(/\/$/, '');
  return async (method, at, body, type = 'application/xml') => {
    const res = await fetch(`${base}/${at}`, {
      method,
      headers: { Authorization: auth, ...(body === undefined ? {} : { 'Content-Type': type }) },
      body,
    });
    return { status: res.status, text: await res.text() };
  };
}

/** The query with its external variables bound (see above); `bindings` maps a name to an XQuery expression. */
function bindVariables(query, bindings) {
  return query.replace(/declare\s+variable\s+\$([\w.-]+)(\s+as\s+[^;]*?)?\s+external\s*;/g, (all, name, type) =>
    bindings.has(name) ? `declare variable $${name}${type ?? ''} := ${bindings.get(name)};` : all,
  );
}

function queryBody(text) {
  return (
    `<query xmlns="${REST_NS}"><text>${escapeXml(text)}</text>` +
    '<parameter name="method" value="xml"/><parameter name="indent" value="no"/>' +
    '<parameter name="omit-xml-declaration" value="yes"/></query>'
  );
}

/** The error code of an error response (`[XUDY0027] ...`, or a QName-like `err:XUDY0027`). */
function errorCode(text) {
  const m = /\[(?:[\w-]+:)?([A-Z]{4}\d{4})\]/.exec(text) ?? /\b(?:err:)?([A-Z]{4}\d{4})\b/.exec(text);
  return m ? m[1] : null;
}

function judgeState(state, res, readExpected) {
  const failed = res.status < 200 || res.status >= 300;
  if (failed) {
    const code = errorCode(res.text);
    if (state.errors.length > 0 && state.errors.includes(code)) return { ok: true };
    const first = res.text.replace(/^Stopped at [^\n]*\n/, '').split('\n')[0].slice(0, 200);
    return { ok: false, cause: state.errors.length ? 'wrong-error' : 'error', reason: `${res.status} ${first}${state.errors.length ? ` (expected ${state.errors.join('|')})` : ''}` };
  }
  if (state.outputs.length === 0) {
    if (state.errors.length === 0) return { ok: true };
    return { ok: false, cause: 'no-error', reason: `no error (expected ${state.errors.join('|')}); result: ${res.text.slice(0, 200)}` };
  }
  let reason = '';
  for (const out of state.outputs) {
    const verdict = compareResult(out.compare, readExpected(out.file), res.text);
    if (verdict.ok) return verdict;
    reason ||= verdict.reason;
  }
  return { ok: false, cause: 'wrong-result', reason: `${reason}; result: ${res.text.slice(0, 300)}` };
}

async function runCase(call, suiteDir, sources, tc, db) {
  const readExpected = (file) => fs.readFileSync(path.join(suiteDir, 'ExpectedTestResults', tc.path, file), 'utf8');
  // Whitespace kept (the expected results have it); CHOP is BaseX 9's name of the option.
  const created = await call('PUT', `${db}?chop=false`);
  if (created.status >= 300) return { ok: false, cause: 'setup', reason: `create ${db}: ${created.status} ${created.text}` };
  try {
    const stored = new Set();
    for (const state of tc.states) {
      for (const input of state.inputs) {
        if (stored.has(input.source)) continue;
        stored.add(input.source);
        const file = sources.get(input.source);
        const res = await call('PUT', `${db}/${input.source}.xml`, fs.readFileSync(file));
        if (res.status >= 300) return { ok: false, cause: 'setup', reason: `store ${input.source}: ${res.status} ${res.text}` };
      }
    }
    for (let i = 0; i < tc.states.length; i++) {
      const state = tc.states[i];
      const bindings = new Map();
      for (const input of state.inputs) bindings.set(input.variable, `doc(${quoteXq(`${db}/${input.source}.xml`)})`);
      for (const uri of state.uris) bindings.set(uri.variable, quoteXq(`${db}/${uri.source}.xml`));
      const query = bindVariables(fs.readFileSync(path.join(suiteDir, 'Queries', 'XQuery', tc.path, `${state.query}.xq`), 'utf8'), bindings);
      const res = await call('POST', db, queryBody(query));
      const verdict = judgeState(state, res, readExpected);
      if (!verdict.ok) return { ...verdict, state: i };
      if (i === tc.states.length - 1) return verdict;
    }
    return { ok: true };
  } finally {
    await call('DELETE', db);
  }
}

/**
 * Runs the cases of `suiteDir` (those whose name matches `filter`, a RegExp, if given) against
 * the server at `url` (its REST root), `jobs` at a time. Answers one result per case, in catalog
 * order: `{ name, ok, whitespace?, state?, cause?, reason? }`. Only the cases that apply to
 * `features` (see FEATURES) run, and of those what `select` keeps (all by default).
 */
async function runSuite({ url, user, password, suiteDir, jobs = 2, filter, features = FEATURES, select = (all) => all, onResult }) {
  const { sources, cases } = loadCatalog(suiteDir);
  const selected = select(cases.filter((c) => applies(c, features) && (!filter || filter.test(c.name))));
  const call = client(url, user, password);
  const results = new Array(selected.length);
  let next = 0;
  const worker = async () => {
    while (next < selected.length) {
      const i = next++;
      const tc = selected[i];
      let verdict;
      try {
        verdict = await runCase(call, suiteDir, sources, tc, `xquts-${i}`);
      } catch (e) {
        verdict = { ok: false, cause: 'harness', reason: String(e && e.message) };
      }
      results[i] = { name: tc.name, ...verdict };
      if (onResult) onResult(results[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
  return results;
}

module.exports = { runSuite, FEATURES };
