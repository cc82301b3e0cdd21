// The workloads of the BaseX comparison kit (../shared/tools/basex-bench/compare.mjs, same ids,
// sizes and durations), for runs without the kit or against more than two servers. Each workload's
// run(target, round) answers { METRIC_ID: { value, errors, firstError, ... } }.
'use strict';
const fs = require('node:fs');
const { request, query, ok, failures, percentile, sequential, cannon } = require('./client');

/** Durations and counts: the kit's, or its short --quick ones (a smoke test, not a measurement). */
function sizes(quick) {
  return {
    cannonWarmFirst: quick ? 1 : 15, // the first round warms a cold JIT longer
    cannonWarm: quick ? 1 : 5,
    cannonSeconds: quick ? 2 : 10,
    seqWarm: quick ? 2 : 3,
    seqRuns: quick ? 5 : 20,
    putWarm: quick ? 10 : 50,
    puts: quick ? 50 : 200,
    newWarm: quick ? 3 : 10,
    newRuns: quick ? 20 : 100,
    manyDocs: quick ? 200 : 2000,
    manyRuns: quick ? 3 : 10,
  };
}

// Query texts that no server has seen: `n` differs per round, phase and query (the kit's rule: e, f
// and g measure parsing and compiling, not a cache of compiled queries).
const fresh = (round, phase, i) => 11 + round * 100_000 + phase * 1000 + i;
const newFlwor = (n) =>
  `for $i in 1 to 200 let $x := ($i * ${n}) mod 97 where $x mod 3 = ${n % 3} order by $x descending, $i return <r n="{$i}">{$x}</r>`;
const LETS = ['$a := ($i * 7) mod 97', '$b := $a + $i', '$c := concat("k", $a mod 10)', '$d := ($a * $i) mod 13'];
const NAMES = ['row', 'rec', 'entry', 'item', 'node', 'elem', 'cell', 'part', 'unit', 'line', 'tuple', 'hit'];
/** FLWORs of varying structure: names, 1-4 lets, 1-3 order keys and directions, where or not, body. */
function newShape(n) {
  const lets = LETS.slice(0, 1 + (n % 4));
  const vars = ['$i', ...lets.map((l) => l.slice(0, 2))];
  const keys = Array.from({ length: 1 + (Math.floor(n / 4) % 3) }, (_, j) => `${vars[(n + j) % vars.length]}${(n >> j) & 1 ? ' descending' : ''}`);
  const where = n % 5 ? ` where $a mod ${2 + (n % 3)} = ${n % 2}` : '';
  const name = `${NAMES[n % NAMES.length]}${n}`;
  const body = n % 2 ? `<v${n % 7}>{$a}</v${n % 7}>{${vars[vars.length - 1]}}` : '{$a}';
  return `for $i in 1 to 200 ${lets.map((l) => `let ${l}`).join(' ')}${where} order by ${keys.join(', ')} return <${name} ${['n', 'id', 'pos', 'key'][n % 4]}${n}="{$i}">${body}</${name}>`;
}
const newXpath = (n) => `count(//*[string-length(local-name()) > ${n % 9}]) + ${n}`;
/** A word of the items' names (`bravo-17`): what a search box sends. */
const word = (n) => `${['alpha', 'bravo', 'charlie', 'delta', 'echo', 'golf'][n % 6]}-${n % 97}`;

/**
 * Never-seen queries of the kit's g class that its sample does not cover, on the 100 KB document:
 * [id, description, query of n]; like e, f and g, each run's texts are new to the server.
 */
