/**
 * A saxon-js instance of a test's own, run from a given text of its script (the original, or the
 * original with source patches): the test runner's instance (patched by scripts/jest-saxon.js)
 * stays as it is.
 */
import fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { Script } from 'node:vm';
import type { SaxonApi } from '../../lib/saxon/load';

const file = require.resolve('saxon-js');

/** saxon-js's script as installed, unpatched. */
export const SAXON_SOURCE = fs.readFileSync(file, 'utf8');

/** saxon-js run from `text`, as Node would run its script. */
export function saxonFrom(text: string): SaxonApi {
  const mod = { exports: {} as unknown };
  const body = new Script(Module.wrap(text), { filename: file }).runInThisContext() as (...args: unknown[]) => void;
  body.call(mod.exports, mod.exports, createRequire(file), mod, file, path.dirname(file));
  return mod.exports as SaxonApi;
}
