/**
 * BaseX's Inspection Module (docs.basex.org, "Inspection Functions"), as saxon-js extension
 * functions in namespace `http://basex.org/modules/inspect` (prefix `inspect`):
 *
 *   inspect:module($uri as xs:string) as element(module)
 *   inspect:xqdoc($uri as xs:string) as element(xqdoc:xqdoc)
 *   inspect:function($function as fn(*)) as element(function)
 *
 * inspect:module and inspect:xqdoc read the module as json:doc reads its input
 * (guards/resource-guard.ts `readResourceText`): a URI without a scheme names a stored resource
 * (`db/path.xqm`), anything else a host file, readable only where the server allows its admins
 * to read files. The text is parsed by the query parser (syntax/), never run; a syntax error is
 * reported with its code. Declarations are described with their xqDoc comments (`(:~ … :)`
 * right before them; http://xqdoc.org/xqdoc_comments_doc.html): the text before the first tag is
 * the description, `@param name text` documents an argument, `@return` the result, other tags
 * (`@author`, `@version`, `@see`, …) become elements of their name. Types are shown as written.
 * inspect:xqdoc's `control/date` is the time of the call.
 *
 * inspect:function knows of a function item what the engine keeps at run time: its name, the
 * namespace URI and the arity (one `argument` each), not declared types.
 *
 *   inspect:functions() as function(*)*
 *   inspect:functions($uri as xs:string) as function(*)*
 *   inspect:context() as element(context)
 *
 * inspect:functions() is translated to the items of the functions the query declares
 * (translate/inspect-calls.ts). With a URI, BaseX compiles the module there; a query here may
 * import no module (`import module` is XQST0059), so no URI names one it may use: XQST0059 as
 * well. inspect:context() describes the query's variables, then its functions, as inspect:module
 * describes a module's (BaseX), in an element `context`: the translation passes the query's text
 * (`engine:inspect-context($query as xs:string)`), which is parsed here again.
 */
import { registerFunctions, xpathError, type XdmFunction, type XdmValue } from '../../saxon';
import { escapeAttribute, escapeText } from '../../xml/escape';
import { ENGINE_NS, PREDECLARED, PREDECLARED_PREFIXES } from '../constants';
import { STATIC_ERRORS } from '../static-errors';
import { readResourceText } from '../worker/guards/resource-guard';
import { MODULE_NAMESPACES } from '../module-namespaces';
import { elementFromXml } from './support/elements';
import type { Annotation, EQName, FunctionDecl, Module, Span, VarDecl } from '../language/syntax';
import { XQuerySyntaxError } from '../language/syntax/syntax-errors';
import { translator } from './support/translator';

const XQDOC_NS = 'http://www.xqdoc.org/1.0';
/** The namespace of annotations written without a prefix (XQuery 3.1 §4.15). */
const ANNOTATION_NS = 'http://www.w3.org/2012/xquery';

/** An xqDoc comment: its description and its tags in order. */
interface XqDoc {
  readonly description: string;
  readonly tags: readonly { readonly name: string; readonly text: string }[];
}

const NO_DOC: XqDoc = { description: '', tags: [] };

/** The xqDoc comment that ends right before `start` (only whitespace between). */
function docBefore(text: string, start: number): XqDoc {
  const before = text.slice(0, start).trimEnd();
  if (!before.endsWith(':)')) return NO_DOC;
  const open = before.lastIndexOf('(:~');
  if (open < 0) return NO_DOC;
  const body = before
    .slice(open + 3, -2)
    .split('\n')
    .map((line) => line.replace(/^\s*:?\s?/, '').trimEnd())
    .join('\n');
  const parts = body.split(/^@(?=\w)/m);
  const tags = parts.slice(1).map((part) => {
    const m = /^(\w+)\s*([\s\S]*)$/.exec(part)!;
    return { name: m[1], text: m[2].trim() };
  });
  return { description: parts[0].trim(), tags };
}

