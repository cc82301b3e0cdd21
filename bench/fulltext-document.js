// The 10 KB document the full-text benchmarks PUT (fulltext.js, fulltext-put.js).
'use strict';

/** A document of about 10 KB: paragraphs of the words of the XMark text `xml`. */
function smallDocument(xml) {
  const words = xml.slice(0, 400_000).replace(/<[^>]*>/g, ' ').match(/[A-Za-z]+/g) ?? [];
  const paragraphs = [];
  let size = 0;
  for (let i = 0; size < 10 * 1024 - 200; i += 20) {
    const p = `<p>${words.slice(i % words.length, (i % words.length) + 20).join(' ')}</p>`;
    paragraphs.push(p);
    size += p.length;
  }
  return `<doc>\n${paragraphs.join('\n')}\n</doc>`;
}

module.exports = { smallDocument };
