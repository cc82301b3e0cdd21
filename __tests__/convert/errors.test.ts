import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONVERT_ERRORS, lineColumn, locationPrefix, raiseAt } from '../../lib/convert/errors';

const LIB = join(__dirname, '../../lib/convert');

describe('CONVERT_ERRORS catalog', () => {
  const keys = Object.keys(CONVERT_ERRORS) as (keyof typeof CONVERT_ERRORS)[];
  const sources = readdirSync(LIB)
    .filter((f) => f.endsWith('.ts') && f !== 'errors.ts' && f !== 'index.ts')
    .map((f) => readFileSync(join(LIB, f), 'utf8'))
    .join('\n');

  it.each(keys)('%s is used by the code', (key) => {
    expect(sources).toContain(`'${key}'`);
  });

  it.each(keys)('%s is a 400 whose slots match its name', (key) => {
    const e = CONVERT_ERRORS[key];
    expect(e.status).toBe(400);
    const slots = (e.template.match(/%/g) ?? []).length;
    const suffix = /_(X+)$/.exec(key)?.[1].length ?? 0;
    expect(slots).toBe(suffix);
  });
});

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
