// The results table (Markdown) and bench/results/latest.md: figures are the median over rounds,
// ratios read as the kit's do ("> 1 means the server of that column did better than the first").
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

function median(values) {
  const s = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((x, y) => x - y);
  if (!s.length) return null;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const figure = (v) => (v == null ? '-' : Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2));

/** The table of `metrics` (measure.js) over the servers `names`, with a ratio column per server after the first. */
function table(metrics, names) {
  const others = names.slice(1);
  const lines = [
    `| id | workload | unit | ${names.join(' | ')} |${others.map((n) => ` ${n} vs ${names[0]} |`).join('')}`,
    `|---|---|---|${names.map(() => '---:|').join('')}${others.map(() => '---:|').join('')}`,
  ];
  const errors = [];
  for (const m of metrics) {
    const values = names.map((n) => median((m.rounds[n] ?? []).map((r) => r.value)));
    const cells = names.map((n, i) => {
      const failed = (m.rounds[n] ?? []).filter((r) => r.errors);
      const count = failed.reduce((sum, r) => sum + r.errors, 0);
      if (count) errors.push(`${m.id} on ${n}: ${count} failed request(s), first: ${failed[0].firstError}`);
      return `${figure(values[i])}${count ? ` !${count} err` : ''}`;
    });
    const ratios = others.map((_, i) => {
      const [base, v] = [values[0], values[i + 1]];
      if (!base || !v) return '-';
      return `${(m.better === 'higher' ? v / base : base / v).toFixed(2)}x`;
    });
    // a query's `||` would end the cell
    lines.push(`| ${m.id} | ${m.title.replace(/\|/g, '\\|')} | ${m.unit} | ${cells.join(' | ')} |${ratios.map((r) => ` ${r} |`).join('')}`);
  }
  const notes = [''];
  if (others.length) notes.push(`A ratio > 1 means that column's server did better than ${names[0]}: req/s and docs/s rows divide it by ${names[0]}, ms, s and MB rows divide ${names[0]} by it.`);
  if (errors.length) notes.push('', 'Failed requests (a figure marked `!N err` is not comparable):', ...errors.map((e) => `- ${e}`));
  return [...lines, ...notes].join('\n');
}

/** The report: what ran, where, how to repeat it, then the table. Written to bench/results/latest.md and answered. */
function writeReport({ title, mode, command, rounds, quick, body }) {
  const cpus = os.cpus();
  const text = [
    `# ${title}`,
    '',
    `Date: ${new Date().toISOString()}. Machine: ${cpus.length} cores (${cpus[0]?.model ?? 'unknown CPU'}), ` +
      `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} at the end; Node ${process.version}.`,
    '',
    mode,
    `Figures are the median of ${rounds} round(s)${quick ? ' of short runs (--quick: a smoke test, not a measurement)' : ''}; the client runs on the same cores as the servers.`,
    `Reproduce: \`${command}\` (see the README's Performance section).`,
    '',
    body.trim(),
    '',
  ].join('\n');
  const file = path.join(__dirname, 'results', 'latest.md');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return text;
}

module.exports = { table, writeReport };
