/** EXIT (or QUIT): ends the session; over REST, where each request is a session, it does nothing. */
import { defineCommand, element, needs } from '../definition';

const help = { syntax: '', summary: 'End the session.' };

export const exit = defineCommand({
  kind: 'exit',
  syntax: [
    { words: ['EXIT'], parse: () => ({ kind: 'exit' }), help },
    { words: ['QUIT'], parse: () => ({ kind: 'exit' }), help },
  ],
  elements: { exit: element([], [], () => ({ kind: 'exit' })), quit: element([], [], () => ({ kind: 'exit' })) },
  needs: () => needs('none'),
  run: () => '',
});
