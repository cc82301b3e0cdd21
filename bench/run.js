// `npm run bench [-- OPTIONS]`: measures the standalone server (dist/) with the workloads of the
// BaseX comparison kit, on fresh data folders, and writes the table to bench/results/latest.md.
//
//   --store file (default)  next to BaseX 9.7.2 when the kit is set up (../shared/tools/basex-bench
//                           or BENCH_KIT, with `.basex/` laid out and java): the kit's compare.mjs,
//                           A = BaseX, B = this server; otherwise this server alone (no ratios).
//   --store postgres        three columns: the file store, one server on PostgreSQL, and two
//                           servers on the same PostgreSQL behind round-robin.js; ratios against
//                           the file store. PostgreSQL is a throwaway cluster (postgres.js).
//   --only REGEX   workloads whose id matches     --rounds N   rounds, median shown (default 2)
//   --quick        short runs (smoke test)        --port N, --basex-port N, --pg-port N (default: free ports)
// Each option also reads from the environment: BENCH_STORE, BENCH_ONLY, BENCH_ROUNDS, BENCH_QUICK=1.
'use strict';
const path = require('node:path');
const { spawn } = require('node:child_process');
const { generate } = require('./generate');
const { target } = require('./client');
const { measure, log } = require('./measure');
const { PASSWORD, startServer, startRoundRobin, basexReady, startBasex, withProcesses } = require('./processes');
const { startCluster } = require('./postgres');
const { table, writeReport } = require('./report');
const { VARIANTS, NEW_VARIANTS } = require('./workloads');

/** The password of BaseX 9's admin, as the kit's start-basex.sh leaves it. */
const BASEX_PASSWORD = 'admin';

function options(argv, env) {
  const o = {
    store: env.BENCH_STORE || 'file',
    only: env.BENCH_ONLY || null,
    rounds: Number(env.BENCH_ROUNDS || 2),
    quick: /^(1|true|yes)$/i.test(env.BENCH_QUICK ?? ''),
    kit: env.BENCH_KIT || path.join(__dirname, '..', '..', 'shared', 'tools', 'basex-bench'),
    port: 0,
    basexPort: 0,
    pgPort: 0,
  };
  const names = { '--store': 'store', '--only': 'only', '--rounds': 'rounds', '--port': 'port', '--basex-port': 'basexPort', '--pg-port': 'pgPort' };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s);
    if (flag === '--quick') o.quick = true;
    else if (names[flag]) o[names[flag]] = inline ?? argv[++i];
    else throw new Error(`unknown option ${argv[i]} (see the head of bench/run.js)`);
  }
  for (const k of ['rounds', 'port', 'basexPort', 'pgPort']) o[k] = Number(o[k]);
  if (!['file', 'postgres'].includes(o.store)) throw new Error(`--store is file or postgres, not ${o.store}`);
  if (!(o.rounds >= 1)) throw new Error('--rounds wants a number >= 1');
  return o;
}

/** The options as a command line, for the report's "Reproduce" line. */
function commandLine(o) {
  const flags = [o.store !== 'file' && `--store ${o.store}`, o.only && `--only '${o.only}'`, `--rounds ${o.rounds}`, o.quick && '--quick'];
  return `npm run bench -- ${flags.filter(Boolean).join(' ')}`;
}

/**
 * The kit's compare.mjs: A = BaseX, B = this server; answers its table, followed by the table of
 * the queries as users write them (workloads.js VARIANTS and NEW_VARIANTS, which the kit does not
 * have) on the same two servers.
 */
function compareWithBasex(o, files) {
  return withProcesses(async (cleanups, folder) => {
    const basex = await startBasex(o.kit, folder('basex'), o.basexPort);
    cleanups.push(basex.stop);
    const project = await startServer(folder('file'), { port: o.port });
    cleanups.push(project.stop);
    log(`BaseX at ${basex.url}, xmldb-rest at ${project.url}`);
    const args = [path.join(o.kit, 'compare.mjs'), '--a', `basex=${basex.url}`, '--b', `project=${project.url}`, '--b-password', PASSWORD,
      '--a-pid', String(basex.pid), '--b-pid', String(project.pid), '--rounds', String(o.rounds)];
    if (o.quick) args.push('--quick');
    if (o.only) args.push('--only', o.only);
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`compare.mjs exited with ${code}`);
    const only = o.only && new RegExp(o.only);
    const variants = [...VARIANTS, ...NEW_VARIANTS].map(([id]) => id).filter((id) => !only || only.test(id));
    if (!variants.length) return out;
    const targets = [target('basex', basex.url, { password: BASEX_PASSWORD, pids: [basex.pid] }), target('project', project.url, { password: PASSWORD, pids: [project.pid] })];
    const metrics = await measure(targets, files, { rounds: o.rounds, quick: o.quick, only: new RegExp(`^(${variants.join('|')})$`) });
    const rows = metrics.filter((m) => variants.includes(m.id));
    return `${out.trim()}\n\nQueries as users write them (bench/workloads.js), on the same servers after the kit's workloads:\n\n${table(rows, targets.map((t) => t.name))}`;
  });
}

