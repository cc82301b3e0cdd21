/**
 * The XML syntax of commands (spec §15.2): a `<commands>` root holding one element per command,
 * or a single command element on its own. Each element is checked against its entry in
 * `ELEMENTS`: required and optional attributes (no others; values must not be empty) and its
 * content (none, text, or input that may be XML). A failed check raises the element's syntax.
 */
import { parsePermission } from '../users/permissions';
import { commandError } from './messages';
import { INDEX_TYPES, INFO_INDEX_TYPES, type Command, type IndexType, type InfoIndexType } from './types';
import {
  childElements,
  childNodes,
  displayName,
  isElement,
  isText,
  namespaceOf,
  parseXmlDocument,
  serializeNodes,
  stringValue,
} from './xml';

/**
 * What an element may contain: `text` is a string value (no child elements); `input` may be text
 * or XML (ADD, PUT, CREATE DB, EXECUTE …).
 */
interface ContentSpec {
  readonly label: string;
  readonly mode: 'text' | 'input';
  readonly optional: boolean;
}

type Attrs = Readonly<Record<string, string | undefined>>;

interface ElementSpec {
  readonly required: readonly string[];
  readonly optional: readonly string[];
  readonly content?: ContentSpec;
  /** Builds the command; `content` is undefined when absent (or blank). */
  readonly build: (a: Attrs, content: string | undefined, el: Element) => Command;
}

const text = (label: string, optional = false): ContentSpec => ({ label, mode: 'text', optional });
const input = (label: string, optional = false): ContentSpec => ({ label, mode: 'input', optional });

function spec(
  required: readonly string[],
  optional: readonly string[],
  build: ElementSpec['build'],
  content?: ContentSpec,
): ElementSpec {
  return { required, optional, build, content };
}

/** A required attribute, present once the element passed its check. */
function get(a: Attrs, name: string): string {
  return a[name] as string;
}

/** Drops properties whose value is undefined, so absent arguments are absent. */
function opt<T extends Command>(value: T): T {
  for (const k of Object.keys(value) as (keyof T)[]) {
    if (value[k] === undefined) delete value[k];
  }
  return value;
}

function indexType(value: string, el: Element, s: ElementSpec): IndexType {
  const t = value.toLowerCase();
  if (!(INDEX_TYPES as readonly string[]).includes(t)) throw syntaxError(el, s);
  return t as IndexType;
}

