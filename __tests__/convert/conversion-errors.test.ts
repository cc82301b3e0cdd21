import { CONVERT_ERRORS, lineColumn, locationPrefix, raiseAt } from '../../lib/convert/conversion-errors';
import { describeCatalog } from '../helpers/catalog';

describeCatalog('convert', CONVERT_ERRORS, 'convert/conversion-errors.ts', ['convert'], () => 400);

describe('positions', () => {
  it.each([
    ['abc', 0, 1, 1],
    ['abc', 2, 1, 3],
    ['a\nbc', 2, 2, 1],
    ['a\n\nb', 3, 3, 1],
    ['ab', 10, 1, 3],
  ] as const)('lineColumn(%j, %d) = %d:%d', (text, offset, line, column) => {
    expect(lineColumn(text, offset)).toEqual({ line, column });
  });

  it('prefixes', () => {
    expect(locationPrefix({ name: 'a.xml', line: 2, column: 3 })).toBe('"a.xml" (Line 2, Column 3): ');
    expect(locationPrefix({ line: 2 })).toBe('(Line 2): ');
    expect(raiseAt({ line: 1, column: 1 }, 'XML_NO_ROOT')).toMatchObject({
      status: 400,
      code: 'XML_NO_ROOT',
      message: '(Line 1, Column 1): Document has no root element.',
    });
  });
});
