/**
 * The suite's temporary folders (helpers/temp-dir.ts): each one a test file makes is handed to the
 * test environment, which removes it after the file (helpers/query-host-environment.ts). Before,
 * a run of the suite left hundreds of them in the system's temporary folder.
 */
import fs from 'node:fs';
import { TEMP_DIRS, tempDir } from './helpers/temp-dir';

test("a folder made by tempDir is empty, and listed for removal after the file", () => {
  const dir = tempDir();
  expect(fs.readdirSync(dir)).toEqual([]);
  const listed = (globalThis as Record<symbol, unknown>)[TEMP_DIRS];
  expect(listed).toEqual(expect.arrayContaining([dir]));
});