const ELEMENTS: Readonly<Record<string, ElementSpec>> = {
  add: spec([], ['path'], (a, c) => opt({ kind: 'add', path: a.path, input: c! }), input('input')),
  'alter-backup': spec(['name', 'newname'], [], (a) => ({
    kind: 'alterBackup',
    name: get(a, 'name'),
    newName: get(a, 'newname'),
  })),
  'alter-db': spec(['name', 'newname'], [], (a) => ({ kind: 'alterDb', name: get(a, 'name'), newName: get(a, 'newname') })),
  'alter-password': spec(
    ['name'],
    [],
    (a, c) => opt({ kind: 'alterPassword', name: get(a, 'name'), password: c }),
    text('password', true),
  ),
  'alter-user': spec(['name', 'newname'], [], (a) => ({
    kind: 'alterUser',
    name: get(a, 'name'),
    newName: get(a, 'newname'),
  })),
  'binary-get': spec(['path'], [], (a) => ({ kind: 'binaryGet', path: get(a, 'path') })),
  'binary-put': spec([], ['path'], (a, c) => opt({ kind: 'binaryPut', path: a.path, input: c! }), input('input')),
  check: spec(['input'], [], (a) => ({ kind: 'check', input: get(a, 'input') })),
  close: spec([], [], () => ({ kind: 'close' })),
  copy: spec(['name', 'newname'], [], (a) => ({ kind: 'copy', name: get(a, 'name'), newName: get(a, 'newname') })),
  'create-backup': spec([], ['name'], (a) => opt({ kind: 'createBackup', pattern: a.name })),
  'create-db': spec(['name'], [], (a, c) => opt({ kind: 'createDb', name: get(a, 'name'), input: c }), input('input', true)),
  'create-index': spec(['type'], [], (a, _c, el) => ({
    kind: 'createIndex',
    type: indexType(get(a, 'type'), el, ELEMENTS['create-index']),
  })),
  'create-user': spec(
    ['name'],
    [],
    (a, c) => opt({ kind: 'createUser', name: get(a, 'name'), password: c }),
    text('password', true),
  ),
  delete: spec(['path'], [], (a) => ({ kind: 'delete', path: get(a, 'path') })),
  dir: spec([], ['path'], (a) => opt({ kind: 'dir', path: a.path })),
  'drop-backup': spec(['name'], [], (a) => ({ kind: 'dropBackup', pattern: get(a, 'name') })),
  'drop-db': spec(['name'], [], (a) => ({ kind: 'dropDb', pattern: get(a, 'name') })),
  'drop-index': spec(['type'], [], (a, _c, el) => ({
    kind: 'dropIndex',
    type: indexType(get(a, 'type'), el, ELEMENTS['drop-index']),
  })),
  'drop-user': spec(['name'], ['pattern'], (a) => opt({ kind: 'dropUser', pattern: get(a, 'name'), on: a.pattern })),
  execute: spec([], [], (_a, c) => ({ kind: 'execute', script: c! }), input('input')),
  exit: spec([], [], () => ({ kind: 'exit' })),
  export: spec(['path'], [], (a) => ({ kind: 'export', path: get(a, 'path') })),
  find: spec([], [], (_a, c) => ({ kind: 'find', query: c! }), text('query')),
  flush: spec([], [], () => ({ kind: 'flush' })),
  get: spec(['path'], [], (a) => ({ kind: 'get', path: get(a, 'path') })),
  grant: spec(['name', 'permission'], ['pattern'], (a) => {
    const permission = parsePermission(get(a, 'permission'));
    if (permission === undefined) throw commandError('PERM_UNKNOWN_X', get(a, 'permission'));
    return opt({ kind: 'grant', permission, user: get(a, 'name'), on: a.pattern });
  }),
  help: spec([], [], (_a, c) => opt({ kind: 'help', command: c }), text('command', true)),
  info: spec([], [], () => ({ kind: 'info' })),
  'info-db': spec([], [], () => ({ kind: 'infoDb' })),
  'info-index': spec([], ['type'], (a, _c, el) => {
    const t = a.type?.toLowerCase();
    if (t !== undefined && !(INFO_INDEX_TYPES as readonly string[]).includes(t)) {
      throw syntaxError(el, ELEMENTS['info-index']);
    }
    return opt({ kind: 'infoIndex', type: t as InfoIndexType | undefined });
  }),
  'info-storage': spec([], ['start', 'end'], (a) => opt({ kind: 'infoStorage', start: a.start, end: a.end })),
  inspect: spec([], [], () => ({ kind: 'inspect' })),
  'jobs-list': spec([], [], () => ({ kind: 'jobsList' })),
  'jobs-result': spec(['id'], [], (a) => ({ kind: 'jobsResult', id: get(a, 'id') })),
  'jobs-stop': spec(['id'], [], (a) => ({ kind: 'jobsStop', id: get(a, 'id') })),
  kill: spec(['target'], [], (a) => ({ kind: 'kill', target: get(a, 'target') })),
  list: spec([], ['name', 'path'], (a) => opt({ kind: 'list', name: a.name, path: a.path })),
  open: spec(['name'], ['path'], (a) => opt({ kind: 'open', name: get(a, 'name'), path: a.path })),
  optimize: spec([], [], () => ({ kind: 'optimize', all: false })),
  'optimize-all': spec([], [], () => ({ kind: 'optimize', all: true })),
  password: spec([], [], (_a, c) => opt({ kind: 'password', password: c }), text('password', true)),
  put: spec(['path'], [], (a, c) => ({ kind: 'put', path: get(a, 'path'), input: c! }), input('input')),
  quit: spec([], [], () => ({ kind: 'exit' })),
  rename: spec(['path', 'newpath'], [], (a) => ({ kind: 'rename', path: get(a, 'path'), newPath: get(a, 'newpath') })),
  replace: spec(['path'], [], (a, c) => ({ kind: 'put', path: get(a, 'path'), input: c! }), input('input')),
  'repo-delete': spec(['name'], [], (a) => ({ kind: 'repoDelete', name: get(a, 'name') })),
  'repo-install': spec(['path'], [], (a) => ({ kind: 'repoInstall', path: get(a, 'path') })),
  'repo-list': spec([], [], () => ({ kind: 'repoList' })),
  restore: spec([], ['name'], (a) => opt({ kind: 'restore', name: a.name })),
  retrieve: spec(['path'], [], (a) => ({ kind: 'binaryGet', path: get(a, 'path') })),
  run: spec(['file'], [], (a) => ({ kind: 'run', file: get(a, 'file') })),
  set: spec(['option'], [], (a, c) => opt({ kind: 'set', option: get(a, 'option'), value: c }), text('value', true)),
  'show-backups': spec([], [], () => ({ kind: 'showBackups' })),
  'show-options': spec([], ['name'], (a) => opt({ kind: 'showOptions', name: a.name })),
  'show-sessions': spec([], [], () => ({ kind: 'showSessions' })),
  'show-users': spec([], ['database'], (a) => opt({ kind: 'showUsers', database: a.database })),
  store: spec([], ['path'], (a, c) => opt({ kind: 'binaryPut', path: a.path, input: c! }), input('input')),
  test: spec(['path'], [], (a) => ({ kind: 'test', path: get(a, 'path') })),
  xquery: spec([], [], (_a, c) => ({ kind: 'xquery', query: c! }), text('query')),
};