/** This server alone on the file store: the kit's workloads, one column. */
function projectAlone(o, files) {
  return withProcesses(async (cleanups, folder) => {
    const server = await startServer(folder('file'), { port: o.port });
    cleanups.push(server.stop);
    const t = target('file store', server.url, { password: PASSWORD, pids: [server.pid] });
    return table(await measure([t], files, { rounds: o.rounds, quick: o.quick, only: o.only && new RegExp(o.only) }), [t.name]);
  });
}

/** The file store, one server on PostgreSQL, two on one PostgreSQL database behind round-robin.js. */
function postgresRuns(o, files) {
  return withProcesses(async (cleanups, folder) => {
    const port = (i) => (o.port ? o.port + i : 0);
    const cluster = await startCluster(o.pgPort);
    cleanups.push(cluster.stop);
    const [one, two] = [await cluster.database('bench_one'), await cluster.database('bench_two')];
    const started = [];
    const server = async (i, storeUrl, name) => {
      const s = await startServer(folder(name), { storeUrl, port: port(i) });
      cleanups.push(s.stop);
      started.push(s);
      return s;
    };
    const file = await server(0, undefined, 'file');
    const pg = await server(1, one, 'pg');
    const [x, y] = [await server(2, two, 'pg2a'), await server(3, two, 'pg2b')];
    const proxy = await startRoundRobin([x.url, y.url], port(4));
    cleanups.push(proxy.stop);
    log(`file store ${file.url}, PostgreSQL ${pg.url}, 2 x PostgreSQL ${proxy.url} (${x.url}, ${y.url}); PostgreSQL log ${cluster.log}`);
    const targets = [
      target('file store', file.url, { password: PASSWORD, pids: [file.pid] }),
      target('PostgreSQL', pg.url, { password: PASSWORD, pids: [pg.pid] }),
      target('2 x PostgreSQL', proxy.url, { password: PASSWORD, pids: [x.pid, y.pid] }),
    ];
    const metrics = await measure(targets, files, { rounds: o.rounds, quick: o.quick, only: o.only && new RegExp(o.only) });
    return table(metrics, targets.map((t) => t.name));
  });
}

async function main() {
  const o = options(process.argv.slice(2), process.env);
  const files = () => generate(path.join(__dirname, 'data'));
  const common = { command: commandLine(o), rounds: o.rounds, quick: o.quick };
  let report;
  if (o.store === 'postgres') {
    report = writeReport({
      ...common,
      title: 'xmldb-rest on PostgreSQL: one server, and two behind a round-robin proxy',
      mode:
        'The workloads of the BaseX comparison kit (bench/workloads.js) against three set-ups, alternating per workload and round: ' +
        'the file store; one server on PostgreSQL; two servers on one PostgreSQL database behind bench/round-robin.js. ' +
        'PostgreSQL is a throwaway local cluster with its durable defaults on the same cores; RSS is summed over each server and its child processes (PostgreSQL\'s own not counted).',
      body: await postgresRuns(o, files()),
    });
  } else if (basexReady(o.kit)) {
    report = writeReport({
      ...common,
      title: 'xmldb-rest next to BaseX 9.7.2',
      mode: `The BaseX comparison kit (${path.relative(process.cwd(), o.kit) || o.kit}, compare.mjs): A = BaseX 9.7.2, B = this server on the file store, each on a fresh data folder.`,
      body: await compareWithBasex(o, files()),
    });
  } else {
    log(`The BaseX comparison kit is not set up at ${o.kit} (compare.mjs, its node_modules, .basex/ from setup-basex.sh, java): measuring this server alone.`);
    report = writeReport({
      ...common,
      title: 'xmldb-rest alone (no BaseX to compare with)',
      mode:
        `BaseX was not available (the comparison kit at ${o.kit} is missing or not set up), so this server ran the kit's workloads alone ` +
        '(bench/workloads.js) on the file store: figures without ratios.',
      body: await projectAlone(o, files()),
    });
  }
  console.log(report);
  log('written: bench/results/latest.md');
}

main().catch((e) => {
  console.error(`bench: ${e.message}`);
  process.exit(1);
});
