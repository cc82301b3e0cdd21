/** The runtime library's SEF shipped with the built package (shipped-library.ts): read for its own key and saxon-js only. */
import fs from 'node:fs';
import path from 'node:path';
import { compileUncached } from '../../../lib/xquery/worker/compile';
import { shippedLibraryText, shippedSef, SHIPPED_LIBRARY_FILE } from '../../../lib/xquery/worker/shipped-library';
import { tempDir } from '../../helpers/temp-dir';
import { select } from './helpers';

const dir = tempDir('xmldb-shipped-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A file of its own (what was read of a file is kept) holding `text`. */
let files = 0;
function file(text: string): string {
  const name = path.join(dir, `${++files}-${SHIPPED_LIBRARY_FILE}`);
  fs.writeFileSync(name, text);
  return name;
}

const compiled = compileUncached(select('"shipped"'));
const saxonJs = (JSON.parse(fs.readFileSync(require.resolve('saxon-js/package.json'), 'utf8')) as { version: string }).version;

test('answers the SEF for the compile key it was made for, and nothing for any other', () => {
  const shipped = file(shippedLibraryText(compiled));
  expect(JSON.parse(fs.readFileSync(shipped, 'utf8'))).toStrictEqual({ saxonJs, key: compiled.key, sef: compiled.sefText });
  expect(shippedSef(compiled.key, shipped)).toBe(compiled.sefText);
  expect(shippedSef(compileUncached(select('"other"')).key, shipped)).toBeUndefined();
});

test('a SEF made by another saxon-js, a file that is not one, and no file answer nothing', () => {
  expect(shippedSef(compiled.key, file(JSON.stringify({ saxonJs: '2.6.0', key: compiled.key, sef: compiled.sefText })))).toBeUndefined();
  expect(shippedSef(compiled.key, file(JSON.stringify({ saxonJs, key: compiled.key })))).toBeUndefined();
  expect(shippedSef(compiled.key, file('{"saxonJs": "2.7'))).toBeUndefined();
  expect(shippedSef(compiled.key, path.join(dir, 'none.json'))).toBeUndefined();
});