const NEW_VARIANTS = [
  ['n1', 'never-seen count(//*[@id > K]) + K', (n) => `count(//*[@id > ${n % 500}]) + ${n}`],
  ['n2', 'never-seen count(//*[@*[string-length(.) > K]]) + K', (n) => `count(//*[@*[string-length(.) > ${n % 3}]]) + ${n}`],
  ['n3', 'never-seen count(//*[text()][@id > K]) + K', (n) => `count(//*[text()][@id > ${n % 500}]) + ${n}`],
  ['n4', 'never-seen count(//item[contains(name, "W")]), a search string', (n) => `count(//item[contains(name, "${word(n)}")])`],
  ['n5', 'never-seen //item[starts-with(name, "W")]/price/string()', (n) => `//item[starts-with(name, "${word(n)}")]/price/string()`],
  ['n6', 'never-seen //@id[. = "K"]/../name/string()', (n) => `//@id[. = "${n % 500}"]/../name/string()`],
  ['n7', 'never-seen count(//*/@*[. = "K"]) + K', (n) => `count(//*/@*[. = "${n % 500}"]) + ${n}`],
  ['n8', 'never-seen sum(//item[position() mod K = 0]/price) + K, positional', (n) => `sum(//item[position() mod ${2 + (n % 5)} = 0]/price) + ${n}`],
  ['n9', 'never-seen count(//name/../price[. > K]) + K, a step after ..', (n) => `count(//name/../price[. > ${n % 500}]) + ${n}`],
  ['n10', 'never-seen count(//text()[contains(., "W")]), text nodes', (n) => `count(//text()[contains(., "${word(n)}")])`],
  ['n11', 'never-seen count(//name[starts-with(., "W")]) + K, the element\'s own value', (n) => `count(//name[starts-with(., "${word(n)}")]) + ${n}`],
  ['n12', 'never-seen count(//item/price[. > K]) + K, a child step after //item', (n) => `count(//item/price[. > ${n % 500}]) + ${n}`],
  ['n13', 'never-seen //item/name[starts-with(., "W")]/../@id/string(), a step back up', (n) => `//item/name[starts-with(., "${word(n)}")]/../@id/string()`],
];
const manyFlwor = (k) => `for $i in //item where $i/price > ${k} order by number($i/price) descending return string($i/@id)`;

/**
 * Queries as users write them, beside the kit's shapes, on the items database: [id, query, URL
 * parameters binding its external variables]. Each is a sequential p50 of the same text.
 */
const VARIANTS = [
  ['v1', 'count(//item[price > 500])'],
  ['v2', 'declare variable $k external; count(//item[price > $k])', '&k=500'],
  ['v3', 'let $k := 500 return count(//item[price > $k])'],
  ['v4', "count(//item[price > '500'])"],
  ['v5', 'count(//item[@id > 25000])'],
  ['v6', 'count(//item[price > 500][category = "delta"])'],
  ['v7', 'count(//item[category = "delta"])'],
  ['v8', 'string(//item[@id = "31337"]/name)'],
  ['v9', 'avg(//item/price)'],
  ['v10', 'max(//price)'],
  ['v11', 'count(for $i in //item let $p := $i/price where $p > 500 return $i/@id)'],
  ['v12', 'for $i in //item group by $c := $i/category return <g c="{$c}">{count($i)}</g>'],
  // group by into tens of thousands of groups (one per @id, per name, per category and price)
  ['v13', 'for $i in //item group by $id := $i/@id return count($i)'],
  ['v14', 'for $i in //item group by $n := $i/name return <g n="{$n}">{count($i)}</g>'],
  ['v15', 'for $i in //item group by $c := $i/category, $p := $i/price return <g c="{$c}" p="{$p}">{count($i)}</g>'],
  ['v16', 'for $i in //item group by $p := $i/price order by number($p) descending return <g p="{$p}">{count($i)}</g>'],
  ['v17', 'for $i in //item group by $c := $i/category, $p := $i/price order by count($i) descending, $c, $p return string($p)'],
  // order by alone over the 50,000 items: one and two keys, strings and numbers, empty least/greatest
  ['v18', 'for $i in //item order by $i/name return string($i/@id)'],
  ['v19', 'for $i in //item order by number($i/price) descending return string($i/@id)'],
  ['v20', 'for $i in //item order by $i/category descending, number($i/price) return string($i/@id)'],
  ['v21', 'for $i in //item order by $i[price > 500]/category empty greatest, $i/name descending return string($i/@id)'],
  // let, where, order by and count in varied orders
  ['v22', 'for $i in //item let $p := number($i/price) where $p > 100 order by $p descending count $r where $r <= 100 return <r n="{$r}">{string($i/@id)}</r>'],
  ['v23', 'for $i in //item count $c where $c mod 2 = 0 let $n := $i/name order by $n descending return <r c="{$c}">{string($n)}</r>'],
  ['v24', 'for $i in //item where $i/category = "delta" let $p := $i/price order by $p count $r return <r n="{$r}" p="{$p}"/>'],
  // an external variable in a where clause, aggregates of a group written as text
  ['v25', 'declare variable $k external; for $i in //item where $i/price > $k order by $i/name descending return <r id="{$i/@id}">{string($i/name)}</r>', '&k=900'],
  ['v26', 'for $i in //item group by $c := $i/category order by $c return <g c="{$c}" n="{count($i)}" avg="{avg($i/price)}">{max($i/price), min($i/price)}</g>'],
  // predicates beyond conjunctions of comparisons, a filtered variable, attributes and text copied into constructors, positions
  ['v27', 'count(//item[price > 500 or category = "delta"])'],
  ['v28', 'count(//item[starts-with(name, "delta")])'],
  ['v29', 'let $items := //item return count($items[price > 500])'],
  ['v30', 'for $i in //item where $i/price > 900 and $i/category = "delta" return <r>{$i/@id, $i/name/text()}</r>'],
  ['v31', 'for $i at $p in //item where $i/price > 900 order by xs:double($i/price) descending return $p || ":" || $i/@id/string()'],
];

