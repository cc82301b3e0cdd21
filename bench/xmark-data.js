// A deterministic auction-site document of the shape of the XMark benchmark (Schmidt et al., "XMark:
// a benchmark for XML data management", VLDB 2002): regions of items, categories, a category graph,
// people, open and closed auctions, with the references between them (bidders, sellers, buyers,
// items, categories, watches) that the twenty XMark queries join on. Written from the published
// description of the document's structure; the figures follow its scale factor (factor 0.1 gives
// 2,550 people, 2,175 items, 1,200 open and 975 closed auctions, about 11 MB).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { random } = require('./generate');

/** Items per region at factor 1, in the document's order. */
const REGIONS = [
  ['africa', 550],
  ['asia', 2000],
  ['australia', 2200],
  ['europe', 6000],
  ['namerica', 10000],
  ['samerica', 1000],
];
const AT_FACTOR_1 = { categories: 1000, people: 25500, open: 12000, closed: 9750 };

const WORDS = (
  'auction bid lot seller buyer gold silver bronze antique vintage rare mint condition original box ' +
  'shipping payment offer reserve price quality classic modern wooden leather glass metal paper ' +
  'painting print book record stamp coin watch clock lamp chair table mirror vase bowl plate ' +
  'collection limited edition signed numbered handmade restored complete set pair dozen small large ' +
  'heavy light bright dark red blue green white black yellow old new early late famous unknown ' +
  'maker artist author house garden kitchen office travel music sport toy game model train'
).split(' ');
const FIRST = 'Anna Ben Carla David Emma Felix Greta Hugo Ines Jonas Karin Lars Mona Nils Olga Paul Rosa Sven Tina Uwe'.split(' ');
const LAST = 'Albers Becker Cordes Dietz Ebert Fuchs Graf Haas Jung Keller Lang Mohr Neumann Otto Pohl Roth Sauer Thiel Vogt Wolf'.split(' ');
const COUNTRIES = ['United States', 'Germany', 'France', 'Japan', 'Brazil', 'Kenya', 'Australia', 'Canada'];
const CITIES = ['Springfield', 'Riverside', 'Fairview', 'Madison', 'Georgetown', 'Salem', 'Clinton', 'Franklin'];
const EDUCATION = ['High School', 'College', 'Graduate School', 'Other'];
const PAYMENT = ['Creditcard', 'Money order', 'Personal Check', 'Cash'];

