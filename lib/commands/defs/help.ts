/**
 * HELP (command): one command's detailed help, or the short help of all. The texts come from the
 * command table (registry.ts), which builds this entry with them.
 */
import { defineCommand, element, needs, opt, text, type CommandDef } from '../definition';
import { commandError } from '../messages';

export interface HelpTexts {
  /** Help of one keyword; undefined for a word that is no keyword. */
  readonly of: (keyword: string, detailed: boolean) => string | undefined;
  /** The short help of every command. */
  readonly all: () => string;
}

export function helpCommand(texts: HelpTexts): CommandDef<'help'> {
  return defineCommand({
    kind: 'help',
    syntax: [
      {
        words: ['HELP'],
        parse: (p) => opt({ kind: 'help', command: p.name(false) }),
        help: { syntax: '([command])', summary: 'Show help on commands.' },
      },
    ],
    elements: { help: element([], [], (_a, c) => opt({ kind: 'help', command: c }), text('command', true)) },
    needs: () => needs('none'),
    run: (cmd) => {
      if (cmd.command === undefined) return texts.all();
      const help = texts.of(cmd.command, true);
      if (help === undefined) throw commandError('UNKNOWN_TRY_X', cmd.command);
      return help;
    },
  });
}
