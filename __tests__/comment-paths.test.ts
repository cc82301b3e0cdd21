/**
 * Comments that name a source file (`store/types.ts`, `router.ts`) must name one that
 * exists: a comment pointing at a moved or renamed file sends the next reader to nothing.
 *
 * A name is looked up beside the commenting file, from the repository's root, from `lib/`, and
 * finally as the end of any path in the repository (`disk-paths.ts` or `file/disk-paths.ts`).
 * Placeholders in prose (`NAME.ts`, `x.ts`, `*.test.ts`) are not file names.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..');
const SOURCE_FOLDERS = ['lib', 'scripts', 'bench', '__tests__', 'console-ui/src'];
const SKIPPED = new Set(['node_modules', 'dist', '.git']);

function filesUnder(folder: string, into: string[] = []): string[] {
  if (!fs.existsSync(path.join(ROOT, folder))) return into;
  for (const entry of fs.readdirSync(path.join(ROOT, folder), { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const relative = path.posix.join(folder, entry.name);
    if (entry.isDirectory()) filesUnder(relative, into);
    else into.push(relative);
  }
  return into;
}

/** The comment text of each line: whole comment lines, and what follows `//` outside a string. */
function commentsOf(text: string): { line: number; comment: string }[] {
  const out: { line: number; comment: string }[] = [];
  text.split('\n').forEach((line, i) => {
    const trimmed = line.trim();
    if (/^(\/\/|\*|\/\*)/.test(trimmed)) out.push({ line: i + 1, comment: trimmed });
    else {
      const at = line.indexOf(' // ');
      if (at >= 0 && !/['"`]/.test(line.slice(at))) out.push({ line: i + 1, comment: line.slice(at) });
    }
  });
  return out;
}

const FILE_NAME = /(?<![\w@:/.*-])((?:\.\.?\/)?[\w.-]+(?:\/[\w.-]+)*\.ts)(?![\w/])/g;

/** Names of prose, not of files: upper-case placeholders, one-letter names, name patterns. */
function isPlaceholder(name: string): boolean {
  const base = path.posix.basename(name, '.ts');
  return /^[A-Z_]+$/.test(base) || base.length < 2 || base.startsWith('.');
}

describe('file names in comments', () => {
  const all = SOURCE_FOLDERS.flatMap((f) => filesUnder(f)).concat(fs.readdirSync(ROOT).filter((f) => fs.statSync(path.join(ROOT, f)).isFile()));
  const known = new Set(all);
  const exists = (from: string, name: string): boolean => {
    const tries = [path.posix.join(path.posix.dirname(from), name), path.posix.normalize(name), path.posix.join('lib', name)];
    if (tries.some((p) => known.has(p))) return true;
    const tail = '/' + name.replace(/^(\.\.?\/)+/, '');
    return all.some((p) => p.endsWith(tail));
  };

  test('name files that exist', () => {
    const missing: string[] = [];
    for (const file of all.filter((f) => /\.(ts|js|mjs)$/.test(f))) {
      for (const { line, comment } of commentsOf(fs.readFileSync(path.join(ROOT, file), 'utf8'))) {
        for (const [, name] of comment.matchAll(FILE_NAME)) {
          if (!isPlaceholder(name) && !exists(file, name)) missing.push(`${file}:${line} names ${name}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  test('a moved file is caught', () => {
    // the check itself: a name that exists passes, the same name in another folder does not
    expect(exists('lib/http/router.ts', 'file/disk-paths.ts')).toBe(true);
    expect(exists('lib/http/router.ts', 'postgres/disk-paths.ts')).toBe(false);
    expect([...'see `postgres/disk-paths.ts`, NAME.ts and x.ts'.matchAll(FILE_NAME)].map((m) => m[1]).filter((n) => !isPlaceholder(n))).toEqual(['postgres/disk-paths.ts']);
  });
});
