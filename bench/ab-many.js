// A/B of queries over the kit's `many` database (workload h: 2,000 documents of 25 items, PUT to
// /many/d{floor(d/100)}/doc{d}.xml) between builds of this server, for a busy machine:
//
//   node bench/ab-many.js NAME=CHECKOUT ... [--items FILE] [--queries FILE] [--rounds 3] [--runs 15]
//
// Each CHECKOUT is a folder holding a built server (dist/bin.js), e.g. `git worktree add` of an
// older commit followed by `npm run build`. Every server gets a fresh data folder and the same
// documents; then, round after round, each server runs each query (two warm-up runs, then `runs`
// measured ones with the literal K replaced by 402, 403, …), servers interleaved. Printed per
// query and server: the p50 and minimum of the response times, the CPU time per run of the server
// and its query host (from /proc, so Linux only; less sensitive to other load than the times),
// and a digest of the first answer, which must be equal across servers.
// `--items` is the kit's items.xml (gen-data.mjs); without it, bench/generate.js makes items of the
// same shape. `--queries` holds one query per line; the default is the kit's row h.flwor. With
// AB_DUMP=PREFIX in the environment, each server's first answer to query N is written to
// PREFIX-NAME-N.txt, for a diff when the digests differ.
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { generate } = require('./generate');
const { target, request, percentile } = require('./client');

const PASSWORD = 'ab-admin';
const FLWOR = 'for $i in //item where $i/price > K order by number($i/price) descending return string($i/@id)';

function options(argv) {
  const o = { servers: [], items: null, queries: null, rounds: 3, runs: 15 };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag.startsWith('--')) o[flag.slice(2)] = ['rounds', 'runs'].includes(flag.slice(2)) ? Number(argv[++i]) : argv[++i];
    else {
      const [name, dir] = flag.split(/=(.*)/s);
      o.servers.push({ name, dir: path.resolve(dir) });
    }
  }
  if (o.servers.length === 0) throw new Error('usage: node bench/ab-many.js NAME=CHECKOUT ... (see the head of bench/ab-many.js)');
  return o;
}

/** The server of `dir` on a fresh data folder: resolves once it listens. */
function start(server) {
  server.data = fs.mkdtempSync(path.join(os.tmpdir(), 'xmldb-ab-'));
  const child = spawn(process.execPath, [path.join(server.dir, 'dist', 'bin.js'), '--port', '0', '--db-path', server.data], {
    env: { ...process.env, XMLDB_ADMIN_PASSWORD: PASSWORD },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  server.child = child;
  process.once('exit', () => child.kill('SIGTERM'));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /listening on (\S+)/.exec(out);
      if (m && !server.t) {
        child.stdout.resume();
        server.t = target(server.name, m[1], { password: PASSWORD });
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`${server.name} exited with ${code}: ${out.slice(-300)}`)));
  });
}

/** The CPU milliseconds used so far by process `pid` and its descendants. */
function cpuMs(pid) {
  const stats = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(entry), { parent: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // a process that ended meanwhile
    }
  }
  const tick = 1000 / 100; // USER_HZ
  let total = 0;
  const visit = (p) => {
    total += (stats.get(p)?.ticks ?? 0) * tick;
    for (const [child, s] of stats) if (s.parent === p) visit(child);
  };
  visit(pid);
  return total;
}

async function main() {
  const o = options(process.argv.slice(2));
  const itemsFile = o.items ?? generate(fs.mkdtempSync(path.join(os.tmpdir(), 'xmldb-ab-data-')))['items-10mb.xml'];
  const items = fs.readFileSync(itemsFile, 'utf8').match(/<item [^]*?<\/item>/g);
  const queries = o.queries ? fs.readFileSync(o.queries, 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#')) : [FLWOR];
  for (const s of o.servers) {
    await start(s);
    await request(s.t, 'PUT', '/many', '');
    for (let d = 0; d < 2000; d++) {
      const r = await request(s.t, 'PUT', `/many/d${Math.floor(d / 100)}/doc${d}.xml`, `<items>${items.slice(d * 25, d * 25 + 25).join('\n')}</items>`);
      if (r.status >= 300) throw new Error(`${s.name}: PUT ${r.status} ${r.text.slice(0, 200)}`);
    }
    s.ms = queries.map(() => []);
    s.cpu = queries.map(() => []);
    s.answers = queries.map(() => new Set());
    console.error(`${s.name}: loaded`);
  }
  const run = (s, q) => request(s.t, 'GET', `/many?query=${encodeURIComponent(q)}`);
  for (let round = 0; round < o.rounds; round++) {
    for (const s of o.servers) {
      for (const [i, q] of queries.entries()) {
        for (const k of [400, 401]) await run(s, q.replace(/\bK\b/g, String(k)));
        const cpu = cpuMs(s.child.pid);
        for (let n = 0; n < o.runs; n++) {
          const r = await run(s, q.replace(/\bK\b/g, String(402 + n)));
          if (r.status !== 200) throw new Error(`${s.name}: ${r.status} ${r.text.slice(0, 300)}`);
          s.ms[i].push(r.ms);
          if (n === 0 && process.env.AB_DUMP) fs.writeFileSync(`${process.env.AB_DUMP}-${s.name}-${i}.txt`, r.text);
          if (n === 0) s.answers[i].add(`${crypto.createHash('sha1').update(r.text).digest('hex').slice(0, 10)}:${r.text.length}`);
        }
        s.cpu[i].push((cpuMs(s.child.pid) - cpu) / o.runs);
      }
    }
    console.error(`round ${round + 1} of ${o.rounds} done`);
  }
  for (const [i, q] of queries.entries()) {
    console.log(q);
    for (const s of o.servers) {
      const f = (x) => x.toFixed(1).padStart(7);
      console.log(`  ${s.name.padEnd(12)} p50 ${f(percentile(s.ms[i], 0.5))} ms  min ${f(Math.min(...s.ms[i]))} ms  cpu/run ${f(percentile(s.cpu[i], 0.5))} ms  answer ${[...s.answers[i]].join(' ')}`);
    }
  }
  for (const s of o.servers) {
    s.child.kill('SIGTERM');
    await new Promise((resolve) => s.child.once('exit', resolve));
    fs.rmSync(s.data, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
