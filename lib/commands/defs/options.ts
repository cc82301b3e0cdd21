/**
 * SET and SHOW OPTIONS: the options of a session (spec §2.4 names), kept in `state.options` by
 * canonical upper-case name (exec/session-options.ts). SET option (value) stores the parsed value; without
 * a value a boolean option is toggled and any other option is reset to its default. An index
 * setting this server cannot honour (an include list) is refused (store/index-kinds.ts). `CHOP` is the
 * legacy alias of `STRIPWS`. SHOW OPTIONS (name) answers `NAME: value` lines, all of them under
 * `Local Options:`.
 */
import { optionKind, parseOptionValue } from '../../store/database-options';
import { unsupportedIndexSetting } from '../../store/index-kinds';
import { requireValidSerializerOption } from '../../xquery/serialization/params';
import { attr, defineCommand, element, needs, opt, text } from '../definition';
import { execError } from '../exec/errors';
import { canonicalOption, OPTION_NAMES, optionValue } from '../exec/session-options';

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
  run: (cmd, ctx) => {
    const state = ctx.state;
    const name = canonicalOption(cmd.option);
    const value = cmd.value === undefined ? (optionKind(name) === 'boolean' ? optionValue(state, name) !== true : undefined) : parseOptionValue(name, cmd.value);
    if (cmd.value !== undefined && value === undefined) throw execError('INVALID_OPTION_VALUE_XX', name, cmd.value);
    const unsupported = unsupportedIndexSetting(name, value);
    if (unsupported !== undefined) throw execError('NOT_SUPPORTED_INDEX_X', unsupported);
    if (value === undefined) state.options.delete(name);
    else {
      if (cmd.value !== undefined) requireValidSerializerOption(name, cmd.value);
      state.options.set(name, value);
    }
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
