/** The repository's TypeScript sources, for the tests that read the code itself (layers, one path). */
import fs from 'node:fs';
import path from 'node:path';

/** The root of the repository. */
export const REPOSITORY = path.join(__dirname, '..', '..');

/** The `.ts` files below `folder` (relative to the repository, posix separators). */
export function sourcesUnder(folder: string, into: string[] = []): string[] {
  for (const entry of fs.readdirSync(path.join(REPOSITORY, folder), { withFileTypes: true })) {
    const relative = path.posix.join(folder, entry.name);
    if (entry.isDirectory()) sourcesUnder(relative, into);
    else if (entry.name.endsWith('.ts')) into.push(relative);
  }
  return into;
}
