/**
 * The query editor: CodeMirror with XQuery highlighting and bracket matching, Ctrl/Cmd-Enter to
 * run, the error's line and column marked; the context database, external variables,
 * serialization method and indentation; run with the QUERY method. Results come a page at a
 * time (`Range: items=`), each page appended to one text node, so ten thousand items never
 * become ten thousand elements; timings from `Server-Timing`; a run can be cancelled (the
 * request is aborted, and the server stops a query whose client went away).
 */
import { basicSetup } from 'codemirror';
import { EditorView, keymap } from '@codemirror/view';
import { Prec } from '@codemirror/state';
import { StreamLanguage } from '@codemirror/language';
import { xQuery } from '@codemirror/legacy-modes/mode/xquery';
import { json, parseXml, request, restUrl, RequestError } from './api';
import { download, fill, h, note } from './dom';
import { cspNonce } from './csp';
import { errorMarks, markError } from './error-mark';
import { sanitizedPreview } from './preview';
import { parseServerTiming, timingText } from './timings';

/** Items of the first page (fast), and of each page "Load more" fetches. */
export const FIRST_PAGE = 100;
export const NEXT_PAGE = 1000;

const METHODS = ['xml', 'text', 'json', 'html', 'adaptive', 'csv'];

interface Saved {
  readonly name: string;
  readonly query: string;
}

interface Run {
  readonly url: string;
  readonly text: string;
  next: number;
  total: number | undefined;
  readonly pages: string[];
  contentType: string;
}

let editor: EditorView | undefined;
const DEFAULT_QUERY = 'for $i in 1 to 10\nreturn <item n="{ $i }"/>';

