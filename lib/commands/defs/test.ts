/** TEST path: XQuery unit tests; parsed and planned, but not offered by this server (no `run`). */
import { attr, defineCommand, element, needs } from '../definition';

export const test = defineCommand({
  kind: 'test',
  syntax: [{ words: ['TEST'], parse: (p) => ({ kind: 'test', path: p.reqString() }), help: { syntax: '[path]', summary: 'Run XQuery unit tests.' } }],
  elements: { test: element(['path'], [], (a) => ({ kind: 'test', path: attr(a, 'path') })) },
  needs: () => needs('admin'),
});
