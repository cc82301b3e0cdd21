// XQFTTS, the W3C XQuery and XPath Full Text 1.0 test suite, run over REST.
//
// `npm run xqftts [-- --suite DIR] [--json FILE] [--tests REGEX]`: builds the package, starts the
// standalone server on a fresh data folder and runs the suite (default ../shared/xqftts beside
// the repository) against it; prints the pass rate and the failing cases. The jest test
// (__tests__/xquery/fulltext/xqftts.test.ts) runs the same cases through `runSuite` against the
// router.
//
// How cases run (the suite's GuidelinesForRunningTheFullTextTestSuite.html): every source
// document, stop-word list and thesaurus is stored in the database `xqftts`; an external input
// variable is bound by declaring it as `doc('xqftts/NAME.xml')`, a context item by running the
// query on the stored document; the `http://bstore1.example.com/…` URIs the queries name are
// replaced by the stored resources the catalog maps them to. A case passes when the result equals
// an expected result (XML and fragments compared without whitespace next to tags or namespace
// declarations, text trimmed)
// or the error is one the case expects.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { startServer, stopServer } = require('./standalone-server');

const DB = 'xqftts';

function attr(tag, name) {
  const m = new RegExp(`\\b${name}="([^"]*)"`).exec(tag);
  return m ? m[1] : undefined;
}

function decode(s) {
  return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
}

/** The catalog: sources, stop-word lists, thesauri and test cases. */
function readCatalog(suite) {
  const text = fs.readFileSync(path.join(suite, 'XQFTTSCatalog.xml'), 'utf8').replace(/<!--[\s\S]*?-->/g, '');
  const sources = new Map();
  for (const m of text.matchAll(/<source\s[^>]*>/g)) sources.set(attr(m[0], 'ID'), attr(m[0], 'FileName'));
  const resources = [];
  for (const m of text.matchAll(/<(stopwords|thesaurus)\s[^>]*\bFileName="[^"]*"[^>]*>/g)) {
    resources.push({ kind: m[1], id: attr(m[0], 'ID'), uri: attr(m[0], 'uri'), file: attr(m[0], 'FileName') });
  }
  const cases = [];
  for (const m of text.matchAll(/<test-case\s[^>]*>[\s\S]*?<\/test-case>/g)) {
    const c = m[0];
    const head = /<test-case\s[^>]*>/.exec(c)[0];
    cases.push({
      name: attr(head, 'name'),
      path: attr(head, 'FilePath'),
      scenario: attr(head, 'scenario'),
      query: attr(/<query\s[^>]*>/.exec(c)[0], 'name'),
      inputs: [...c.matchAll(/<input-file\s([^>]*)>([^<]*)<\/input-file>/g)].map((i) => ({ variable: attr(i[1], 'variable'), source: i[2].trim() })),
      context: [...c.matchAll(/<contextItem\s[^>]*>([^<]*)<\/contextItem>/g)].map((i) => i[1].trim())[0],
      outputs: [...c.matchAll(/<output-file\s([^>]*)>([^<]*)<\/output-file>/g)].map((o) => ({ compare: attr(o[1], 'compare'), file: o[2].trim() })),
      errors: [...c.matchAll(/<expected-error>([^<]*)<\/expected-error>/g)].map((e) => e[1].trim()),
    });
  }
  return { sources, resources, cases };
}

