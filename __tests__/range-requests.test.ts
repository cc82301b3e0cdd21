import { contentRange, parseRange, resolveRange } from '../lib/range-requests';

describe('Range header values (RFC 9110 §14.1.1)', () => {
  test.each([
    ['bytes=0-9', 'bytes', { first: 0, last: 9 }],
    ['bytes=10-', 'bytes', { first: 10 }],
    ['bytes=-5', 'bytes', { suffix: 5 }],
    [' Bytes = 1 - 2 ', 'bytes', { first: 1, last: 2 }],
    ['items=95-200', 'items', { first: 95, last: 200 }],
  ] as const)('%s', (header, unit, range) => {
    expect(parseRange(header, unit)).toStrictEqual(range);
  });

  test.each([
    [undefined, 'bytes'],
    ['bytes=0-9', 'items'],
    ['items=0-9', 'bytes'],
    ['bytes=9-0', 'bytes'],
    ['bytes=-', 'bytes'],
    ['bytes=0-1,3-4', 'bytes'],
    ['bytes=x-1', 'bytes'],
    ['bytes 0-1', 'bytes'],
    ['bytes=99999999999999999999-', 'bytes'],
  ] as const)('%s as %s is ignored', (header, unit) => {
    expect(parseRange(header, unit)).toBeUndefined();
  });
});

describe('resolving a range against a length', () => {
  test.each([
    [{ first: 0, last: 9 }, 100, { start: 0, end: 9 }],
    [{ first: 95, last: 200 }, 100, { start: 95, end: 99 }],
    [{ first: 95 }, 100, { start: 95, end: 99 }],
    [{ suffix: 5 }, 100, { start: 95, end: 99 }],
    [{ suffix: 500 }, 100, { start: 0, end: 99 }],
    [{ first: 100 }, 100, undefined],
    [{ first: 0, last: 0 }, 0, undefined],
    [{ suffix: 0 }, 100, undefined],
    [{ suffix: 3 }, 0, undefined],
  ])('%j of %d → %j', (range, length, resolved) => {
    expect(resolveRange(range, length)).toStrictEqual(resolved);
  });

  test('Content-Range values', () => {
    expect(contentRange('items', { start: 95, end: 99 }, 100)).toBe('items 95-99/100');
    expect(contentRange('bytes', undefined, 1000)).toBe('bytes */1000');
  });
});
