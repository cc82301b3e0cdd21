/**
 * The XML syntax of commands (spec §15.2): a `<commands>` root holding one element per command,
 * or a single command element on its own. Each element is checked against its spec in the
 * command table (registry.ts `ELEMENTS`): required and optional attributes (no others; values
 * must not be empty) and its content (none, text, or input that may be XML). A failed check
 * raises the element's syntax.
 */
import type { ElementSpec } from './definition';
import { commandError } from './messages';
import { ELEMENTS } from './registry';
import type { Command } from './types';
import {
  childElements,
  childNodes,
  displayName,
  isElement,
  isText,
  namespaceOf,
  parseScriptDocument,
  serializeInput,
  stringValue,
} from './xml';

/** The expected shape of an element, e.g. `<add (path="...")>[input]</add>`. */
export function elementSyntax(name: string): string | undefined {
  const s = ELEMENTS.get(name);
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
  const s = namespaceOf(el) === '' ? ELEMENTS.get(name) : undefined;
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
    const raw = hasElements ? serializeInput(nodes) : stringValue(el);
    content = raw.trim() === '' ? undefined : raw.trim();
    if (content === undefined && !s.content.optional) throw syntaxError(el, s);
  }
  return s.build(attrs, content, () => syntaxError(el, s));
}

/**
 * Parses a script in XML syntax: a `<commands>` root with one element per command (no text
 * directly inside it), or a single command element.
 */
export function parseXmlCommands(text: string): Command[] {
  const doc = parseScriptDocument(text);
  const root = childElements(doc)[0];
  if (namespaceOf(root) === '' && root.localName === 'commands') {
    if (childNodes(root).some((n) => isText(n) && (n.nodeValue ?? '').trim() !== '')) {
      throw commandError('SYNTAX_X', '<commands><...></commands>');
    }
    return childElements(root).map(parseCommandElement);
  }
  return [parseCommandElement(root)];
}