/** The document as one string; `factor` scales every count (0.1: about 11 MB). */
function xmarkDocument(factor = 0.1, seed = 42) {
  const rnd = random(seed);
  const int = (n) => Math.floor(rnd() * n);
  const pick = (list) => list[int(list.length)];
  const chance = (p) => rnd() < p;
  const money = (max) => (rnd() * max).toFixed(2);
  const date = () => `${String(1 + int(12)).padStart(2, '0')}/${String(1 + int(28)).padStart(2, '0')}/${1998 + int(4)}`;
  const time = () => `${String(int(24)).padStart(2, '0')}:${String(int(60)).padStart(2, '0')}:${String(int(60)).padStart(2, '0')}`;
  const words = (n) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const scaled = (n) => Math.max(1, Math.round(n * factor));
  const counts = Object.fromEntries(Object.entries(AT_FACTOR_1).map(([k, n]) => [k, scaled(n)]));
  const itemCount = REGIONS.reduce((sum, [, n]) => sum + scaled(n), 0);
  const ref = (prefix, n) => `${prefix}${int(n)}`;
  const person = () => ref('person', counts.people);

  // Running text with inline markup: keyword, bold and emph (the paths of Q14 and Q15).
  const text = (n) => {
    const parts = [];
    for (let i = 0; i < n; i++) {
      const w = words(10 + int(32));
      const r = rnd();
      if (r < 0.15) parts.push(`<keyword>${w}</keyword>`);
      else if (r < 0.25) parts.push(`<bold>${w}</bold>`);
      else if (r < 0.4) parts.push(`<emph>${r < 0.3 ? `<keyword>${words(2)}</keyword> ` : ''}${w}</emph>`);
      else parts.push(w);
    }
    return `<text>${parts.join(' ')}</text>`;
  };
  // A description: text, or a list of items of text or of a nested list (two levels deep at most).
  const parlist = (depth) => {
    const items = Array.from({ length: 1 + int(3) }, () => `<listitem>${depth < 2 && chance(0.35) ? parlist(depth + 1) : text(1 + int(4))}</listitem>`);
    return `<parlist>${items.join('')}</parlist>`;
  };
  const description = () => `<description>${chance(0.55) ? text(3 + int(12)) : parlist(1)}</description>`;
  const annotation = () =>
    `<annotation><author person="${person()}"/>${description()}<happiness>${1 + int(10)}</happiness></annotation>`;

  const out = ['<?xml version="1.0" standalone="yes"?>', '<site>', '<regions>'];
  let itemId = 0;
  for (const [region, n] of REGIONS) {
    out.push(`<${region}>`);
    for (let i = 0; i < scaled(n); i++) {
      const mails = Array.from(
        { length: int(4) },
        () => `<mail><from>${pick(FIRST)} ${pick(LAST)} mailto:${pick(LAST)}@example.com</from><to>${pick(FIRST)} ${pick(LAST)} mailto:${pick(LAST)}@example.net</to><date>${date()}</date>${text(1 + int(5))}</mail>`,
      );
      const categories = Array.from({ length: 1 + int(3) }, () => `<incategory category="${ref('category', counts.categories)}"/>`);
      out.push(
        `<item id="item${itemId++}"${chance(0.1) ? ' featured="yes"' : ''}>` +
          `<location>${pick(COUNTRIES)}</location><quantity>${1 + int(2)}</quantity><name>${words(2 + int(3))}</name>` +
          `<payment>${PAYMENT.filter(() => chance(0.5)).join(', ')}</payment>${description()}` +
          `<shipping>${chance(0.5) ? 'Will ship internationally' : 'Will ship only within country'}</shipping>` +
          `${categories.join('')}<mailbox>${mails.join('')}</mailbox></item>`,
      );
    }
    out.push(`</${region}>`);
  }
  out.push('</regions>', '<categories>');
  for (let i = 0; i < counts.categories; i++) out.push(`<category id="category${i}"><name>${words(2)}</name>${description()}</category>`);
  out.push('</categories>', '<catgraph>');
  for (let i = 0; i < counts.categories; i++) out.push(`<edge from="${ref('category', counts.categories)}" to="${ref('category', counts.categories)}"/>`);
  out.push('</catgraph>', '<people>');
  for (let i = 0; i < counts.people; i++) {
    const [first, last] = [pick(FIRST), pick(LAST)];
    let p = `<person id="person${i}"><name>${first} ${last}</name><emailaddress>mailto:${last}@example.com</emailaddress>`;
    if (chance(0.5)) p += `<phone>+${int(100)} (${int(1000)}) ${int(10000000)}</phone>`;
    if (chance(0.5)) p += `<address><street>${int(100)} ${pick(LAST)} St</street><city>${pick(CITIES)}</city><country>${pick(COUNTRIES)}</country><zipcode>${int(100000)}</zipcode></address>`;
    if (chance(0.5)) p += `<homepage>http://www.example.com/~${last}${i}</homepage>`;
    if (chance(0.5)) p += `<creditcard>${int(10000)} ${int(10000)} ${int(10000)} ${int(10000)}</creditcard>`;
    if (chance(0.75)) {
      const income = chance(0.9) ? ` income="${(5000 + rnd() * rnd() * 150000).toFixed(2)}"` : '';
      const interests = Array.from({ length: int(5) }, () => `<interest category="${ref('category', counts.categories)}"/>`).join('');
      p +=
        `<profile${income}>${interests}${chance(0.5) ? `<education>${pick(EDUCATION)}</education>` : ''}` +
        `${chance(0.5) ? `<gender>${chance(0.5) ? 'male' : 'female'}</gender>` : ''}<business>${chance(0.5) ? 'Yes' : 'No'}</business>` +
        `${chance(0.5) ? `<age>${18 + int(50)}</age>` : ''}</profile>`;
    }
    if (chance(0.5)) p += `<watches>${Array.from({ length: int(4) }, () => `<watch open_auction="${ref('open_auction', counts.open)}"/>`).join('')}</watches>`;
    out.push(`${p}</person>`);
  }
  out.push('</people>', '<open_auctions>');
  for (let i = 0; i < counts.open; i++) {
    const initial = Number(money(200));
    let current = initial;
    const bidders = Array.from({ length: int(7) }, () => {
      const increase = (1.5 * (1 + int(20))).toFixed(2);
      current += Number(increase);
      return `<bidder><date>${date()}</date><time>${time()}</time><personref person="${person()}"/><increase>${increase}</increase></bidder>`;
    });
    out.push(
      `<open_auction id="open_auction${i}"><initial>${initial.toFixed(2)}</initial>` +
        `${chance(0.5) ? `<reserve>${(initial * (1.2 + rnd())).toFixed(2)}</reserve>` : ''}${bidders.join('')}` +
        `<current>${current.toFixed(2)}</current>${chance(0.3) ? '<privacy>Yes</privacy>' : ''}` +
        `<itemref item="${ref('item', itemCount)}"/><seller person="${person()}"/>${annotation()}` +
        `<quantity>${1 + int(2)}</quantity><type>${chance(0.8) ? 'Regular' : 'Featured'}</type>` +
        `<interval><start>${date()}</start><end>${date()}</end></interval></open_auction>`,
    );
  }
  out.push('</open_auctions>', '<closed_auctions>');
  for (let i = 0; i < counts.closed; i++) {
    out.push(
      `<closed_auction><seller person="${person()}"/><buyer person="${person()}"/><itemref item="${ref('item', itemCount)}"/>` +
        `<price>${money(300)}</price><date>${date()}</date><quantity>${1 + int(2)}</quantity>` +
        `<type>${chance(0.8) ? 'Regular' : 'Featured'}</type>${annotation()}</closed_auction>`,
    );
  }
  out.push('</closed_auctions>', '</site>', '');
  return out.join('\n');
}

/** Writes the document to `dir`/auction-FACTOR.xml and answers its path. */
function generateXmark(dir, factor = 0.1) {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `auction-${factor}.xml`);
  fs.writeFileSync(file, xmarkDocument(factor));
  return file;
}

module.exports = { xmarkDocument, generateXmark };
if (require.main === module) {
  const file = generateXmark(path.join(__dirname, 'data'), Number(process.argv[2] ?? 0.1));
  console.log(`${file}: ${fs.statSync(file).size} bytes`);
}
