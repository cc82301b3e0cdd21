// The committed XQUTS baseline (baseline.json beside this file): how many cases of the suite
// passed, and the known failures with their causes. A run is checked against it: a case that
// fails and is not a known failure is a regression; a known failure that passes is progress
// (write the baseline again to keep it).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const BASELINE = path.join(__dirname, 'baseline.json');

function readBaseline() {
  return JSON.parse(fs.readFileSync(BASELINE, 'utf8'));
}

/** A baseline of a run: totals and the failing cases as `name: cause: reason` (cut short). */
function baselineOf(results) {
  const failures = {};
  for (const r of results) if (!r.ok) failures[r.name] = `${r.cause}: ${String(r.reason).slice(0, 160)}`;
  return { total: results.length, passed: results.filter((r) => r.ok).length, failures };
}

function writeBaseline(results) {
  fs.writeFileSync(BASELINE, `${JSON.stringify(baselineOf(results), null, 2)}\n`);
}

/** Regressions (failing, not known) and fixed cases (known failures that now pass) of a run. */
function checkAgainst(baseline, results) {
  const known = new Set(Object.keys(baseline.failures));
  return {
    regressions: results.filter((r) => !r.ok && !known.has(r.name)).map((r) => r.name),
    fixed: results.filter((r) => r.ok && known.has(r.name)).map((r) => r.name),
  };
}

module.exports = { readBaseline, writeBaseline, checkAgainst, baselineOf };