function storedName(file) {
  return file.replace(/^TestSources\//, '');
}

/**
 * Whitespace next to tags removed (the expected results are re-indented), runs of whitespace made
 * one space, and namespace declarations dropped (as fn:deep-equal, which compares names, not the
 * declarations in scope).
 */
function canonical(s) {
  return s
    .replace(/^<\?xml[^>]*\?>/, '')
    .replace(/\s+xmlns(:[\w.-]+)?="[^"]*"/g, '')
    .replace(/<([^\s/>!?]+)([^>]*)><\/\1>/g, '<$1$2/>')
    .replace(/>\s+/g, '>')
    .replace(/\s+</g, '<')
    .replace(/\s+/g, ' ')
    .trim();
}

function sameResult(actual, expected, compare) {
  if (compare === 'Text') return actual.trim() === expected.trim() || canonical(actual) === canonical(expected);
  return canonical(actual) === canonical(expected);
}

/** Runs every case against the REST server at `url`; returns { results: [{ name, pass, detail }] }. */
async function runSuite({ url, user, password, suite, filter }) {
  const auth = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const call = async (method, p, body, type) => {
    const res = await fetch(`${url}/${p}`, { method, headers: { authorization: auth, ...(type ? { 'content-type': type } : {}) }, body });
    return { status: res.status, text: await res.text() };
  };
  const catalog = readCatalog(suite);
  const created = await call('PUT', DB);
  if (created.status >= 300) throw new Error(`cannot create the database: ${created.status} ${created.text}`);
  const stored = new Set();
  const store = async (file, type) => {
    const name = storedName(file);
    if (stored.has(name) || !fs.existsSync(path.join(suite, file))) return;
    const r = await call('PUT', `${DB}/${name}`, fs.readFileSync(path.join(suite, file)), type);
    if (r.status >= 300) throw new Error(`cannot store ${name}: ${r.status} ${r.text}`);
    stored.add(name);
  };
  for (const file of catalog.sources.values()) if (file.endsWith('.xml')) await store(file, 'application/xml');
  const uris = new Map();
  for (const r of catalog.resources) {
    await store(r.file, r.kind === 'thesaurus' ? 'application/xml' : 'text/plain');
    if (r.uri !== '##default') uris.set(r.uri, `${DB}/${storedName(r.file)}`);
  }
  const results = [];
  const cases = catalog.cases.filter((c) => !filter || filter.test(c.name));
  const queue = [...cases];
  const worker = async () => {
    for (let c = queue.shift(); c; c = queue.shift()) results.push(await runCase(c));
  };
  const runCase = async (c) => {
    let query = fs.readFileSync(path.join(suite, 'Queries/XQuery', c.path, `${c.query}.xq`), 'utf8');
    for (const input of c.inputs) {
      const file = catalog.sources.get(input.source);
      const declared = `declare variable $${input.variable} := doc('${DB}/${storedName(file)}');`;
      query = query.replace(new RegExp(`declare\\s+variable\\s+\\$${input.variable}\\s+external\\s*;`), declared);
    }
    for (const [uri, stored] of uris) query = query.split(uri).join(stored);
    const target = c.context ? `${DB}/${storedName(catalog.sources.get(c.context))}` : DB;
    const body = `<query xmlns="http://basex.org/rest"><text>${query.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</text></query>`;
    const r = await call('POST', target, body, 'application/xml');
    if (r.status !== 200) {
      const code = /^\[([^\]]+)\]/.exec(r.text)?.[1] ?? '';
      const pass = c.errors.some((e) => code.endsWith(e)) || (c.errors.length > 0 && c.outputs.length === 0 && c.scenario !== 'standard');
      return { name: c.name, pass, detail: `error ${r.status} ${r.text.slice(0, 200)}${c.errors.length ? ` (expected ${c.errors.join('|')})` : ''}` };
    }
    for (const o of c.outputs) {
      // A few catalog entries name the result with the other extension (FTNot-q2.xml is FTNot-q2.txt).
      const file = [o.file, o.file.replace(/\.xml$/, '.txt'), o.file.replace(/\.txt$/, '.xml')]
        .map((f) => path.join(suite, 'ExpectedTestResults', c.path, f))
        .find((f) => fs.existsSync(f));
      if (!file) continue;
      if (o.compare === 'Ignore' || sameResult(r.text, fs.readFileSync(file, 'utf8'), o.compare)) return { name: c.name, pass: true, detail: '' };
    }
    return { name: c.name, pass: false, detail: `got ${r.text.slice(0, 300)}${c.errors.length ? ` (or expected ${c.errors.join('|')})` : ''}` };
  };
  await Promise.all([worker(), worker()]);
  results.sort((a, b) => a.name.localeCompare(b.name));
  return { results };
}

async function main() {
  const root = path.join(__dirname, '..');
  const args = process.argv.slice(2);
  const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const suite = path.resolve(opt('--suite') ?? path.join(root, '..', 'shared', 'xqftts'));
  if (!fs.existsSync(path.join(suite, 'XQFTTSCatalog.xml'))) {
    console.error(`npm run xqftts needs the test suite (XQFTTSCatalog.xml) in ${suite}; pass --suite DIR.`);
    process.exitCode = 1;
    return;
  }
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  const password = 'xqftts-admin';
  const dbPath = fs.mkdtempSync(path.join(os.tmpdir(), 'xmldb-xqftts-'));
  const { child, url } = await startServer(dbPath, password);
  try {
    const tests = opt('--tests');
    // the server announces its REST URL (`…/rest`); the suite runs against the REST root of its origin
    const { results } = await runSuite({ url: `${new URL(url).origin}/rest`, user: 'admin', password, suite, filter: tests ? new RegExp(tests) : undefined });
    for (const r of results) if (!r.pass) console.log(`FAIL ${r.name}: ${r.detail.replace(/\s+/g, ' ')}`);
    const passed = results.filter((r) => r.pass).length;
    console.log(`XQFTTS: ${passed}/${results.length} passed (${((100 * passed) / results.length).toFixed(1)}%)`);
    const json = opt('--json');
    if (json) fs.writeFileSync(json, `${JSON.stringify(results, null, 1)}\n`);
  } finally {
    await stopServer(child);
    fs.rmSync(dbPath, { recursive: true, force: true });
  }
}

module.exports = { runSuite, readCatalog };

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
