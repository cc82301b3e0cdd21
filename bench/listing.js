// Listing of a database directory with 100,000 resources (spec §4), from dist/ (npm run build
// first): the time from the sorted resource list to the last byte of the streamed document, and
// the largest piece of the document held at once. Run: node bench/listing.js
'use strict';
const path = require('node:path');
const { databaseListing } = require(path.join(__dirname, '..', 'dist', 'operations', 'list.js'));

const COUNT = Number(process.env.LISTING_COUNT ?? 100_000);
const resources = Array.from({ length: COUNT }, (_, i) => ({
  path: `doc-${(i * 7919) % COUNT}.xml`,
  type: 'xml',
  contentType: 'application/xml',
  size: 10 + (i % 1000),
  bytes: 100,
  modified: 0,
  etag: 'e',
}));

async function once() {
  const start = process.hrtime.bigint();
  const { body } = databaseListing('db', '', resources, {});
  let bytes = 0;
  let largest = 0;
  if (typeof body === 'string' || Buffer.isBuffer(body)) bytes = largest = body.length;
  else {
    await new Promise((resolve, reject) => {
      body.on('data', (chunk) => {
        bytes += chunk.length;
        largest = Math.max(largest, chunk.length);
      });
      body.on('end', resolve);
      body.on('error', reject);
    });
  }
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, bytes, largest };
}

async function main() {
  const runs = [];
  for (let i = 0; i < 7; i++) runs.push(await once());
  const times = runs.map((r) => r.ms).sort((a, b) => a - b);
  const { bytes, largest } = runs[0];
  console.log(
    `listing of ${COUNT} resources: median ${times[3].toFixed(0)} ms (min ${times[0].toFixed(0)}, max ${times[6].toFixed(0)}), ` +
      `${(bytes / 1e6).toFixed(1)} MB in chunks of at most ${(largest / 1024).toFixed(0)} KiB`,
  );
}

main();