export function queryView(root: HTMLElement): void {
  const status = h('p', { class: 'status', role: 'status', id: 'query-status' });
  const errorLine = h('p', { class: 'query-error', role: 'alert', id: 'query-error' });
  const timing = h('p', { class: 'timing', id: 'timing', 'aria-live': 'polite' });
  const info = h('span', { id: 'result-info' });
  const output = h('pre', { class: 'result', id: 'result', tabindex: '0', 'aria-label': 'Result' });
  const previewHolder = h('div', { id: 'preview-holder' });
  const more = h('button', { id: 'load-more', hidden: true }, 'Load more');
  const previewButton = h('button', { id: 'preview-toggle', hidden: true, 'aria-pressed': 'false' }, 'Preview HTML');
  const db = h('select', { id: 'context-db', 'aria-label': 'Context database' }, h('option', { value: '' }, '(no database)'));
  const method = h('select', { id: 'method', 'aria-label': 'Serialization method' }, ...METHODS.map((m) => h('option', { value: m }, m)));
  const indent = h('input', { type: 'checkbox', id: 'indent' });
  const variables = h('div', { class: 'variables', id: 'variables' });
  const runButton = h('button', { id: 'run', class: 'primary', title: 'Run (Ctrl/Cmd-Enter)' }, 'Run');
  const cancelButton = h('button', { id: 'cancel', disabled: true }, 'Cancel');
  const savedList = h('ul', { class: 'list', id: 'saved-list' });
  const historyList = h('ul', { class: 'list', id: 'history-list' });
  const editorHolder = h('div', { class: 'editor', id: 'editor' });

  let current: Run | undefined;
  let controller: AbortController | undefined;

  const addVariable = (name = '', value = ''): void => {
    const row = h(
      'div',
      { class: 'variable' },
      h('input', { class: 'var-name', placeholder: 'name', 'aria-label': 'Variable name', value: name }),
      h('input', { class: 'var-value', placeholder: 'value', 'aria-label': 'Variable value', value }),
      h('button', { 'aria-label': 'Remove variable', onclick: () => row.remove() }, '×'),
    );
    variables.appendChild(row);
  };

  const params = (): Record<string, string> => {
    // one item a line, also across pages (which are joined with a newline)
    const out: Record<string, string> = { method: method.value, 'item-separator': '\n' };
    if (indent.checked) out.indent = 'yes';
    for (const row of variables.querySelectorAll('.variable')) {
      const name = (row.querySelector('.var-name') as HTMLInputElement).value.trim().replace(/^\$/, '');
      if (name) out[name] = (row.querySelector('.var-value') as HTMLInputElement).value;
    }
    return out;
  };

  const showPages = (run: Run): void => {
    const shown = run.next;
    // a result that is not paged (an updating query's) is shown whole
    info.textContent = run.total === undefined ? '' : `items 1–${shown} of ${run.total}`;
    more.hidden = run.total === undefined || shown >= run.total;
    const isHtml = run.contentType.startsWith('text/html');
    previewButton.hidden = !isHtml;
    if (!isHtml) {
      previewButton.setAttribute('aria-pressed', 'false');
      fill(previewHolder);
    }
  };

  /** Fetches the items from `run.next` on: `count` of them. */
  const fetchPage = async (run: Run, count: number, signal: AbortSignal): Promise<void> => {
    const started = performance.now();
    const res = await request(run.url, {
      method: 'QUERY',
      body: run.text,
      headers: { 'Content-Type': 'text/plain; charset=UTF-8', Range: `items=${run.next}-${run.next + count - 1}` },
      signal,
    });
    const body = await res.text();
    const roundTrip = performance.now() - started;
    run.contentType = res.headers.get('Content-Type') ?? '';
    const range = /^items (\d+)-(\d+)\/(\d+)$/.exec(res.headers.get('Content-Range') ?? '');
    if (res.status === 206 && range) {
      run.next = Number(range[2]) + 1;
      run.total = Number(range[3]);
    } else {
      run.total = undefined;
    }
    timing.textContent = timingText(parseServerTiming(res.headers.get('Server-Timing')), roundTrip);
    const separator = run.pages.length > 0 && body !== '' ? '\n' : '';
    run.pages.push(separator + body);
    output.appendChild(document.createTextNode(separator + body));
    showPages(run);
  };

  const setRunning = (running: boolean): void => {
    runButton.disabled = running;
    cancelButton.disabled = !running;
    more.disabled = running;
  };

  const guarded = async (work: (signal: AbortSignal) => Promise<void>): Promise<void> => {
    controller = new AbortController();
    setRunning(true);
    note(status, 'Running…');
    try {
      await work(controller.signal);
      note(status, 'Done.');
    } catch (e) {
      if (e instanceof DOMException && e.name === 'AbortError') {
        note(status, 'Cancelled.', true);
      } else if (e instanceof RequestError) {
        note(status, `Failed (${e.status}).`, true);
        errorLine.textContent = e.line !== undefined ? `Line ${e.line}, column ${e.column ?? 1}: ${e.message}` : e.message;
        if (editor && e.line !== undefined) markError(editor, { line: e.line, column: e.column ?? 1, message: e.message });
      } else {
        note(status, String(e), true);
      }
    } finally {
      controller = undefined;
      setRunning(false);
    }
  };

  const run = (): void => {
    if (!editor || controller) return;
    const text = editor.state.doc.toString();
    markError(editor, null);
    errorLine.textContent = '';
    fill(output);
    fill(previewHolder);
    timing.textContent = '';
    info.textContent = '';
    more.hidden = true;
    current = { url: restUrl(db.value ? [db.value] : [], params()), text, next: 0, total: undefined, pages: [], contentType: '' };
    const started = current;
    void guarded((signal) => fetchPage(started, FIRST_PAGE, signal));
    void request('api/history', { method: 'POST', body: JSON.stringify({ query: text }), headers: { 'Content-Type': 'application/json' } })
      .then(loadLists)
      .catch(() => undefined);
  };

  const loadLists = async (): Promise<void> => {
    const [saved, history] = await Promise.all([json<Saved[]>('api/saved'), json<Array<{ query: string }>>('api/history')]);
    const load = (text: string) => () => {
      editor?.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: text } });
      editor?.focus();
    };
    fill(
      savedList,
      ...saved.map((s) =>
        h(
          'li',
          {},
          h('button', { class: 'link', onclick: load(s.query), title: s.query }, s.name),
          h(
            'button',
            {
              class: 'danger small',
              'aria-label': `Delete saved query ${s.name}`,
              onclick: () => void request(`api/saved/${encodeURIComponent(s.name)}`, { method: 'DELETE' }).then(loadLists),
            },
            '×',
          ),
        ),
      ),
    );
    fill(historyList, ...history.slice(0, 20).map((entry) => h('li', {}, h('button', { class: 'link', onclick: load(entry.query), title: entry.query }, entry.query.split('\n')[0].slice(0, 60)))));
  };

  const save = (): void => {
    if (!editor) return;
    const name = prompt('Save the query as');
    if (!name) return;
    request(`api/saved/${encodeURIComponent(name)}`, { method: 'PUT', body: JSON.stringify({ query: editor.state.doc.toString() }), headers: { 'Content-Type': 'application/json' } }).then(
      () => {
        note(status, `Saved as ${name}.`);
        return loadLists();
      },
      (e: unknown) => note(status, String(e instanceof Error ? e.message : e), true),
    );
  };

  runButton.addEventListener('click', run);
  cancelButton.addEventListener('click', () => controller?.abort());
  more.addEventListener('click', () => {
    const run = current;
    if (run) void guarded((signal) => fetchPage(run, NEXT_PAGE, signal));
  });
  previewButton.addEventListener('click', () => {
    const on = previewButton.getAttribute('aria-pressed') !== 'true';
    previewButton.setAttribute('aria-pressed', String(on));
    output.hidden = on;
    fill(previewHolder, on && current ? sanitizedPreview(current.pages.join('')) : null);
  });
  const resultText = (): string => current?.pages.join('') ?? '';
  const copyButton = h('button', { onclick: () => void navigator.clipboard.writeText(resultText()).then(() => note(status, 'Copied.')) }, 'Copy');
  const downloadButton = h(
    'button',
    {
      onclick: () => {
        const type = current?.contentType || 'text/plain';
        const ext = type.includes('json') ? 'json' : type.includes('html') ? 'html' : type.includes('xml') ? 'xml' : type.includes('csv') ? 'csv' : 'txt';
        download(`result.${ext}`, new Blob([resultText()], { type }));
      },
    },
    'Download',
  );

  fill(
    root,
    h(
      'div',
      { class: 'query-layout' },
      h(
        'section',
        { class: 'query-main', 'aria-label': 'Query' },
        h(
          'div',
          { class: 'toolbar' },
          h('label', {}, 'Database ', db),
          h('label', {}, 'Method ', method),
          h('label', {}, indent, ' indent'),
          runButton,
          cancelButton,
          h('button', { id: 'save-query', onclick: save }, 'Save…'),
          h('button', { onclick: () => addVariable() }, 'Add variable'),
        ),
        variables,
        editorHolder,
        errorLine,
        status,
        h('section', { class: 'results', 'aria-label': 'Results' }, h('div', { class: 'toolbar' }, info, ' ', copyButton, downloadButton, previewButton), timing, output, previewHolder, more),
      ),
      h('aside', { class: 'query-side' }, h('h3', {}, 'Saved queries'), savedList, h('h3', {}, 'History'), historyList),
    ),
  );

  const runKey = Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => (run(), true) }]));
  const doc = editor?.state.doc.toString() ?? DEFAULT_QUERY;
  editor?.destroy();
  editor = new EditorView({
    parent: editorHolder,
    doc,
    extensions: [cspNonce(), runKey, basicSetup, StreamLanguage.define(xQuery), errorMarks(), EditorView.contentAttributes.of({ 'aria-label': 'XQuery editor' })],
  });
  editor.focus();

  void request('rest')
    .then((res) => res.text())
    .then((text) => {
      for (const d of parseXml(text).getElementsByTagNameNS('http://basex.org/rest', 'database')) db.appendChild(h('option', { value: d.textContent ?? '' }, d.textContent ?? ''));
    })
    .catch(() => undefined);
  void loadLists().catch(() => undefined);
}