/** Element names of the XML syntax. */
export const XML_COMMANDS: readonly string[] = Object.keys(ELEMENTS);

/** The expected shape of an element, e.g. `<add (path="...")>[input]</add>`. */
export function elementSyntax(name: string): string | undefined {
  const s = Object.prototype.hasOwnProperty.call(ELEMENTS, name) ? ELEMENTS[name] : undefined;
  return s === undefined ? undefined : syntaxOf(name, s);
}

function syntaxOf(name: string, s: ElementSpec): string {
  let out = `<${name}`;
  for (const r of s.required) out += ` ${r}="..."`;
  for (const o of s.optional) out += ` (${o}="...")`;
  if (s.content === undefined) return `${out}/>`;
  const label = `[${s.content.label}]`;
  return `${out}>${s.content.optional ? `(${label})` : label}</${name}>`;
}

function syntaxError(el: Element, s: ElementSpec) {
  return commandError('SYNTAX_X', syntaxOf(displayName(el), s));
}

/** Blank text, comments and processing instructions carry no content. */
function isContent(n: Node): boolean {
  if (isElement(n)) return true;
  return isText(n) && (n.nodeValue ?? '').trim() !== '';
}

/** Parses the "Command" rule of the XML syntax: one command element. */
function parseCommandElement(el: Element): Command {
  const name = displayName(el);
  const s = namespaceOf(el) === '' && Object.prototype.hasOwnProperty.call(ELEMENTS, name) ? ELEMENTS[name] : undefined;
  if (s === undefined) throw commandError('UNKNOWN_CMD_X', `<${name}/>`);

  const attrs: Record<string, string> = {};
  for (const a of Array.from(el.attributes)) {
    if (a.name === 'xmlns' || a.name.startsWith('xmlns:')) continue;
    const an = namespaceOf(a) === '' ? a.localName : a.name;
    if (!s.required.includes(an) && !s.optional.includes(an)) throw syntaxError(el, s);
    const value = a.value.trim();
    if (value === '') throw syntaxError(el, s);
    attrs[an] = value;
  }
  for (const r of s.required) if (attrs[r] === undefined) throw syntaxError(el, s);

  const nodes = childNodes(el);
  const hasElements = nodes.some(isElement);
  let content: string | undefined;
  if (s.content === undefined) {
    if (nodes.some(isContent)) throw syntaxError(el, s);
  } else {
    if (s.content.mode === 'text' && hasElements) throw syntaxError(el, s);
    // Input with child elements is XML: all child nodes, written back as text. Otherwise the
    // string value is taken as it is (a query, a password, a file path, plain text input).
    const raw = hasElements ? serializeNodes(nodes) : stringValue(el);
    content = raw.trim() === '' ? undefined : raw.trim();
    if (content === undefined && !s.content.optional) throw syntaxError(el, s);
  }
  return s.build(attrs, content, el);
}

/**
 * Parses a script in XML syntax: a `<commands>` root with one element per command (no text
 * directly inside it), or a single command element.
 */
export function parseXmlCommands(text: string): Command[] {
  const doc = parseXmlDocument(text);
  const root = childElements(doc)[0];
  if (namespaceOf(root) === '' && root.localName === 'commands') {
    if (childNodes(root).some((n) => isText(n) && (n.nodeValue ?? '').trim() !== '')) {
      throw commandError('SYNTAX_X', '<commands><...></commands>');
    }
    return childElements(root).map(parseCommandElement);
  }
  return [parseCommandElement(root)];
}
