/**
 * The source patches of saxon-js: changes to its script's text, made wherever the script is
 * compiled (load.ts; the test suite's registry: scripts/jest-saxon.js). They change speed only,
 * except two: one takes a way out away (no-http-client.ts: a wall behind the resource guard of the
 * query workers, which does not rely on it), one holds parsed XML to the nesting limit of stored
 * documents (parse-depth.ts). Each finds its original text exactly or throws.
 */
import { patchConstantGlobals } from './constant-globals';
import { patchKeptModes } from './kept-modes';
import { patchKeptRegexes } from './kept-regexes';
import { patchNoHttpClient } from './no-http-client';
import { patchPackageWalk } from './package-walk';
import { patchParseDepth } from './parse-depth';
import { patchTokenizeSplit } from './tokenize-split';
import { patchTunnelParams } from './tunnel-params';
import { patchXPathStaticContext } from './xpath-static-context';

/** SaxonJS2N.js (2.7.0) with every source patch applied. */
export function patchSaxonSource(source: string): string {
  const patches = [patchPackageWalk, patchTunnelParams, patchConstantGlobals, patchKeptModes, patchKeptRegexes, patchTokenizeSplit, patchXPathStaticContext, patchNoHttpClient, patchParseDepth];
  return patches.reduce((text, patch) => patch(text), source);
}
