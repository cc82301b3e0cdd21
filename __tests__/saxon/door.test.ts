/**
 * saxon-js has one door: only lib/saxon/ loads the package, and its runtime patches
 * (lib/saxon/patches/) are reached only from the query workers' own modules, so the host
 * application's saxon-js on the main thread stays as the package ships it.
 */
import fs from 'node:fs';
import path from 'node:path';

const LIB = path.join(__dirname, '..', '..', 'lib');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The module specifiers a file imports, requires or re-exports. */
function specifiers(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)['"]([^'"]+)['"]/g)) found.push(m[1]);
  return found;
}

const files = sourceFiles(LIB).map((file) => ({ file: path.relative(LIB, file).split(path.sep).join('/'), specifiers: specifiers(file) }));

describe('the saxon-js door', () => {
  test("only lib/saxon/load.ts loads 'saxon-js'", () => {
    const importers = files.filter((f) => f.specifiers.includes('saxon-js')).map((f) => f.file);
    expect(importers).toEqual(['saxon/load.ts']);
  });

  test('the patches are applied from the query workers only', () => {
    const importers = files
      .filter((f) => !f.file.startsWith('saxon/'))
      .filter((f) => f.specifiers.some((s) => /(^|\/)saxon\/patches(\/|$)/.test(path.posix.join(path.posix.dirname(f.file), s))))
      .map((f) => f.file)
      .sort();
    expect(importers).toEqual(['xquery/worker/guards/resource-guard.ts', 'xquery/worker/host-wall.ts', 'xquery/worker/thread.ts']);
  });
});
