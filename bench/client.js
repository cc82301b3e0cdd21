// The benchmark's HTTP client: single requests over one keep-alive connection per target (as a
// sequential client sees a server), sequences of queries, and autocannon for concurrent load.
'use strict';
const http = require('node:http');
const autocannon = require('autocannon');

/** A server under test: its REST base URL, credentials and one keep-alive connection. */
function target(name, url, { user = 'admin', password, pids = [] } = {}) {
  const u = new URL(url);
  return {
    name,
    url: url.replace(/\/+$/, ''),
    host: u.hostname,
    port: Number(u.port) || 80,
    base: u.pathname.replace(/\/+$/, ''),
    auth: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
    pids,
    agent: new http.Agent({ keepAlive: true, maxSockets: 1 }),
  };
}

/**
 * One request: resolves { status, text, ms }; a network failure is status 0 (never rejects), and
 * so is no answer within `timeoutMs` (default 120 s).
 */
function request(t, method, path, body, timeoutMs = 120_000) {
  return new Promise((resolve) => {
    const start = process.hrtime.bigint();
    const done = (status, text) => resolve({ status, text, ms: Number(process.hrtime.bigint() - start) / 1e6 });
    const headers = { Authorization: t.auth };
    if (body !== undefined) Object.assign(headers, { 'Content-Type': 'application/xml', 'Content-Length': Buffer.byteLength(body) });
    const req = http.request({ host: t.host, port: t.port, path: t.base + path, method, headers, agent: t.agent, timeout: timeoutMs }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => done(res.statusCode, Buffer.concat(chunks).toString('utf8')));
      res.on('error', (e) => done(0, String(e)));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
    req.on('error', (e) => done(0, String(e)));
    req.end(body);
  });
}

const ok = (r) => r.status >= 200 && r.status < 300;
const query = (t, q, db = '', timeoutMs) => request(t, 'GET', `/${db}?query=${encodeURIComponent(q)}`, undefined, timeoutMs);

/** The value at fraction `f` of the sorted values (f = 0.5: the median as the kit takes it). */
function percentile(values, f) {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor(f * sorted.length))];
}

/** Counts failures (non-2xx or network) of a run; keeps the first one's text for the report. */
function failures() {
  const f = { errors: 0, firstError: '' };
  f.note = (r) => {
    if (ok(r)) return;
    f.errors++;
    f.firstError ||= `${r.status} ${r.text.slice(0, 160)}`;
  };
  return f;
}

/** Runs the queries one after another: p50 in ms and failures. */
async function sequential(t, queries, db = '') {
  const times = [];
  const f = failures();
  for (const q of queries) {
    const r = await query(t, q, db);
    f.note(r);
    times.push(r.ms);
  }
  return { p50: percentile(times, 0.5), p90: percentile(times, 0.9), errors: f.errors, firstError: f.firstError };
}

/** GETs `path` from 10 connections for `seconds`: average req/s and failures. */
async function cannon(t, path, seconds) {
  const r = await autocannon({ url: `http://${t.host}:${t.port}${t.base}${path}`, connections: 10, duration: seconds, headers: { authorization: t.auth } });
  const errors = (r.non2xx || 0) + (r.errors || 0) + (r.timeouts || 0);
  return {
    value: r.requests.average,
    p50_ms: r.latency.p50,
    p99_ms: r.latency.p99,
    errors,
    firstError: errors ? `non-2xx ${r.non2xx}, errors ${r.errors}, timeouts ${r.timeouts}` : '',
  };
}

module.exports = { target, request, query, ok, percentile, failures, sequential, cannon };
