// `npm run build && node bench/fulltext-put.js [-- OPTIONS]`: what the full-text index costs a PUT.
// One server gets the XMark document (xmark-data.js) twice, as the database `ft` with the full-text
// index and as `plain` without it; both get the same queries (so both documents are parsed and
// their text is searched), then, once the server is quiet, PUTs of a 10 KB document
// (the one of bench/fulltext.js) alternate between the two databases, each replacing the one
// before, so both see the same machine state. Prints the p50 of each and their ratio.
//
//   --runs N (default 21)   --factor F (default 0.1)   --store file|postgres (default file: a
//   throwaway PostgreSQL cluster as for `npm run bench -- --store postgres`)
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { target, request, query, ok, percentile } = require('./client');
const { log, settle } = require('./measure');
const { PASSWORD, startServer, withProcesses } = require('./processes');
const { generateXmark } = require('./xmark-data');
const { smallDocument } = require('./fulltext-document');

function options(argv) {
  const o = { runs: 21, factor: 0.1, store: 'file' };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--') continue; // as npm passes it on
    const [flag, inline] = argv[i].split(/=(.*)/s);
    if (!['--runs', '--factor', '--store'].includes(flag)) throw new Error(`unknown option ${argv[i]} (see the head of bench/fulltext-put.js)`);
    const value = inline ?? argv[++i];
    o[flag.slice(2)] = flag === '--store' ? value : Number(value);
  }
  if (o.store !== 'file' && o.store !== 'postgres') throw new Error(`--store is file or postgres, not ${o.store}`);
  return o;
}

// the same queries over both (ft:search needs the index: `ft` only)
const QUERIES = ['count(//text[text() contains text "gold"])', 'count(//country[. contains text "Kenya"])'];

async function main() {
  const o = options(process.argv.slice(2));
  const file = generateXmark(path.join(__dirname, 'data'), o.factor);
  const xml = fs.readFileSync(file, 'utf8');
  const doc = smallDocument(xml);
  const times = await withProcesses(async (cleanups, folder) => {
    let storeUrl;
    if (o.store === 'postgres') {
      const cluster = await require('./postgres').startCluster();
      cleanups.push(cluster.stop);
      storeUrl = await cluster.database('xmldb_ftput');
    }
    const server = await startServer(folder('file'), { storeUrl, maxBodyMib: Math.max(64, Math.ceil(xml.length / 2 ** 20) + 1) });
    cleanups.push(server.stop);
    const t = target('xmldb-rest', server.url, { password: PASSWORD, pids: [server.pid] });
    const must = async (what, r) => {
      if (!ok(await r)) throw new Error(`${what} failed`);
    };
    for (const db of ['plain', 'ft']) {
      log(`loading ${path.basename(file)} into ${db}`);
      await must(`PUT /${db}`, request(t, 'PUT', `/${db}`, xml));
    }
    await must('CREATE INDEX FULLTEXT', request(t, 'POST', '/ft', '<command xmlns="http://basex.org/rest"><text>CREATE INDEX FULLTEXT</text></command>'));
    for (const db of ['plain', 'ft']) for (const q of QUERIES) await must(q, query(t, q, db));
    await must('ft:search', query(t, 'count(ft:search("ft", "gold"))', 'ft'));
    log(`waited ${await settle(t.pids)} ms for the server to be quiet; ${o.runs} PUTs into each database, alternating`);
    const ms = { plain: [], ft: [] };
    for (let i = 0; i <= o.runs; i++) {
      for (const db of i % 2 ? ['plain', 'ft'] : ['ft', 'plain']) {
        const put = await request(t, 'PUT', `/${db}/put-10kb.xml`, doc);
        if (!ok(put)) throw new Error(`PUT /${db}/put-10kb.xml answered ${put.status} ${put.text.slice(0, 200)}`);
        if (i > 0) ms[db].push(put.ms); // the first creates the path
      }
    }
    return ms;
  });
  const [plain, ft] = [percentile(times.plain, 0.5), percentile(times.ft, 0.5)];
  console.log(`store ${o.store}, ${path.basename(file)} (${(xml.length / 2 ** 20).toFixed(1)} MB), p50 of ${o.runs} PUTs of ${(Buffer.byteLength(doc) / 1024).toFixed(1)} KB each:`);
  console.log(`  without the index ${plain.toFixed(2)} ms, with the full-text index ${ft.toFixed(2)} ms: ${(ft / plain).toFixed(2)}x`);
}

main().catch((e) => {
  console.error(`bench/fulltext-put.js: ${e.message}`);
  process.exit(1);
});
