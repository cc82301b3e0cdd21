/**
 * A document's summary is kept for as long as its version is, and must not keep the stored text
 * it was read from: the scanners' names are slices of that text (V8 makes a slice of 13
 * characters or more a view of the whole string), so a summary whose keys were such slices kept
 * the whole text alive (108 MB at XMark factor 1, in every worker that counted over it).
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DocumentSummary } from '../../../../lib/xquery/accelerators/leaf-summaries/leaf-summaries';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const usedAfterCollection = (): number => {
  gc();
  gc();
  return getHeapStatistics().used_heap_size;
};

/** About 16 MB of stored text whose element names are long enough to be sliced, not copied; `general` puts it in the form the one-pass scan leaves to the parser. */
function storedText(general: boolean): string {
  const item = '<auctionLotEntry><reservePriceAmount>17</reservePriceAmount><descriptionParagraph>some words</descriptionParagraph></auctionLotEntry>';
  return `<auctionCatalogue>${general ? '<!--general-->' : ''}${item.repeat(130_000)}</auctionCatalogue>`;
}

test.each([
  ['read in one pass', false],
  ['read by the general scanner', true],
])('a summary %s keeps none of its text', (_how, general) => {
  const before = usedAfterCollection();
  const summary = ((text: string) => DocumentSummary.of(text))(storedText(general));
  // the last match of a regular expression keeps its subject (the scanners test the text with one) until the next match
  /x/.exec('x');
  const kept = usedAfterCollection() - before;
  // the summary answers from what it kept: counts and one pair's values (130,000 numbers each for owners and values)
  expect(summary.summary('Q{}auctionLotEntry', '')?.count).toBe(130_000);
  expect(summary.summary('Q{}auctionLotEntry', 'Q{}reservePriceAmount')?.values.length).toBe(130_000);
  expect(summary.summary('Q{}auctionCatalogue', '')?.count).toBe(1);
  // the text is 16 MB; the summary's values 1.6 MB
  expect(kept).toBeLessThan(6_000_000);
});
