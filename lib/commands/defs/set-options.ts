/**
 * SET and SHOW OPTIONS: the options of a session (spec §2.4 names), kept in `state.options` by
 * canonical upper-case name by the rule of exec/session-options.ts (`optionSetting`, which REST
 * options follow too): SET option (value) stores the parsed value; without a value a boolean
 * option is toggled and any other option is reset to its default; an index setting this server
 * cannot honour (an include list) is refused. `CHOP` is the
 * legacy alias of `STRIPWS`. SHOW OPTIONS (name) answers `NAME: value` lines, all of them under
 * `Local Options:`.
 */
import type { OptionValue } from '../../store/database-options';
import { attr, defineCommand, element, needs, opt, text } from '../definition';
import { execError } from '../exec/exec-errors';
import { canonicalOption, OPTION_NAMES, optionSetting, optionValue } from '../exec/session-options';
import type { CommandOf } from '../types';

/** Records the setting of SET `cmd` in `options`. */
function record(cmd: CommandOf<'set'>, options: Map<string, OptionValue>): void {
  const name = canonicalOption(cmd.option);
  const value = optionSetting({ options }, name, cmd.value, () => execError('INVALID_OPTION_VALUE_XX', name, cmd.value));
  if (value === undefined) options.delete(name);
  else options.set(name, value);
}

export const set = defineCommand({
  kind: 'set',
  syntax: [
    {
      words: ['SET'],
      parse: (p) => opt({ kind: 'set', option: p.reqName(), value: p.rest(true) }),
      help: { syntax: '[option] ([value])', summary: 'Set an option.', details: ['Without [value], a boolean option is toggled.'] },
    },
  ],
  elements: { set: element(['option'], [], (a, c) => opt({ kind: 'set', option: attr(a, 'option'), value: c }), text('value', true)) },
  needs: () => needs('none'),
  records: (cmd, options) => {
    const after = new Map(options);
    try {
      record(cmd, after);
    } catch {
      return options;
    }
    return after;
  },
  run: (cmd, ctx) => {
    record(cmd, ctx.state.options);
    return '';
  },
});

export const showOptions = defineCommand({
  kind: 'showOptions',
  syntax: [
    {
      words: ['SHOW', ['OPTIONS']],
      parse: (p) => opt({ kind: 'showOptions', name: p.name(false) }),
      detail: 'OPTIONS ([name]): option values.',
    },
  ],
  elements: { 'show-options': element([], ['name'], (a) => opt({ kind: 'showOptions', name: a.name })) },
  needs: () => needs('none'),
  run: (cmd, ctx) => {
    const state = ctx.state;
    if (cmd.name !== undefined) {
      const name = canonicalOption(cmd.name);
      return `${name}: ${String(optionValue(state, name))}\n`;
    }
    return `Local Options:\n${OPTION_NAMES.map((n) => `${n}: ${String(optionValue(state, n))}\n`).join('')}`;
  },
});