/** The namespace URIs of names in the module: a variable's without a prefix is none, a function's the default function namespace. */
interface Names {
  variable(prefix: string | undefined): string;
  function(prefix: string | undefined): string;
}

function namesOf(m: Module): Names {
  const ns = new Map<string, string>(PREDECLARED_PREFIXES);
  if (m.kind === 'LibraryModule') ns.set(m.moduleDecl.prefix, m.moduleDecl.uri);
  let functionNs = PREDECLARED.fn;
  for (const d of m.prolog.decls) {
    if (d.kind === 'NamespaceDecl') ns.set(d.prefix, d.uri);
    else if (d.kind === 'ModuleImport' && d.prefix) ns.set(d.prefix, d.uri);
    else if (d.kind === 'DefaultNamespaceDecl' && d.target === 'function') functionNs = d.uri;
  }
  const uri = (prefix: string) => ns.get(prefix) ?? '';
  return { variable: (prefix) => (prefix ? uri(prefix) : ''), function: (prefix) => (prefix ? uri(prefix) : functionNs) };
}

const lexical = (n: EQName): string => (n.uri !== undefined ? `Q{${n.uri}}${n.local}` : n.prefix ? `${n.prefix}:${n.local}` : n.local);
/** A type as written in the module. */
const source = (text: string, span: Span): string => text.slice(span.start, span.end).trim();
const attr = (name: string, value: string): string => ` ${name}="${escapeAttribute(value)}"`;
const el = (name: string, content: string, attrs = ''): string => `<${name}${attrs}>${content}</${name}>`;

function annotationUri(a: Annotation, names: Names): string {
  return a.name.uri ?? (a.name.prefix ? names.variable(a.name.prefix) : ANNOTATION_NS);
}

const LITERAL_TYPES = { StringLiteral: 'xs:string', IntegerLiteral: 'xs:integer', DecimalLiteral: 'xs:decimal', DoubleLiteral: 'xs:double' } as const;

function annotationXml(a: Annotation, names: Names): string {
  const literals = a.values.map((v) => el('literal', escapeText(v.value), attr('type', LITERAL_TYPES[v.kind]))).join('');
  return el('annotation', literals, attr('name', lexical(a.name)) + attr('uri', annotationUri(a, names)));
}

/** The tags of a comment other than @param and @return, as elements. */
function tagsXml(doc: XqDoc): string {
  const description = doc.description ? el('description', escapeText(doc.description)) : '';
  const tags = doc.tags.filter((t) => t.name !== 'param' && t.name !== 'return').map((t) => el(t.name, escapeText(t.text)));
  return description + tags.join('');
}

function paramText(doc: XqDoc, name: string): string {
  const tag = doc.tags.find((t) => t.name === 'param' && (t.text.startsWith(`$${name}`) || t.text.split(/\s/)[0] === name));
  return tag ? tag.text.replace(/^\$?\S+\s*/, '') : '';
}

// ------------------------------------------------------------------------------ inspect:module

function variableXml(text: string, d: VarDecl, names: Names): string {
  const doc = docBefore(text, d.start);
  const type = d.type ? attr('type', source(text, d.type)) : '';
  const attrs = attr('name', lexical(d.name)) + attr('uri', d.name.uri ?? names.variable(d.name.prefix)) + type + attr('external', String(d.external));
  return el('variable', d.annotations.map((a) => annotationXml(a, names)).join('') + tagsXml(doc), attrs);
}

