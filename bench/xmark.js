// `npm run bench:xmark [-- OPTIONS]`: the twenty XMark queries (xmark-queries.js) on an XMark-shaped
// auction document (xmark-data.js, ~11 MB at factor 0.1, ~108 MB at factor 1), next to BaseX 9.7.2 when the comparison kit
// is set up (as for `npm run bench`), else this server alone. Each server gets the document as the
// database `xmark`; each query runs once to warm up (its answer is compared between the servers,
// whitespace next to tags aside), then `--runs` times: the p50 is shown. A query this
// server ends with its 30 s timeout shows as "timeout"; from factor 1 on, BaseX is not asked the
// joins it does not answer within minutes there (BASEX_NOT_ASKED) unless `--ask-basex-all`, which
// asks it each of them once (no warm-up, its one time shown, the answer compared; about 28
// minutes at factor 1 on a 2-core machine). Writes bench/results/xmark.md and prints it.
//
//   --only REGEX   queries whose id matches (--only '^Q(8|9|1[0-2])$')   --runs N (default 3)
//   --ask-basex-all   BaseX is asked the joins of BASEX_NOT_ASKED too, once each
//   --factor F[,F…] XMark scale factors, each on fresh servers (default 0.1,1: 11 and 108 MB)
//   --port N, --basex-port N (default: free ports)
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { target, request, query, ok, percentile } = require('./client');
const { log, memory, settle } = require('./measure');
const { PASSWORD, startServer, basexLayout, startBasex, withProcesses } = require('./processes');
const { generateXmark } = require('./xmark-data');
const { XMARK } = require('./xmark-queries');

function options(argv) {
  const o = { only: null, runs: 3, factor: '0.1,1', port: 0, basexPort: 0, kit: process.env.BENCH_KIT || path.join(__dirname, '..', '..', 'shared', 'tools', 'basex-bench') };
  const names = { '--only': 'only', '--runs': 'runs', '--factor': 'factor', '--port': 'port', '--basex-port': 'basexPort' };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--ask-basex-all') {
      o.askBasexAll = true;
      continue;
    }
    const [flag, inline] = argv[i].split(/=(.*)/s);
    if (!names[flag]) throw new Error(`unknown option ${argv[i]} (see the head of bench/xmark.js)`);
    o[names[flag]] = inline ?? argv[++i];
  }
  for (const k of ['runs', 'port', 'basexPort']) o[k] = Number(o[k]);
  o.factors = String(o.factor).split(',').map(Number);
  if (!o.factors.every((f) => f > 0)) throw new Error('--factor wants positive numbers, comma-separated');
  if (!(o.runs >= 1)) throw new Error('--runs wants a number >= 1');
  return o;
}

/**
 * The answer without whitespace next to tags and runs of whitespace as one space: the two
 * serializers indent differently.
 */
const normalized = (text) => text.replace(/\s*([<>])\s*/g, '$1').replace(/\s+/g, ' ').trim();

/** One run of a query BaseX is slow on (BASEX_NOT_ASKED): its answer and time, waited for up to JOIN_TIMEOUT_MS. */
async function answerOnce(t, text) {
  const r = await query(t, text, 'xmark', JOIN_TIMEOUT_MS);
  if (!ok(r)) return { failed: `${r.status} ${r.text.slice(0, 120)}`, ms: r.ms };
  return { answer: normalized(r.text), ms: r.ms, once: true };
}

/** How long `--ask-basex-all` waits for one of those answers (BaseX 9.7.2 took 16 minutes for Q11 at factor 1). */
const JOIN_TIMEOUT_MS = 60 * 60 * 1000;

/** One query on one server: the warm-up's answer, then the p50 of `runs` timed runs. */
async function timeQuery(t, text, runs) {
  const first = await query(t, text, 'xmark');
  if (!ok(first)) return { failed: /timeout/i.test(first.text) ? 'timeout' : `${first.status} ${first.text.slice(0, 120)}`, ms: first.ms };
  const times = [];
  for (let i = 0; i < runs; i++) times.push((await query(t, text, 'xmark')).ms);
  return { answer: normalized(first.text), ms: percentile(times, 0.5) };
}

