// In-process engine timings: a cached FLWOR query over a small document, never-seen queries
// (compile + run), and the memory a parsed 10 MB document costs. Used by run.js.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const dist = path.join(__dirname, '..', 'dist');

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function timeQueries(engine, queries, context) {
  const times = [];
  for (const query of queries) {
    const start = process.hrtime.bigint();
    await engine.evaluate({ query, context, variables: new Map(), serialization: {} });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times;
}

/**
 * Heap growth of parsing the document, measured in a fresh process with forced GCs. saxon-js is
 * loaded (by parsing a one-element document) before the first reading: the library's own heap is
 * paid once per process, not per document.
 */
function parsedDocumentCost(file) {
  const code = `
    const fs = require('node:fs');
    const { toSaxonDocument } = require(process.argv[1]);
    const text = fs.readFileSync(process.argv[2], 'utf8');
    toSaxonDocument('<warm-up/>');
    global.gc(); const before = process.memoryUsage().heapUsed;
    const doc = toSaxonDocument(text);
    global.gc(); const after = process.memoryUsage().heapUsed;
    console.log(JSON.stringify({ bytes: after - before, kept: !!doc }));`;
  const out = execFileSync(process.execPath, ['--expose-gc', '-e', code, path.join(dist, 'convert', 'xml.js'), file], { encoding: 'utf8' });
  return JSON.parse(out).bytes;
}

async function measureEngine(files) {
  const { createEngine } = require(path.join(dist, 'xquery', 'engine.js'));
  const { storeSourceSpec } = require(path.join(dist, 'xquery', 'modules', 'store-source.js'));
  const { createFileStore } = require(path.join(dist, 'store', 'index.js'));
  const { convertInput } = require(path.join(dist, 'convert', 'index.js'));
  const dbPath = fs.mkdtempSync(path.join(os.tmpdir(), 'xmldb-engine-bench-'));
  // The small document is stored, as queries over a database find it: parsed once, then cached.
  const store = await createFileStore(dbPath);
  const input = convertInput(fs.readFileSync(files['doc-10kb.xml']), 'application/xml');
  await store.write(['small'], async (view) => {
    await view.createDatabase('small');
    await view.putResource('small', 'doc.xml', input);
  });
  await store.close();
  const engine = createEngine({ dbPath, workers: 1, documentSource: storeSourceSpec() });
  const context = { kind: 'database', db: 'small', path: '' };
  const flwor = 'for $i in //item where xs:decimal($i/price) > 500 order by $i/name return string($i/@id)';
  try {
    await timeQueries(engine, [flwor, flwor], context);
    const cached = await timeQueries(engine, Array(200).fill(flwor), context);
    // one XPath expression: runs without compiling a stylesheet
    const fresh = await timeQueries(
      engine,
      Array.from({ length: 20 }, (_, i) => `for $i in //item where xs:decimal($i/price) > ${i * 37} return string($i/@id)`),
      context,
    );
    // order by needs XSLT: every query is compiled first
    const freshCompiled = await timeQueries(
      engine,
      Array.from({ length: 20 }, (_, i) => `for $i in //item where xs:decimal($i/price) > ${i * 37} order by $i/name return string($i/@id)`),
      context,
    );
    const size = fs.statSync(files['items-10mb.xml']).size;
    const parsed = parsedDocumentCost(files['items-10mb.xml']);
    const results = [
      ['cached FLWOR over a stored 10 KB document, p50', `${percentile(cached, 50).toFixed(2)} ms`],
      ['cached FLWOR over a stored 10 KB document, p99', `${percentile(cached, 99).toFixed(2)} ms`],
      ['never-seen FLWOR (one XPath expression, not compiled), p50', `${percentile(fresh, 50).toFixed(1)} ms`],
      ['never-seen FLWOR with order by, compile + run, p50', `${percentile(freshCompiled, 50).toFixed(1)} ms`],
      ['parsed 10 MB document, heap', `${(parsed / 1048576).toFixed(1)} MB (${(parsed / size).toFixed(1)}× its size)`],
    ];
    for (const [name, value] of results) console.log(`${name}: ${value}`);
    return results;
  } finally {
    await engine.close();
    fs.rmSync(dbPath, { recursive: true, force: true });
  }
}

module.exports = { measureEngine };