function functionXml(text: string, d: FunctionDecl, names: Names): string {
  const doc = docBefore(text, d.start);
  const args = d.params
    .map((p) => el('argument', escapeText(paramText(doc, p.name.local)), attr('name', p.name.local) + (p.type ? attr('type', source(text, p.type)) : '')))
    .join('');
  const ret = doc.tags.find((t) => t.name === 'return');
  const returnXml = d.returnType || ret ? el('return', escapeText(ret?.text ?? ''), d.returnType ? attr('type', source(text, d.returnType)) : '') : '';
  const attrs = attr('name', lexical(d.name)) + attr('uri', d.name.uri ?? names.function(d.name.prefix)) + attr('external', String(d.body === null));
  return el('function', args + d.annotations.map((a) => annotationXml(a, names)).join('') + tagsXml(doc) + returnXml, attrs);
}

function moduleXml(text: string, m: Module): string {
  const names = namesOf(m);
  const doc = m.kind === 'LibraryModule' ? docBefore(text, m.moduleDecl.start) : NO_DOC;
  const attrs = m.kind === 'LibraryModule' ? attr('prefix', m.moduleDecl.prefix) + attr('uri', m.moduleDecl.uri) : '';
  const decls = m.prolog.decls
    .map((d) => (d.kind === 'VarDecl' ? variableXml(text, d, names) : d.kind === 'FunctionDecl' ? functionXml(text, d, names) : ''))
    .join('');
  return el('module', tagsXml(doc) + decls, attrs);
}

/** inspect:context(): the module's variables, then its functions. */
function contextXml(text: string, m: Module): string {
  const names = namesOf(m);
  const variables = m.prolog.decls.flatMap((d) => (d.kind === 'VarDecl' ? [variableXml(text, d, names)] : []));
  const functions = m.prolog.decls.flatMap((d) => (d.kind === 'FunctionDecl' ? [functionXml(text, d, names)] : []));
  return el('context', variables.join('') + functions.join(''));
}

// ------------------------------------------------------------------------------ inspect:xqdoc

function xqdocComment(doc: XqDoc): string {
  if (!doc.description && doc.tags.length === 0) return '';
  const tags = doc.tags.map((t) => el(`xqdoc:${t.name}`, escapeText(t.text))).join('');
  return el('xqdoc:comment', (doc.description ? el('xqdoc:description', escapeText(doc.description)) : '') + tags);
}

function signature(text: string, d: FunctionDecl): string {
  const body = d.body ? text.slice(d.start, d.body.start) : text.slice(d.start, d.end);
  return body.replace(/\s+/g, ' ').replace(/\s*external\s*;?\s*$/, '').trim();
}

function xqdocXml(text: string, m: Module, uri: string): string {
  const library = m.kind === 'LibraryModule';
  const moduleDoc = library ? docBefore(text, m.moduleDecl.start) : NO_DOC;
  const file = uri.split('/').pop() ?? uri;
  const moduleEl = el('xqdoc:module', (library ? el('xqdoc:uri', escapeText(m.moduleDecl.uri)) : '') + el('xqdoc:name', escapeText(file)) + xqdocComment(moduleDoc), attr('type', library ? 'library' : 'main'));
  const imports = m.prolog.decls
    .filter((d) => d.kind === 'ModuleImport')
    .map((d) => el('xqdoc:import', el('xqdoc:uri', escapeText(d.uri)), attr('type', 'library')))
    .join('');
  const namespaces = [
    ...(library ? [[m.moduleDecl.prefix, m.moduleDecl.uri]] : []),
    ...m.prolog.decls.filter((d) => d.kind === 'NamespaceDecl').map((d) => [d.prefix, d.uri]),
  ]
    .map(([prefix, nsUri]) => `<xqdoc:namespace${attr('prefix', prefix)}${attr('uri', nsUri)}/>`)
    .join('');
  const annotations = (list: Annotation[]): string =>
    list.length === 0 ? '' : el('xqdoc:annotations', list.map((a) => `<xqdoc:annotation${attr('name', lexical(a.name))}/>`).join(''));
  const variables = m.prolog.decls
    .filter((d): d is VarDecl => d.kind === 'VarDecl')
    .map((d) => el('xqdoc:variable', el('xqdoc:name', escapeText(lexical(d.name))) + xqdocComment(docBefore(text, d.start)) + annotations(d.annotations) + (d.type ? el('xqdoc:type', escapeText(source(text, d.type))) : '')))
    .join('');
  const functions = m.prolog.decls
    .filter((d): d is FunctionDecl => d.kind === 'FunctionDecl')
    .map((d) => {
      const params = d.params.map((p) => el('xqdoc:parameter', el('xqdoc:name', escapeText(p.name.local)) + (p.type ? el('xqdoc:type', escapeText(source(text, p.type))) : ''))).join('');
      return el(
        'xqdoc:function',
        xqdocComment(docBefore(text, d.start)) +
          el('xqdoc:name', escapeText(lexical(d.name))) +
          annotations(d.annotations) +
          el('xqdoc:signature', escapeText(signature(text, d))) +
          (params ? el('xqdoc:parameters', params) : '') +
          (d.returnType ? el('xqdoc:return', el('xqdoc:type', escapeText(source(text, d.returnType)))) : ''),
        attr('arity', String(d.params.length)),
      );
    })
    .join('');
  const control = el('xqdoc:control', el('xqdoc:date', new Date().toISOString()) + el('xqdoc:version', '1.1'));
  return el(
    'xqdoc:xqdoc',
    control + moduleEl + el('xqdoc:imports', imports) + el('xqdoc:namespaces', namespaces) + el('xqdoc:variables', variables) + el('xqdoc:functions', functions),
    attr('xmlns:xqdoc', XQDOC_NS),
  );
}

