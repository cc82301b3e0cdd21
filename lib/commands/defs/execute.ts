/**
 * EXECUTE input: runs a command script in string or XML syntax. Planning parses it and plans its
 * commands with the others (their permissions and locks are known before the first one runs);
 * the executor runs its steps in order.
 */
import { defineCommand, element, input, needs } from '../definition';

export const execute = defineCommand({
  kind: 'execute',
  syntax: [
    {
      words: ['EXECUTE'],
      parse: (p) => ({ kind: 'execute', script: p.reqRest(true) }),
      help: { syntax: '[input]', summary: 'Execute a command script.', details: ['[input] is a script in string or XML syntax.'] },
    },
  ],
  elements: { execute: element([], [], (_a, c) => ({ kind: 'execute', script: c as string }), input('input')) },
  needs: () => needs('none'),
  expand: async (cmd) => ({ script: cmd.script }),
});
