import fs from 'node:fs';
import path from 'node:path';
import { STORE_ERRORS } from '../../lib/store/errors';

describe('store error catalog', () => {
  const source = fs
    .readdirSync(path.join(__dirname, '../../lib/store'))
    .filter((f) => f.endsWith('.ts') && f !== 'errors.ts')
    .map((f) => fs.readFileSync(path.join(__dirname, '../../lib/store', f), 'utf8'))
    .join('\n');

  test.each(Object.keys(STORE_ERRORS))('%s is used, and its slots match its name', (key) => {
    expect(source).toContain(`'${key}'`);
    const entry = STORE_ERRORS[key as keyof typeof STORE_ERRORS];
    const slots = (entry.template.match(/%/g) ?? []).length;
    const declared = (key.match(/_(X+)$/)?.[1] ?? '').length;
    expect(slots).toBe(declared);
    expect(entry.status).toBeGreaterThanOrEqual(400);
  });
});