/**
 * The queries BaseX is not asked from factor 1 on (unless `--ask-basex-all`): BaseX 9.7.2 takes
 * minutes for these value joins there (Q9's nested loops, the theta joins Q11 and Q12: 459, 983
 * and 229 s on a 2-core machine), and a query the client gives up on keeps running in BaseX and
 * slows every measurement after it. This server answers them; the table shows its time alone.
 */
const BASEX_NOT_ASKED = { fromFactor: 1, ids: /^Q(9|11|12)$/ };

const cell = (r) =>
  r.failed
    ? r.failed === 'timeout' ? `timeout (${(r.ms / 1000).toFixed(0)} s)` : r.failed === 'not asked' ? 'not asked' : 'error'
    : `${r.ms >= 100 ? r.ms.toFixed(0) : r.ms.toFixed(1)}${r.once ? ' (one run)' : ''}`;

/** The table rows for `targets` (BaseX first when there), a ratio and an answer check per query, at XMark `factor`. */
async function runQueries(targets, o, factor) {
  const only = o.only && new RegExp(o.only);
  const rows = [];
  const ratios = [];
  for (const [id, text] of Object.entries(XMARK)) {
    if (only && !only.test(id)) continue;
    const results = [];
    for (const t of targets) {
      const slow = t.name === 'BaseX' && factor >= BASEX_NOT_ASKED.fromFactor && BASEX_NOT_ASKED.ids.test(id);
      if (slow && !o.askBasexAll) {
        results.push({ failed: 'not asked' });
        continue;
      }
      log(`${id} on ${t.name}${slow ? ' (one run)' : ''}`);
      results.push(slow ? await answerOnce(t, text) : await timeQuery(t, text, o.runs));
    }
    const errors = results.flatMap((r, i) => (r.failed && r.failed !== 'timeout' && r.failed !== 'not asked' ? [`${targets[i].name}: ${r.failed}`] : []));
    if (errors.length) log(`  ${id}: ${errors.join('; ')}`);
    const cells = results.map(cell);
    if (targets.length === 2) {
      const [a, b] = results;
      // a single cold run is not set against a p50 of warm runs: its answer is compared, no ratio
      const timed = !a.failed && !b.failed && !a.once;
      const ratio = timed ? `${(a.ms / b.ms).toFixed(2)}x` : '-';
      if (timed) ratios.push(a.ms / b.ms);
      const same = a.failed || b.failed ? '-' : a.answer === b.answer ? 'same' : `differ (${a.answer.length} / ${b.answer.length} chars)`;
      cells.push(ratio, same);
    }
    rows.push(`| ${id} | ${cells.join(' | ')} |`);
  }
  const head = targets.map((t) => `${t.name} ms`);
  if (targets.length === 2) head.push(`ratio (${targets[0].name} / ${targets[1].name})`, 'answers');
  const lines = [`| query | ${head.join(' | ')} |`, `|---|${head.map(() => '---:|').join('')}`, ...rows];
  if (ratios.length) {
    const geo = Math.exp(ratios.reduce((s, r) => s + Math.log(r), 0) / ratios.length);
    lines.push('', `Geometric mean of the ratios over the ${ratios.length} queries timed on both: ${geo.toFixed(2)}x (> 1: this server faster).`);
  }
  const mb = (m, key) => m[key].value.toFixed(0);
  const atOnce = targets.map((t) => memory(t.pids));
  // then once no process of either is busy (a JVM's and V8's collections finish after the answer)
  await settle(targets.flatMap((t) => t.pids));
  const rss = targets.map((t, i) => {
    const [m, quiet] = [atOnce[i], memory(t.pids)];
    return m && quiet ? `${t.name} ${mb(m, 'rss')} MB at once, ${mb(quiet, 'rss')} MB once idle, its largest process ${mb(quiet, 'rss.largest')} MB (peak ${mb(quiet, 'rss.peak')} MB)` : `${t.name} -`;
  });
  lines.push('', `Resident memory after the queries, each server with its child processes: ${rss.join('; ')}.`);
  return lines.join('\n');
}

