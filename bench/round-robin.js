// A round-robin HTTP proxy, the simplest load balancer, for the scale-out benchmark: every request
// goes to the next server in turn (no session affinity: the servers share one PostgreSQL store).
// Connections to the servers are kept alive and reused, as a real load balancer's are.
//
//   node bench/round-robin.js PORT URL...     (PORT 0: any free port; prints "listening on URL")
'use strict';
const http = require('node:http');

// Hop-by-hop headers (RFC 9110, section 7.6.1) belong to one connection and are not forwarded.
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']);
const endToEnd = (headers) => Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP.has(name)));

const [port, ...urls] = process.argv.slice(2);
if (port === undefined || urls.length === 0) {
  console.error('usage: node bench/round-robin.js PORT URL...');
  process.exit(2);
}
const servers = urls.map((u) => ({ url: new URL(u), agent: new http.Agent({ keepAlive: true, maxSockets: 64 }) }));
let next = 0;

const proxy = http.createServer((req, res) => {
  const { url, agent } = servers[next];
  next = (next + 1) % servers.length;
  const upstream = http.request(
    { host: url.hostname, port: url.port, method: req.method, path: req.url, headers: endToEnd(req.headers), agent },
    (answer) => {
      res.writeHead(answer.statusCode, endToEnd(answer.headers));
      answer.pipe(res);
    },
  );
  upstream.on('error', (e) => {
    if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain; charset=UTF-8' });
    res.end(`round-robin proxy: ${url.host}: ${e.message}`);
  });
  res.on('close', () => res.writableFinished || upstream.destroy()); // the client went away: so does the request upstream
  req.pipe(upstream);
});
proxy.keepAliveTimeout = 30_000;
proxy.listen(Number(port), '127.0.0.1', () => console.log(`round-robin proxy listening on http://127.0.0.1:${proxy.address().port}`));
process.on('SIGTERM', () => process.exit(0));
