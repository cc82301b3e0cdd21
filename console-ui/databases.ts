/**
 * Databases: the list (resources, size), create and drop; a database's directories and resources
 * (sortable), upload by drag and drop or file picker with progress, delete, rename; a document
 * view (pretty-printed and highlighted, raw, download).
 */
import { authorizationHeader, command, commandArg, parseXml, request, restUrl, RequestError } from './api';
import { bytes, download, fill, h, note } from './dom';
import { prettyXml } from './pretty-xml';
import { documentView, type ViewLanguage } from './viewer';

const REST_NS = 'http://basex.org/rest';

interface Row {
  readonly name: string;
  readonly kind: 'dir' | 'xml' | 'raw';
  readonly contentType: string;
  readonly size: number;
}

function errorText(e: unknown): string {
  return e instanceof RequestError ? `${e.status}: ${e.message}` : String(e);
}

export async function databasesView(root: HTMLElement): Promise<void> {
  const status = h('p', { class: 'status', role: 'status' });
  const name = h('input', { id: 'new-db', placeholder: 'new database name', 'aria-label': 'New database name', required: true });
  const form = h(
    'form',
    {
      class: 'inline',
      onsubmit: (event) => {
        event.preventDefault();
        const db = name.value.trim();
        if (!db) return;
        request(restUrl([db]), { method: 'PUT' }).then(
          () => databasesView(root),
          (e: unknown) => note(status, errorText(e), true),
        );
      },
    },
    name,
    h('button', { type: 'submit' }, 'Create database'),
  );
  const table = h('table', { class: 'grid' });
  fill(root, h('h2', {}, 'Databases'), form, status, table);
  try {
    const doc = parseXml(await (await request('rest')).text());
    const rows = [...doc.getElementsByTagNameNS(REST_NS, 'database')].map((d) => ({
      name: d.textContent ?? '',
      resources: Number(d.getAttribute('resources') ?? 0),
      size: Number(d.getAttribute('size') ?? 0),
    }));
    fill(
      table,
      h('thead', {}, h('tr', {}, h('th', {}, 'Name'), h('th', { class: 'num' }, 'Resources'), h('th', { class: 'num' }, 'Size'), h('th', {}, ''))),
      h(
        'tbody',
        {},
        ...rows.map((r) =>
          h(
            'tr',
            {},
            h('td', {}, h('a', { href: `#/db/${encodeURIComponent(r.name)}` }, r.name)),
            h('td', { class: 'num' }, String(r.resources)),
            h('td', { class: 'num' }, bytes(r.size)),
            h(
              'td',
              {},
              h(
                'button',
                {
                  class: 'danger',
                  'aria-label': `Drop ${r.name}`,
                  onclick: () => {
                    if (!confirm(`Drop database ${r.name}?`)) return;
                    request(restUrl([r.name]), { method: 'DELETE' }).then(
                      () => databasesView(root),
                      (e: unknown) => note(status, errorText(e), true),
                    );
                  },
                },
                'Drop',
              ),
            ),
          ),
        ),
      ),
    );
    if (rows.length === 0) note(status, 'No databases yet.');
  } catch (e) {
    note(status, errorText(e), true);
  }
}

/** The content type a file is stored with: by its name, else what the browser says. */
function contentTypeOf(file: File, csvHeader: boolean): string {
  const ext = file.name.toLowerCase().split('.').pop() ?? '';
  switch (ext) {
    case 'xml':
    case 'xsl':
    case 'xslt':
    case 'svg':
      return 'application/xml';
    case 'json':
      return 'application/json';
    case 'csv':
      return csvHeader ? 'text/csv; header=yes' : 'text/csv';
    case 'html':
    case 'htm':
      return 'text/html';
    default:
      return file.type || 'application/octet-stream';
  }
}

/** PUT with upload progress (fetch reports none). */
function upload(url: string, file: File, contentType: string, progress: (fraction: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    const auth = authorizationHeader();
    if (auth) xhr.setRequestHeader('Authorization', auth);
    xhr.setRequestHeader('Content-Type', contentType);
    xhr.upload.onprogress = (e) => e.lengthComputable && progress(e.loaded / e.total);
    xhr.onload = () => (xhr.status < 300 ? resolve() : reject(new RequestError(xhr.status, xhr.responseText)));
    xhr.onerror = () => reject(new RequestError(0, 'network error'));
    xhr.send(file);
  });
}

