/** CHECK input: parsed and planned, but not offered by this server (no `run`). */
import { attr, defineCommand, element, needs } from '../definition';

export const check = defineCommand({
  kind: 'check',
  syntax: [
    {
      words: ['CHECK'],
      parse: (p) => ({ kind: 'check', input: p.reqString() }),
      help: { syntax: '[input]', summary: 'Open a database, or create it from [input].' },
    },
  ],
  elements: { check: element(['input'], [], (a) => ({ kind: 'check', input: attr(a, 'input') })) },
  needs: (cmd) => needs('read', [cmd.input]),
  // As in the reference server, CHECK leaves the database opened.
  opens: (cmd) => cmd.input,
});
