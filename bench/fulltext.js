// `npm run build && node bench/fulltext.js [-- OPTIONS]`: the full-text index on the XMark document
// (xmark-data.js, factor 0.1: ~11 MB), next to BaseX 9.7.2 when the comparison kit is set up
// (BENCH_KIT, as for bench/xmark.js), else this server alone. Each server gets the document as the
// database `xmark`, then:
//
//   scan         `//text[text() contains text "gold"]` before the index is created: every text
//                node matched
//   put          PUT of a 10 KB document (words of the XMark text) into the database before the
//                index is created, then DELETE (each run replaces the one before)
//   build        CREATE INDEX FULLTEXT and the first ft:search after it (this server builds the
//                index of a document version when a query first needs it; BaseX in the command)
//   frequent     ft:search for a word of most item descriptions
//   rare         ft:search for a word of a few text nodes
//   phrase       ft:search for a two-word phrase
//   predicate    `//text[text() contains text "gold"]` over the indexed database
//   leaf         `//country[. contains text "Kenya"]` (elements holding one text node)
//   put indexed  the PUT of `put` into the indexed database, last (BaseX drops its full-text
//                index on an update unless UPDINDEX is on, so an ft:search after it is shown);
//                both PUT rows start once the server is quiet. fulltext-put.js compares the two
//                on one server, alternating
//
// Each query counts its answer (compared between the servers) and runs once to warm up, then
// `--runs` times: the p50 is shown. Writes bench/results/fulltext.md and prints it.
//
//   --runs N (default 5)   --factor F (default 0.1)
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { target, request, query, ok, percentile } = require('./client');
const { log, memory, settle } = require('./measure');
const { smallDocument } = require('./fulltext-document');
const { PASSWORD, startServer, basexLayout, startBasex, withProcesses } = require('./processes');
const { generateXmark } = require('./xmark-data');

const QUERIES = {
  frequent: 'count(ft:search("xmark", "gold"))',
  rare: 'count(ft:search("xmark", "Kenya"))',
  phrase: 'count(ft:search("xmark", "limited edition", map { "mode": "phrase" }))',
  predicate: 'count(//text[text() contains text "gold"])',
  leaf: 'count(//country[. contains text "Kenya"])',
};

function options(argv) {
  const o = { runs: 5, factor: 0.1, kit: process.env.BENCH_KIT || path.join(__dirname, '..', '..', 'shared', 'tools', 'basex-bench') };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--') continue; // as npm passes it on
    const [flag, inline] = argv[i].split(/=(.*)/s);
    if (flag !== '--runs' && flag !== '--factor') throw new Error(`unknown option ${argv[i]} (see the head of bench/fulltext.js)`);
    o[flag.slice(2)] = Number(inline ?? argv[++i]);
  }
  return o;
}

const SCAN = 'count(//text[text() contains text "gold"])';

/**
 * `runs` PUTs of `doc` to one path of the database (each replaces the last), then its DELETE; at
 * least 11, as a PUT takes a few ms. They start once the server is quiet (measure.js `settle`), so
 * that the PUTs after the queries do not time the garbage collection those queries left behind.
 */
async function puts(t, doc, runs) {
  await settle(t.pids);
  runs = Math.max(runs, 11);
  const times = [];
  let status;
  for (let i = 0; i <= runs; i++) {
    const put = await request(t, 'PUT', '/xmark/put-10kb.xml', doc);
    if (!ok(put)) return { failed: `${put.status} ${put.text.slice(0, 120)}` };
    status = put.status;
    if (i > 0) times.push(put.ms);
  }
  const gone = await request(t, 'DELETE', '/xmark/put-10kb.xml');
  if (!ok(gone)) return { failed: `DELETE ${gone.status} ${gone.text.slice(0, 120)}` };
  return { answer: String(status), ms: percentile(times, 0.5) };
}

const command = (t, text) =>
  request(t, 'POST', '/xmark', `<command xmlns="http://basex.org/rest"><text>${text}</text></command>`);

/** CREATE INDEX FULLTEXT and the first search after it, in ms. */
async function build(t) {
  const created = await command(t, 'CREATE INDEX FULLTEXT');
  if (!ok(created)) throw new Error(`${t.name}: CREATE INDEX FULLTEXT answered ${created.status} ${created.text.slice(0, 200)}`);
  const first = await query(t, QUERIES.frequent, 'xmark');
  return { answer: first.text.trim(), ms: created.ms + first.ms };
}

async function timed(t, text, runs) {
  const first = await query(t, text, 'xmark');
  if (!ok(first)) return { failed: `${first.status} ${first.text.slice(0, 120)}` };
  const times = [];
  for (let i = 0; i < runs; i++) times.push((await query(t, text, 'xmark')).ms);
  return { answer: first.text.trim(), ms: percentile(times, 0.5) };
}