/** Files of a drop, folders walked (their paths kept). */
async function droppedFiles(items: DataTransferItemList): Promise<Array<{ path: string; file: File }>> {
  const out: Array<{ path: string; file: File }> = [];
  const walk = async (entry: FileSystemEntry, prefix: string): Promise<void> => {
    if (entry.isFile) {
      const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
      out.push({ path: prefix + entry.name, file });
    } else if (entry.isDirectory) {
      const reader = (entry as FileSystemDirectoryEntry).createReader();
      for (;;) {
        const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
        if (batch.length === 0) break;
        for (const child of batch) await walk(child, `${prefix}${entry.name}/`);
      }
    }
  };
  // entries are read before anything is awaited: the list is emptied once the drop handler returns
  const dropped = [...items].filter((item) => item.kind === 'file').map((item) => ({ entry: item.webkitGetAsEntry(), file: item.getAsFile() }));
  for (const { entry, file } of dropped) {
    if (entry !== null) await walk(entry, '');
    else if (file !== null) out.push({ path: file.name, file });
  }
  return out;
}

type SortKey = 'name' | 'kind' | 'contentType' | 'size';

export async function databaseView(root: HTMLElement, db: string, dir: string[]): Promise<void> {
  const status = h('p', { class: 'status', role: 'status' });
  const table = h('table', { class: 'grid' });
  const csvHeader = h('input', { type: 'checkbox', id: 'csv-header', checked: true });
  const picker = h('input', { type: 'file', multiple: true, id: 'file-picker', 'aria-label': 'Choose files to upload' });
  const progress = h('div', { class: 'uploads', 'aria-live': 'polite' });
  const here = [db, ...dir];
  const crumbs = h(
    'nav',
    { class: 'crumbs', 'aria-label': 'Path' },
    h('a', { href: '#/' }, 'Databases'),
    ...here.flatMap((part, i) => [' / ', h('a', { href: `#/db/${here.slice(0, i + 1).map(encodeURIComponent).join('/')}` }, part)]),
  );

  const uploadAll = async (files: Array<{ path: string; file: File }>): Promise<void> => {
    for (const { path, file } of files) {
      const bar = h('progress', { max: '1', value: '0' });
      const line = h('div', {}, `${path} `, bar);
      progress.appendChild(line);
      try {
        await upload(restUrl([...here, ...path.split('/')]), file, contentTypeOf(file, csvHeader.checked), (f) => (bar.value = f));
        bar.value = 1;
        line.append(' stored');
      } catch (e) {
        line.append(` failed: ${errorText(e)}`);
        line.classList.add('error');
      }
    }
    await refresh();
  };
  picker.addEventListener('change', () => void uploadAll([...(picker.files ?? [])].map((file) => ({ path: file.name, file }))));
  const drop = h(
    'div',
    {
      class: 'dropzone',
      tabindex: '0',
      role: 'button',
      'aria-label': 'Drop files or folders here to upload, or press Enter to choose files',
      onkeydown: (e) => (e as KeyboardEvent).key === 'Enter' && picker.click(),
      ondragover: (e) => {
        e.preventDefault();
        drop.classList.add('over');
      },
      ondragleave: () => drop.classList.remove('over'),
      ondrop: (e) => {
        e.preventDefault();
        drop.classList.remove('over');
        const items = (e as DragEvent).dataTransfer?.items;
        if (items) void droppedFiles(items).then(uploadAll);
      },
    },
    'Drop files or folders here (XML, JSON, CSV, HTML are converted; anything else is stored as bytes) ',
    picker,
    h('label', {}, csvHeader, ' CSV has a header line'),
  );
  fill(root, crumbs, drop, progress, status, table);

  let rows: Row[] = [];
  /** Reads the listing again and shows it (after an upload, a rename, a delete). */
  const refresh = async (): Promise<void> => {
    try {
      const doc = parseXml(await (await request(restUrl(here))).text());
      rows = [];
      for (const el of doc.documentElement ? [...doc.documentElement.children] : []) {
        if (el.localName === 'dir') rows.push({ name: el.textContent ?? '', kind: 'dir', contentType: '', size: 0 });
        else if (el.localName === 'resource') {
          rows.push({ name: el.textContent ?? '', kind: el.getAttribute('type') === 'xml' ? 'xml' : 'raw', contentType: el.getAttribute('content-type') ?? '', size: Number(el.getAttribute('size') ?? 0) });
        }
      }
      note(status, rows.length === 0 ? 'Empty: drop files above to add resources.' : '');
      render();
    } catch (e) {
      note(status, errorText(e), true);
    }
  };
  let sort: SortKey = 'name';
  let ascending = true;
  const render = (): void => {
    const sorted = [...rows].sort((a, b) => {
      const x = a[sort];
      const y = b[sort];
      const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      return ascending ? order : -order;
    });
    const header = (key: SortKey, label: string, cls = ''): HTMLTableCellElement =>
      h(
        'th',
        { class: cls, 'aria-sort': sort === key ? (ascending ? 'ascending' : 'descending') : 'none' },
        h(
          'button',
          {
            class: 'sort',
            onclick: () => {
              ascending = sort === key ? !ascending : true;
              sort = key;
              render();
            },
          },
          label,
          sort === key ? (ascending ? ' ▲' : ' ▼') : '',
        ),
      );
    fill(
      table,
      h('thead', {}, h('tr', {}, header('name', 'Name'), header('kind', 'Type'), header('contentType', 'Content type'), header('size', 'Size', 'num'), h('th', {}, ''))),
      h('tbody', {}, ...sorted.map((r) => rowOf(r))),
    );
  };
  const rowOf = (r: Row): HTMLTableRowElement => {
    const path = [...here, r.name];
    const link = r.kind === 'dir' ? `#/db/${path.map(encodeURIComponent).join('/')}` : `#/doc/${path.map(encodeURIComponent).join('/')}`;
    const rename = (): void => {
      const target = prompt(`Rename ${r.name} to`, [...dir, r.name].join('/'));
      if (!target) return;
      Promise.resolve()
        .then(() => command(`RENAME ${commandArg([...dir, r.name].join('/'))} ${commandArg(target)}`, db))
        .then(refresh, (e: unknown) => note(status, errorText(e), true));
    };
    const remove = (): void => {
      if (!confirm(`Delete ${r.name}?`)) return;
      request(restUrl(path), { method: 'DELETE' }).then(refresh, (e: unknown) => note(status, errorText(e), true));
    };
    return h(
      'tr',
      {},
      h('td', {}, h('a', { href: link }, r.kind === 'dir' ? `${r.name}/` : r.name)),
      h('td', {}, r.kind === 'dir' ? 'directory' : r.kind),
      h('td', {}, r.contentType),
      // BaseX's listing: an XML resource's size is its number of nodes, a raw one's its bytes
      h('td', { class: 'num' }, r.kind === 'dir' ? '' : r.kind === 'xml' ? `${r.size} nodes` : bytes(r.size)),
      h('td', { class: 'actions' }, h('button', { onclick: rename, 'aria-label': `Rename ${r.name}` }, 'Rename'), h('button', { class: 'danger', onclick: remove, 'aria-label': `Delete ${r.name}` }, 'Delete')),
    );
  };
  await refresh();
}

