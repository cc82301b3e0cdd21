/** BaseX commands, one at a time, with the tab's history (Up/Down in the input). */
import { command, RequestError } from './api';
import { fill, h } from './dom';

const HISTORY_KEY = 'xmldb-console-commands';
const HISTORY_LENGTH = 50;

function history(): string[] {
  try {
    const value = JSON.parse(sessionStorage.getItem(HISTORY_KEY) ?? '[]') as unknown;
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export function commandsView(root: HTMLElement): void {
  const input = h('input', { id: 'command', class: 'wide', placeholder: 'LIST, INFO DB, CREATE DB name, SHOW USERS…', 'aria-label': 'Command', autocomplete: 'off' });
  const output = h('pre', { class: 'result', id: 'command-output', tabindex: '0', 'aria-label': 'Command output' });
  const list = h('ul', { class: 'list', id: 'command-history' });
  let position = -1;
  const showHistory = (): void => fill(list, ...history().map((c) => h('li', {}, h('button', { class: 'link', onclick: () => ((input.value = c), input.focus()) }, c))));
  const run = async (): Promise<void> => {
    const text = input.value.trim();
    if (!text) return;
    sessionStorage.setItem(HISTORY_KEY, JSON.stringify([text, ...history().filter((c) => c !== text)].slice(0, HISTORY_LENGTH)));
    position = -1;
    showHistory();
    output.classList.remove('error');
    try {
      output.textContent = (await command(text)) || '(no output)';
    } catch (e) {
      output.classList.add('error');
      output.textContent = e instanceof RequestError ? `${e.status}: ${e.message}` : String(e);
    }
  };
  input.addEventListener('keydown', (event) => {
    const items = history();
    if (event.key === 'ArrowUp' && position < items.length - 1) input.value = items[++position];
    else if (event.key === 'ArrowDown' && position > 0) input.value = items[--position];
    else return;
    event.preventDefault();
  });
  const form = h(
    'form',
    {
      class: 'inline',
      onsubmit: (event) => {
        event.preventDefault();
        void run();
      },
    },
    input,
    h('button', { type: 'submit', class: 'primary' }, 'Execute'),
  );
  fill(root, h('h2', {}, 'Commands'), form, output, h('h3', {}, 'History'), list);
  showHistory();
  input.focus();
}