/** Drops and re-creates the databases: `items` (10 MB), `docs` (the 100 KB document), empty `puts`. */
async function setup(t, files) {
  for (const db of ['items', 'docs', 'puts', 'many']) await request(t, 'DELETE', `/${db}`);
  const start = performance.now();
  const steps = [await request(t, 'PUT', '/items', fs.readFileSync(files['items-10mb.xml'], 'utf8'))];
  const seconds = (performance.now() - start) / 1000;
  steps.push(await request(t, 'PUT', '/docs', ''), await request(t, 'PUT', '/docs/doc100k.xml', fs.readFileSync(files['doc-100kb.xml'], 'utf8')));
  steps.push(await request(t, 'PUT', '/puts', ''));
  const bad = steps.find((r) => !ok(r));
  if (bad) throw new Error(`${t.name}: setup failed: ${bad.status} ${bad.text.slice(0, 300)}`);
  const n = await query(t, 'count(//item)', 'items');
  if (n.text.trim() !== '50000') throw new Error(`${t.name}: count(//item) on items answered ${n.status} ${n.text.slice(0, 200)}`);
  return { setup: { value: seconds, errors: 0 } };
}

/** The workloads in the kit's order; `data` holds the 10 KB document and the items of the 10 MB one. */
function workloads(P, data) {
  const load = (id, path) => async (t, round) => {
    await cannon(t, path, round === 1 ? P.cannonWarmFirst : P.cannonWarm);
    return { [id]: await cannon(t, path, P.cannonSeconds) };
  };
  const newQueries = (id, make, phase, db) => async (t, round) => {
    await sequential(t, Array.from({ length: P.newWarm }, (_, i) => make(fresh(round, phase, i))), db);
    const r = await sequential(t, Array.from({ length: P.newRuns }, (_, i) => make(fresh(round, phase + 1, i))), db);
    return { [id]: { ...r, value: r.p50 } };
  };
  const variant = ([id, q, params = '']) => ({
    id,
    metrics: { [id]: [`${q}${params ? ` (${params.slice(1)})` : ''} on 10 MB db, sequential p50`, 'ms', 'lower'] },
    async run(t) {
      const path = `/items?query=${encodeURIComponent(q)}${params}`;
      for (let i = 0; i < P.seqWarm; i++) await request(t, 'GET', path);
      const f = failures();
      const times = [];
      for (let i = 0; i < P.seqRuns; i++) {
        const r = await request(t, 'GET', path);
        f.note(r);
        times.push(r.ms);
      }
      return { [id]: { value: percentile(times, 0.5), errors: f.errors, firstError: f.firstError } };
    },
  });
  return [
    { id: 'a', metrics: { a: ['GET ?query=1+1, 10 conn', 'req/s', 'higher'] }, run: load('a', '?query=1%2B1') },
    { id: 'b', metrics: { b: ['GET stored 100 KB document, 10 conn', 'req/s', 'higher'] }, run: load('b', '/docs/doc100k.xml') },
    { id: 'c', metrics: { c: ['count(//item) on 10 MB db, 10 conn', 'req/s', 'higher'] }, run: load('c', `/items?query=${encodeURIComponent('count(//item)')}`) },
    {
      id: 'c2',
      metrics: { c2: ['sum(//price) on 10 MB db, sequential p50', 'ms', 'lower'] },
      async run(t) {
        await sequential(t, Array(P.seqWarm).fill('sum(//price)'), 'items');
        const r = await sequential(t, Array(P.seqRuns).fill('sum(//price)'), 'items');
        return { c2: { ...r, value: r.p50 } };
      },
    },
    {
      id: 'd',
      metrics: { d: [`${P.puts} sequential PUTs of 10 KB to new paths`, 'req/s', 'higher'] },
      async run(t, round) {
        for (let i = 1; i <= P.putWarm; i++) await request(t, 'PUT', `/puts/w${round}/doc-${i}.xml`, data.doc10k);
        const f = failures();
        const start = performance.now();
        for (let i = 1; i <= P.puts; i++) f.note(await request(t, 'PUT', `/puts/r${round}/doc-${i}.xml`, data.doc10k));
        return { d: { value: P.puts / ((performance.now() - start) / 1000), errors: f.errors, firstError: f.firstError } };
      },
    },
    { id: 'e', metrics: { e: [`newflwor: ${P.newRuns} never-seen FLWORs (literals differ), p50`, 'ms', 'lower'] }, run: newQueries('e', newFlwor, 1) },
    { id: 'f', metrics: { f: [`newshape: ${P.newRuns} never-seen FLWORs (structure differs), p50`, 'ms', 'lower'] }, run: newQueries('f', newShape, 3) },
    { id: 'g', metrics: { g: [`newxpath: ${P.newRuns} never-seen paths with predicate (100 KB doc), p50`, 'ms', 'lower'] }, run: newQueries('g', newXpath, 5, 'docs') },
    {
      id: 'h',
      metrics: {
        'h.put': [`many: PUT ${P.manyDocs} docs of 25 items`, 'docs/s', 'higher'],
        'h.first': ['many: count(//item[price > 500]) first run', 'ms', 'lower'],
        'h.count': ['many: count(//item[price > 500]) warm p50', 'ms', 'lower'],
        'h.flwor': ['many: FLWOR where + order by, warm p50', 'ms', 'lower'],
      },
      async run(t, round) {
        await request(t, 'DELETE', '/many');
        const created = await request(t, 'PUT', '/many', '');
        if (!ok(created)) throw new Error(`${t.name}: create db many: ${created.status} ${created.text.slice(0, 200)}`);
        const f = failures();
        const start = performance.now();
        for (let d = 0; d < P.manyDocs; d++) {
          const body = `<items>${data.items.slice(d * 25, d * 25 + 25).join('\n')}</items>`;
          f.note(await request(t, 'PUT', `/many/d${Math.floor(d / 100)}/doc${d}.xml`, body));
        }
        const putSeconds = (performance.now() - start) / 1000;
        const count = 'count(//item[price > 500])';
        const first = await query(t, count, 'many');
        const warm = await sequential(t, Array(P.manyRuns).fill(count), 'many');
        const k = 400 + round * 50;
        await sequential(t, [manyFlwor(k), manyFlwor(k + 1)], 'many');
        const flwor = await sequential(t, Array.from({ length: P.manyRuns }, (_, i) => manyFlwor(k + 2 + i)), 'many');
        return {
          'h.put': { value: P.manyDocs / putSeconds, errors: f.errors, firstError: f.firstError },
          'h.first': { value: first.ms, errors: ok(first) ? 0 : 1, firstError: ok(first) ? '' : `${first.status} ${first.text.slice(0, 160)}` },
          'h.count': { ...warm, value: warm.p50 },
          'h.flwor': { ...flwor, value: flwor.p50 },
        };
      },
    },
    ...VARIANTS.map(variant),
    ...NEW_VARIANTS.map(([id, description, make], i) => ({
      id,
      metrics: { [id]: [`${description} (100 KB doc), ${P.newRuns} queries, p50`, 'ms', 'lower'] },
      run: newQueries(id, make, 11 + 2 * i, 'docs'),
    })),
  ];
}

/** The 10 KB document and the <item> elements of the 10 MB one (workload h cuts documents from them). */
function loadData(files) {
  return {
    doc10k: fs.readFileSync(files['doc-10kb.xml'], 'utf8'),
    items: fs.readFileSync(files['items-10mb.xml'], 'utf8').match(/<item [^]*?<\/item>/g),
  };
}

module.exports = { sizes, setup, workloads, loadData, VARIANTS, NEW_VARIANTS };
