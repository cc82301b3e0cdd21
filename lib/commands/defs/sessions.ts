/**
 * SHOW SESSIONS: the REST interface keeps no sessions (every request authenticates on its own), so
 * the list is empty, in the reference server's shape for no sessions: `0 session(s).` (with
 * sessions it would go on with `:` and one `- user address` line each). KILL parses but is not
 * offered.
 */
import { attr, defineCommand, element, needs } from '../definition';

export const showSessions = defineCommand({
  kind: 'showSessions',
  syntax: [{ words: ['SHOW', ['SESSIONS']], parse: () => ({ kind: 'showSessions' }) }],
  elements: { 'show-sessions': element([], [], () => ({ kind: 'showSessions' })) },
  needs: () => needs('admin'),
  run: () => '0 session(s).\n',
});

export const kill = defineCommand({
  kind: 'kill',
  syntax: [{ words: ['KILL'], parse: (p) => ({ kind: 'kill', target: p.reqString() }), help: { syntax: '[target]', summary: 'End the sessions of a user.' } }],
  elements: { kill: element(['target'], [], (a) => ({ kind: 'kill', target: attr(a, 'target') })) },
  needs: () => needs('admin'),
});
