// Fixed-seed benchmark data: a 10 MB document of 50,000 items, a 100 KB and a 10 KB document. Items
// have the comparison kit's shape: a numeric id attribute, name, price, category and description children.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

/** mulberry32: a small deterministic generator, so every run measures the same data. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];

function itemsDocument(count, targetBytes, seed) {
  const rnd = random(seed);
  const word = () => WORDS[Math.floor(rnd() * WORDS.length)];
  const parts = ['<items>'];
  let size = 7;
  const padding = Math.max(0, Math.floor(targetBytes / count) - 120);
  for (let i = 1; i <= count; i++) {
    const price = (rnd() * 1000).toFixed(2);
    let text = `${word()} ${word()}`;
    while (text.length < padding) text += ` ${word()}`;
    const item = `<item id="${i}"><name>${word()}-${i}</name><price>${price}</price><category>${word()}</category><description>${text.slice(0, padding)}</description></item>`;
    parts.push(item);
    size += item.length;
  }
  parts.push('</items>');
  return parts.join('\n');
}

function generate(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const files = {
    'items-10mb.xml': itemsDocument(50_000, 10 * 1024 * 1024, 1),
    'doc-100kb.xml': itemsDocument(500, 100 * 1024, 2),
    'doc-10kb.xml': itemsDocument(50, 10 * 1024, 3),
  };
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return Object.fromEntries(Object.keys(files).map((n) => [n, path.join(dir, n)]));
}

module.exports = { generate, random };
if (require.main === module) {
  const out = generate(path.join(__dirname, 'data'));
  for (const [name, file] of Object.entries(out)) console.log(`${name}: ${fs.statSync(file).size} bytes`);
}
