/**
 * The postings a store keeps (fulltext-store-rows.ts): text nodes numbered in document order,
 * tokens folded by the database's options, the same whether a document is tokenized on the
 * calling thread or, from OFFLOAD_BYTES on, on an offload thread.
 */
import { fullTextPostings, storePostings } from '../../../../lib/xquery/accelerators/fulltext-index/fulltext-store-rows';
import { OFFLOAD_BYTES } from '../../../../lib/threads/offload';

describe('fullTextPostings', () => {
  test('numbers every text node in document order and keeps those with tokens, folded by the options', async () => {
    const xml = Buffer.from('<a><p>Usability Testing</p> <p>Café, usability!</p><q/><r>...</r><s>x<t>Y z</t></s></a>');
    expect(await fullTextPostings(xml, {})).toEqual({ nodes: [0, 2, 4, 5], tokens: ['usability testing', 'cafe usability', 'x', 'y z'] });
    expect(await fullTextPostings(xml, { casesens: true, diacritics: true })).toEqual({ nodes: [0, 2, 4, 5], tokens: ['Usability Testing', 'Café usability', 'x', 'Y z'] });
    expect(await fullTextPostings(Buffer.from('<a> <b/> </a>'), {})).toEqual({ nodes: [], tokens: [] });
  });

  test('a document of OFFLOAD_BYTES or more gets the postings the calling thread gives', async () => {
    const paragraphs = Array.from({ length: 3000 }, (_, i) => `<p n="${i}">Word${i} ÉTÉ shared text</p>`);
    const xml = Buffer.from(`<doc>${paragraphs.join('\n')}</doc>`);
    expect(xml.length).toBeGreaterThanOrEqual(OFFLOAD_BYTES);
    const inline = storePostings(xml, {});
    expect(inline.nodes.length).toBe(3000);
    expect(inline.nodes.slice(0, 3)).toEqual([0, 2, 4]);
    expect(inline.tokens[2999]).toBe('word2999 ete shared text');
    // compared as plain data: the answer crossed from another realm
    expect(JSON.stringify(await fullTextPostings(xml, {}))).toBe(JSON.stringify(inline));
  });
});