/** Pretty-prints JSON text; the text as it is when it is not JSON. */
function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export async function documentPage(root: HTMLElement, path: string[]): Promise<void> {
  const status = h('p', { class: 'status', role: 'status' });
  const holder = h('div', { class: 'document' });
  const name = path[path.length - 1] ?? 'document';
  const crumbs = h(
    'nav',
    { class: 'crumbs', 'aria-label': 'Path' },
    h('a', { href: '#/' }, 'Databases'),
    ...path.slice(0, -1).flatMap((part, i) => [' / ', h('a', { href: `#/db/${path.slice(0, i + 1).map(encodeURIComponent).join('/')}` }, part)]),
    ` / ${name}`,
  );
  fill(root, crumbs, status, holder);
  try {
    const res = await request(restUrl(path));
    const type = res.headers.get('Content-Type') ?? '';
    const blob = await res.blob();
    const raw = await blob.text();
    const isXml = /[/+]xml\b/.test(type);
    const isJson = /[/+]json\b/.test(type);
    let pretty = raw;
    if (isXml) pretty = prettyXml(raw);
    else if (isJson) pretty = prettyJson(raw);
    const language: ViewLanguage = isXml ? 'xml' : isJson ? 'json' : 'text';
    const show = (text: string): void => {
      fill(holder);
      documentView(holder, text, language);
    };
    const rawButton = h('button', { 'aria-pressed': 'false' }, 'Raw');
    rawButton.addEventListener('click', () => {
      const on = rawButton.getAttribute('aria-pressed') !== 'true';
      rawButton.setAttribute('aria-pressed', String(on));
      if (on) fill(holder, h('pre', { class: 'raw', tabindex: '0' }, raw));
      else show(pretty);
    });
    const toolbar = h('div', { class: 'toolbar' }, h('span', {}, `${type}, ${blob.size} bytes `), rawButton, h('button', { onclick: () => download(name, blob) }, 'Download'));
    root.insertBefore(toolbar, status);
    show(pretty);
  } catch (e) {
    note(status, errorText(e), true);
  }
}