const cell = (r) => (r.failed ? 'error' : r.ms >= 100 ? r.ms.toFixed(0) : r.ms.toFixed(1));

async function main() {
  const o = options(process.argv.slice(2));
  const file = generateXmark(path.join(__dirname, 'data'), o.factor);
  const xml = fs.readFileSync(file, 'utf8');
  const withBasex = basexLayout(o.kit);
  const rows = await withProcesses(async (cleanups, folder) => {
    const targets = [];
    if (withBasex) {
      const basex = await startBasex(o.kit, folder('basex'), 0);
      cleanups.push(basex.stop);
      targets.push(target('BaseX', basex.url, { password: 'admin', pids: [basex.pid] }));
    } else log(`The BaseX comparison kit is not set up at ${o.kit}: measuring this server alone.`);
    // only the body limit is raised (the document is larger than the default 64 MiB at factor 1)
    const server = await startServer(folder('file'), { maxBodyMib: Math.max(64, Math.ceil(xml.length / 2 ** 20) + 1) });
    cleanups.push(server.stop);
    targets.push(target('xmldb-rest', server.url, { password: PASSWORD, pids: [server.pid] }));
    const doc = smallDocument(xml);
    const results = { scan: [], put: [], build: [] };
    for (const t of targets) {
      log(`loading ${path.basename(file)} into ${t.name}, a scan and PUTs without the index, building the index`);
      const put = await request(t, 'PUT', '/xmark', xml);
      if (!ok(put)) throw new Error(`${t.name}: PUT /xmark answered ${put.status} ${put.text.slice(0, 200)}`);
      results.scan.push(await timed(t, SCAN, o.runs));
      results.put.push(await puts(t, doc, o.runs));
      results.build.push(await build(t));
    }
    for (const [id, text] of Object.entries(QUERIES)) {
      results[id] = [];
      for (const t of targets) {
        log(`${id} on ${t.name}`);
        results[id].push(await timed(t, text, o.runs));
      }
    }
    results['put indexed'] = [];
    const after = [];
    for (const t of targets) {
      log(`PUTs into the indexed database on ${t.name}`);
      results['put indexed'].push(await puts(t, doc, o.runs));
      const search = await query(t, QUERIES.frequent, 'xmark');
      after.push(`${t.name} ${search.status}${ok(search) ? ` (${search.text.trim()})` : ''}`);
    }
    const head = targets.map((t) => `${t.name} ms`);
    if (targets.length === 2) head.push(`ratio (${targets[0].name} / ${targets[1].name})`);
    head.push('answers');
    const lines = [`| row | ${head.join(' | ')} |`, `|---|${head.map(() => '---:|').join('')}`];
    for (const [id, rs] of Object.entries(results)) {
      const cells = rs.map(cell);
      if (rs.length === 2) cells.push(rs.some((r) => r.failed) ? '-' : `${(rs[0].ms / rs[1].ms).toFixed(2)}x`);
      cells.push(rs.some((r) => r.failed) ? '-' : [...new Set(rs.map((r) => r.answer))].join(' / '));
      lines.push(`| ${id} | ${cells.join(' | ')} |`);
    }
    const rss = targets.map((t) => {
      const m = memory(t.pids);
      return m ? `${t.name} ${m.rss.value.toFixed(0)} MB` : `${t.name} -`;
    });
    lines.push('', `Resident memory after the queries, each server with its child processes: ${rss.join(', ')}.`);
    lines.push('', `ft:search after the PUTs into the indexed database (\`${QUERIES.frequent}\`): ${after.join(', ')}.`);
    return lines.join('\n');
  });
  const report = [
    `# The full-text index on XMark${withBasex ? ' next to BaseX 9.7.2' : ''}`,
    '',
    `Date: ${new Date().toISOString()}. Machine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} at the end; Node ${process.version}.`,
    `Document: ${path.basename(file)} (factor ${o.factor}, ${(xml.length / 2 ** 20).toFixed(1)} MB). Figures: p50 of ${o.runs} warm runs after one warm-up, ms (build: one run); ratio > 1: this server faster.`,
    `Reproduce: \`npm run build && node bench/fulltext.js -- --factor ${o.factor} --runs ${o.runs}\`.`,
    '',
    rows,
    '',
  ].join('\n');
  const out = path.join(__dirname, 'results', 'fulltext.md');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, report);
  console.log(report);
}

main().catch((e) => {
  console.error(`bench/fulltext.js: ${e.message}`);
  process.exit(1);
});
