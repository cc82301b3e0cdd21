/**
 * The source patches of saxon-js: changes to its script's text, made wherever the script is
 * compiled (load.ts; the test suite's registry: scripts/jest-saxon.js). They change speed only;
 * each finds its original text exactly or throws.
 */
import { patchConstantGlobals } from './constant-globals';
import { patchKeptModes } from './kept-modes';
import { patchPackageWalk } from './package-walk';
import { patchTunnelParams } from './tunnel-params';
import { patchXPathStaticContext } from './xpath-static-context';

/** SaxonJS2N.js (2.7.0) with every source patch applied. */
export function patchSaxonSource(source: string): string {
  const patches = [patchPackageWalk, patchTunnelParams, patchConstantGlobals, patchKeptModes, patchXPathStaticContext];
  return patches.reduce((text, patch) => patch(text), source);
}