// ------------------------------------------------------------------------------ functions

function parsed(uri: string): { text: string; module: Module } {
  const text = readResourceText(uri);
  try {
    return { text, module: translator().parseModule(text) };
  } catch (e) {
    if (e instanceof XQuerySyntaxError) throw xpathError(`${uri}, ${e.line}/${e.column}: ${e.description}`, e.code);
    throw e;
  }
}

function inspectModule([uri]: XdmValue[]): XdmValue {
  const { text, module } = parsed(String(uri[0]));
  return [elementFromXml(moduleXml(text, module))];
}

function inspectXqdoc([uri]: XdmValue[]): XdmValue {
  const { text, module } = parsed(String(uri[0]));
  return [elementFromXml(xqdocXml(text, module, String(uri[0])))];
}

function inspectFunction([fn]: XdmValue[]): XdmValue {
  const f = fn[0] as XdmFunction;
  const name = f.name ? (f.name.prefix ? `${f.name.prefix}:${f.name.local}` : f.name.local) : undefined;
  const attrs = (name !== undefined ? attr('name', name) + attr('uri', f.name?.q ?? '') : '') + attr('external', 'false');
  return [elementFromXml(el('function', '<argument/>'.repeat(f.arity ?? 0), attrs))];
}

function inspectContext([query]: XdmValue[]): XdmValue {
  const text = String(query[0]);
  return [elementFromXml(contextXml(text, translator().parseModule(text)))];
}

/** inspect:functions($uri): no module may be imported (see the module comment). */
function moduleFunctions([uri]: XdmValue[]): never {
  throw xpathError(STATIC_ERRORS.XQST0059.replace('%', String(uri[0])), 'XQST0059');
}

/** Registers the inspect: functions with saxon-js (the list in extension-functions.ts, in query workers). */
export function registerInspectFunctions(): void {
  registerFunctions(MODULE_NAMESPACES.inspect, {
    module: { sig: '1F r[1N] a[1AS]', impl: inspectModule },
    xqdoc: { sig: '1F r[1N] a[1AS]', impl: inspectXqdoc },
    function: { sig: '1F r[1N] a[1F]', impl: inspectFunction },
    functions: { sig: '1F r[*F] a[1AS]', impl: moduleFunctions },
  });
  registerFunctions(ENGINE_NS, { 'inspect-context': { sig: '1F r[1N] a[1AS]', impl: inspectContext } });
}
