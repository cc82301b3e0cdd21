/**
 * POST bodies (spec §7): the root element's local name selects the operation; `text`,
 * `parameter`, `option`, `variable` and `context` children configure it.
 */
import { checkXmlLimits } from '../convert';
import { raise } from '../xmldb-error';
import { normaliseOptions, type OptionValue } from '../store/database-options';
import { xmlParserMessage } from '../xquery/query-error';
import { isSerializationParam, requireValidSerializationParam } from '../xquery/serialization/params';
import { optionEntry, type Variable } from './parameters';
import { offload } from '../threads/offload';
import { HTTP_ERRORS } from './status';
import { childElements, parseToDom, REST_NS, serializeNodes } from '../xml';

export type PostOperation =
  | { readonly kind: 'commands'; readonly script: string }
  | {
      readonly kind: 'query' | 'run' | 'command';
      readonly text: string;
      readonly serialization: Readonly<Record<string, string>>;
      readonly options: ReadonlyMap<string, OptionValue>;
      readonly variables: ReadonlyMap<string, Variable>;
      readonly context: readonly string[];
    };

const OPERATIONS = ['commands', 'query', 'run', 'command'];

function firstText(el: Element): string | undefined {
  for (const c of Array.from(el.childNodes)) {
    if (c.nodeType === 3 || c.nodeType === 4) return c.nodeValue ?? '';
  }
  return undefined;
}

function attribute(el: Element, name: string): string {
  return el.getAttribute(name) ?? '';
}

/**
 * The context document given in a `context` element: its single child element, with the
 * comments and processing instructions around it (they belong to the document), or its text.
 */
function contextDocument(el: Element): string | undefined {
  const elements = childElements(el);
  if (elements.length > 1) throw raise(HTTP_ERRORS, 'MULTIPLE_CONTEXTS');
  if (elements.length === 1) return serializeNodes(Array.from(el.childNodes).filter((n) => n.nodeType !== 3 && n.nodeType !== 4), REST_NS, true);
  const text = el.textContent ?? '';
  return text.trim() === '' ? undefined : text;
}

/** Parses a POST body (UTF-8): a large one off the request thread (threads/offload.ts). */
export function parsePostRequest(body: Buffer): Promise<PostOperation> {
  const text = body.toString('utf8');
  return offload(body.length, __filename, 'parsePostBody', [text], () => parsePostBody(text));
}

export function parsePostBody(body: string): PostOperation {
  if (body.trim() === '') throw raise(HTTP_ERRORS, 'POST_NOT_XML_X', 'the body is empty.');
  checkXmlLimits(body);
  let doc: Document;
  try {
    doc = parseToDom(body);
  } catch (e) {
    // XML cannot start with `{` or `[`: such a body is JSON, sent by a client guessing the format
    if (/^\s*[{[]/.test(body)) throw raise(HTTP_ERRORS, 'POST_JSON');
    throw raise(HTTP_ERRORS, 'POST_NOT_XML_X', xmlParserMessage((e as Error).message));
  }
  const root = doc.documentElement;
  const kind = root.localName;
  if (!OPERATIONS.includes(kind)) throw raise(HTTP_ERRORS, 'INVALID_POST_X', kind);
  if (kind === 'commands') return { kind, script: serializeNodes([root], REST_NS) };

  let text: string | undefined;
  const serialization: Record<string, string> = {};
  const options = new Map<string, OptionValue>();
  const variables = new Map<string, Variable>();
  const context: string[] = [];
  for (const child of childElements(root)) {
    switch (child.localName) {
      case 'text':
        text ??= firstText(child) ?? '';
        break;
      case 'parameter': {
        const name = attribute(child, 'name');
        if (!isSerializationParam(name)) throw raise(HTTP_ERRORS, 'UNKNOWN_PARAM_X', name);
        requireValidSerializationParam(name, attribute(child, 'value'));
        serialization[name] = attribute(child, 'value');
        break;
      }
      case 'option': {
        const option = optionEntry(attribute(child, 'name'), attribute(child, 'value'));
        if (option === undefined) throw raise(HTTP_ERRORS, 'UNKNOWN_PARAM_X', attribute(child, 'name'));
        options.set(...option);
        break;
      }
      case 'variable': {
        const raw = attribute(child, 'name');
        const name = raw.startsWith('$') ? raw.slice(1) : raw;
        // no `type` attribute: the value is cast to the variable's declared type, as for GET (spec §9.1)
        const type = child.getAttribute('type') || undefined;
        const previous = variables.get(name);
        variables.set(name, { values: [...(previous?.values ?? []), attribute(child, 'value')], type: type ?? previous?.type });
        break;
      }
      case 'context': {
        if (context.length > 0) throw raise(HTTP_ERRORS, 'MULTIPLE_CONTEXTS');
        const document = contextDocument(child);
        if (document !== undefined) context.push(document);
        break;
      }
      default:
        break;
    }
  }
  if (text === undefined) throw raise(HTTP_ERRORS, 'POST_NO_TEXT_X', kind);
  return { kind: kind as 'query' | 'run' | 'command', text, serialization, options: normaliseOptions(options), variables, context };
}
