/**
 * Checks an error catalog (lib/xmldb-error.ts entries): every entry is raised by name somewhere in the
 * given source folders, and its `_X`/`_XX` suffix counts the `%` slots of its template.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ErrorEntry } from '../../lib/xmldb-error';

const LIB = path.join(__dirname, '..', '..', 'lib');

function sources(folders: readonly string[], exclude: string): string {
  return folders
    .flatMap((folder) => {
      const dir = path.join(LIB, folder);
      return fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.ts') && path.join(dir, f) !== path.join(LIB, exclude))
        .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
    })
    .join('\n');
}

/** `catalogFile` is relative to lib/ (it is not searched for uses); folders too. */
export function describeCatalog(
  name: string,
  catalog: Readonly<Record<string, ErrorEntry>>,
  catalogFile: string,
  folders: readonly string[],
  status?: (key: string) => number | undefined,
): void {
  describe(`${name} catalog`, () => {
    const text = sources(folders, catalogFile);
    test.each(Object.keys(catalog))('%s is used, and its slots match its name', (key) => {
      expect(text).toContain(`'${key}'`);
      const entry = catalog[key];
      const slots = (entry.template.match(/%/g) ?? []).length;
      expect(slots).toBe(/_(X+)$/.exec(key)?.[1].length ?? 0);
      const expected = status?.(key);
      if (expected !== undefined) expect(entry.status).toBe(expected);
      else expect(entry.status).toBeGreaterThanOrEqual(400);
    });
  });
}
