import { formatTable, sortRows } from '../../lib/commands/table';

describe('formatTable (spec §15.3)', () => {
  test('the LIST example: header, dashes, rows, empty line, summary', () => {
    const out = formatTable({
      header: ['Name', 'Resources', 'Size', 'Input Path'],
      rows: [
        ['acc_a', '2', '5012', ''],
        ['acc_b', '0', '4118', ''],
      ],
      summary: '% database(s)',
    });
    expect(out).toBe(
      'Name   Resources  Size  Input Path  \n' +
        '----------------------------------\n' +
        'acc_a  2          5012              \n' +
        'acc_b  0          4118              \n' +
        '\n' +
        '2 database(s).\n',
    );
  });

  test('the spec example, lines trimmed, when the widest name has six characters', () => {
    // The example's Name column is 6 wide although its names have 5 characters; with a 6-character
    // name in the listing the same layout results (the example shows no trailing spaces).
    const out = formatTable({
      header: ['Name', 'Resources', 'Size', 'Input Path'],
      rows: [
        ['acc_a', '2', '5012', ''],
        ['acc_b', '0', '4118', ''],
        ['acc_cc', '0', '4118', ''],
      ],
      summary: '% database(s)',
    });
    const lines = out.split('\n').map((l) => l.trimEnd());
    expect(lines.slice(0, 4)).toStrictEqual([
      'Name    Resources  Size  Input Path',
      '-----------------------------------',
      'acc_a   2          5012',
      'acc_b   0          4118',
    ]);
  });

  test('the dashes line is as long as the header without its trailing padding', () => {
    const out = formatTable({ header: ['Username', 'Permission'], rows: [['admin', 'admin'], ['u', 'none']], summary: '% user(s)' });
    const [header, dashes] = out.split('\n');
    expect(dashes).toBe('-'.repeat(header.trimEnd().length));
    expect(out).toBe(
      'Username  Permission  \n' +
        '--------------------\n' +
        'admin     admin       \n' +
        'u         none        \n' +
        '\n' +
        '2 user(s).\n',
    );
  });

  test('an empty table still has its header and summary', () => {
    expect(formatTable({ header: ['Name', 'Size'], rows: [], summary: '% database(s)' })).toBe(
      'Name  Size  \n' + '----------\n' + '\n' + '0 database(s).\n',
    );
  });

  test('right-aligned columns and no summary', () => {
    expect(formatTable({ header: ['Path', 'Size'], rows: [['a', '5'], ['bb', '1234']], alignRight: [false, true] })).toBe(
      'Path  Size  \n' + '----------\n' + 'a        5  \n' + 'bb    1234  \n',
    );
  });

  test('widths count UTF-8 bytes, as the reference server does', () => {
    const out = formatTable({ header: ['N', 'X'], rows: [['é', '1']] });
    expect(out.split('\n')[2]).toBe('é  1  ');
    expect(out.split('\n')[0]).toBe('N   X  ');
  });
});

describe('sortRows', () => {
  test('by the first cell, case-insensitively', () => {
    expect(sortRows([['b'], ['A'], ['a2'], ['C']])).toStrictEqual([['A'], ['a2'], ['b'], ['C']]);
  });
});