/**
 * Where `t` stores the document. BaseX 13 keeps every text node as the document has it (STRIPWS,
 * default false); BaseX 9 trims the whitespace around text nodes unless CHOP is off (on by
 * default before BaseX 10). Off, both servers read the document the way BaseX 13 does: with it
 * on, `…shipping</bold> old clock…` became `shippingold`, and Q14's contains(…, "gold") found
 * three items more.
 */
const storePath = (t) => (t.name === 'BaseX' ? '/xmark?chop=false' : '/xmark');

/** One factor: a fresh BaseX (when the kit is there) and server, the document loaded into each, the queries; the report's section. */
async function runFactor(o, factor, withBasex) {
  const file = generateXmark(path.join(__dirname, 'data'), factor);
  const xml = fs.readFileSync(file, 'utf8');
  const body = await withProcesses(async (cleanups, folder) => {
    const targets = [];
    if (withBasex) {
      const basex = await startBasex(o.kit, folder('basex'), o.basexPort);
      cleanups.push(basex.stop);
      targets.push(target('BaseX', basex.url, { password: 'admin', pids: [basex.pid] }));
    }
    // only the body limit is raised (the document is larger than the default 64 MiB at factor 1)
    const server = await startServer(folder('file'), { port: o.port, maxBodyMib: Math.max(64, Math.ceil(xml.length / 2 ** 20) + 1) });
    cleanups.push(server.stop);
    targets.push(target('xmldb-rest', server.url, { password: PASSWORD, pids: [server.pid] }));
    for (const t of targets) {
      log(`loading ${path.basename(file)} (${(xml.length / 2 ** 20).toFixed(1)} MB) into ${t.name}`);
      const put = await request(t, 'PUT', storePath(t), xml);
      if (!ok(put)) throw new Error(`${t.name}: PUT ${storePath(t)} answered ${put.status} ${put.text.slice(0, 200)}`);
    }
    return runQueries(targets, o, factor);
  });
  return [`## Factor ${factor}`, '', `Document: ${path.basename(file)} (bench/xmark-data.js, factor ${factor}, ${(xml.length / 2 ** 20).toFixed(1)} MB).`, '', body].join('\n');
}

async function main() {
  const o = options(process.argv.slice(2));
  const withBasex = basexLayout(o.kit);
  if (!withBasex) log(`The BaseX comparison kit is not set up at ${o.kit}: measuring this server alone.`);
  const sections = [];
  for (const factor of o.factors) sections.push(await runFactor(o, factor, withBasex));
  const cpus = os.cpus();
  const report = [
    `# XMark queries${withBasex ? ' next to BaseX 9.7.2' : ''}`,
    '',
    `Date: ${new Date().toISOString()}. Machine: ${cpus.length} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} at the end; Node ${process.version}.`,
    `Figures: p50 of ${o.runs} warm run(s) after one warm-up, one query at a time, ms; ratio > 1 means this server was faster. Each factor on fresh servers.`,
    `Reproduce: \`npm run bench:xmark -- --factor ${o.factors.join(',')} --runs ${o.runs}${o.only ? ` --only '${o.only}'` : ''}${o.askBasexAll ? ' --ask-basex-all' : ''}\`.`,
    '',
    sections.join('\n\n'),
    '',
  ].join('\n');
  const out = path.join(__dirname, 'results', 'xmark.md');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, report);
  console.log(report);
  log('written: bench/results/xmark.md');
}

main().catch((e) => {
  console.error(`bench:xmark: ${e.message}`);
  process.exit(1);
});
