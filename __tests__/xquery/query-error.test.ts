import { normaliseCode } from '../../lib/xquery/query-error';

describe('error codes', () => {
  test.each([
    ['Q{http://www.w3.org/2005/xqt-errors}XPTY0004', 'XPTY0004'],
    ['Q{http://basex.org/modules/db}open', 'db:open'],
    ['XPST0003', 'XPST0003'],
    ['Q{urn:other}x', 'Q{urn:other}x'],
    [undefined, 'FOER0000'],
  ])('%s is written as %s', (code, expected) => {
    expect(normaliseCode(code)).toBe(expected);
  });
});
