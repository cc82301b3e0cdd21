import fs from 'node:fs';
import path from 'node:path';
import { EXEC_ERRORS } from '../../../lib/commands/exec';
import { toCommandFailure } from '../../../lib/commands/exec/errors';
import { XmldbError } from '../../../lib/errors';

const DIR = path.join(__dirname, '../../../lib/commands/exec');

describe('EXEC_ERRORS', () => {
  test('every entry is raised somewhere in the executor; `_X`/`_XX` suffixes count the slots', () => {
    const sources = fs
      .readdirSync(DIR)
      .filter((f) => f.endsWith('.ts') && f !== 'errors.ts')
      .map((f) => fs.readFileSync(path.join(DIR, f), 'utf8'))
      .join('\n');
    for (const [key, e] of Object.entries(EXEC_ERRORS)) {
      expect(sources).toContain(`'${key}'`);
      const slots = (e.template.match(/%/g) ?? []).length;
      const xs = /_(X+)$/.exec(key)?.[1] ?? '';
      expect([key, slots]).toStrictEqual([key, xs.length]);
      expect(e.status).toBe(500);
    }
  });

  test('toCommandFailure: client errors become 500; 403 and 5xx stay', () => {
    const mapped = toCommandFailure(new XmldbError(404, 'gone', 'X')) as XmldbError;
    expect([mapped.status, mapped.message, mapped.code]).toStrictEqual([500, 'gone', 'X']);
    const refused = new XmldbError(403, 'Admin permission needed.');
    expect(toCommandFailure(refused)).toBe(refused);
    const plain = new Error('bug');
    expect(toCommandFailure(plain)).toBe(plain);
  });
});
