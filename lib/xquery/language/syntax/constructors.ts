/**
 * Node constructors. Direct constructors (`<a …>…</a>`, `<!--…-->`, `<?t …?>`) are scanned
 * character by character in the element-content and attribute-value modes; enclosed expressions
 * hand control back to the default mode. Computed constructors are ordinary token grammar.
 */
import type {
  AttributeValueChars,
  DirAttribute,
  DirCommentConstructor,
  DirElemConstructor,
  DirElemContent,
  DirNamespaceDecl,
  DirPIConstructor,
  EnclosedExpr,
  EQName,
  Expr,
} from './ast';
import { parseExpr } from './expressions';
import { codeAt, isLexError, isNameStartChar, isWhitespace, isXmlChar, normalizeEol, scanNCName, scanReference } from './lexer';
import type { Parser } from './parser';
import { parseEnclosedExpr } from './primary';
import { normalizeUriLiteral, uriLiteralProblem } from './uri-literals';

// ------------------------------------------------------------------ computed constructors

/** Is the cursor at `document {`, `element N {`, `attribute {`, `namespace p {`, …? */
export function startsComputedConstructor(p: Parser): boolean {
  if (!p.isNCName()) return false;
  switch (p.peek().value) {
    case 'document':
    case 'text':
    case 'comment':
      return p.isSym('{', 1);
    case 'element':
    case 'attribute':
      return p.isSym('{', 1) || (p.isName(1) && p.isSym('{', 2));
    case 'namespace':
    case 'processing-instruction':
      return p.isSym('{', 1) || (p.isNCName(1) && p.isSym('{', 2));
    default:
      return false;
  }
}

/** "{" Expr "}" where the expression is required (computed names). */
function parseNameExpr(p: Parser): Expr {
  p.expect('{');
  const expr = parseExpr(p);
  p.expect('}');
  return expr;
}

/** CompDocConstructor | CompElemConstructor | CompAttrConstructor | CompNamespaceConstructor | CompTextConstructor | CompCommentConstructor | CompPIConstructor */
export function parseComputedConstructor(p: Parser): Expr {
  const t = p.next();
  const start = t.start;
  switch (t.value) {
    case 'document': {
      const expr = parseEnclosedExpr(p).expr;
      return { kind: 'CompDocConstructor', start, end: p.pos, expr };
    }
    case 'text': {
      const expr = parseEnclosedExpr(p).expr;
      return { kind: 'CompTextConstructor', start, end: p.pos, expr };
    }
    case 'comment': {
      const expr = parseEnclosedExpr(p).expr;
      return { kind: 'CompCommentConstructor', start, end: p.pos, expr };
    }
    case 'element':
    case 'attribute': {
      let name: EQName | null = null;
      let nameExpr: Expr | null = null;
      if (p.isSym('{')) nameExpr = parseNameExpr(p);
      else name = p.expectEQName();
      const content = parseEnclosedExpr(p).expr;
      return t.value === 'element'
        ? { kind: 'CompElemConstructor', start, end: p.pos, name, nameExpr, content }
        : { kind: 'CompAttrConstructor', start, end: p.pos, name, nameExpr, value: content };
    }
    case 'namespace': {
      let prefix: string | null = null;
      let prefixExpr: Expr | null = null;
      if (p.isSym('{')) prefixExpr = parseNameExpr(p);
      else prefix = p.expectNCName();
      const uri = parseEnclosedExpr(p).expr;
      return { kind: 'CompNamespaceConstructor', start, end: p.pos, prefix, prefixExpr, uri };
    }
    case 'processing-instruction': {
      let target: string | null = null;
      let targetExpr: Expr | null = null;
      if (p.isSym('{')) targetExpr = parseNameExpr(p);
      else target = p.expectNCName();
      const value = parseEnclosedExpr(p).expr;
      return { kind: 'CompPIConstructor', start, end: p.pos, target, targetExpr, value };
    }
  }
  return p.unexpected(t, 'a computed constructor');
}

// ------------------------------------------------------------------ direct constructors

/** DirectConstructor ::= DirElemConstructor | DirCommentConstructor | DirPIConstructor (cursor at "<") */
export function parseDirectConstructor(p: Parser): Expr {
  const start = p.peek().start;
  const src = p.src;
  let r: { node: Expr; end: number };
  if (src.startsWith('<!--', start)) r = parseDirCommentConstructor(p, start);
  else if (src.startsWith('<?', start)) r = parseDirPIConstructor(p, start);
  else if (isNameStartChar(codeAt(src, start + 1))) r = parseDirElemConstructor(p, start);
  else return p.error('Expected an element name, "!--" or "?" after "<"', start + 1);
  p.reset(r.end);
  return r.node;
}

/** A QName in a tag (no URIQualifiedName). Returns the name and its end offset. */
function scanTagName(p: Parser, i: number): { name: EQName; raw: string; end: number } {
  const src = p.src;
  const end1 = scanNCName(src, i);
  if (end1 === i) p.error('Expected a name', i);
  if (src[end1] === ':') {
    const end2 = scanNCName(src, end1 + 1);
    if (end2 === end1 + 1) p.error('Expected a local name after ":"', end1 + 1);
    return { name: { prefix: src.slice(i, end1), local: src.slice(end1 + 1, end2) }, raw: src.slice(i, end2), end: end2 };
  }
  return { name: { local: src.slice(i, end1) }, raw: src.slice(i, end1), end: end1 };
}

function skipSpace(src: string, i: number): number {
  while (isWhitespace(src.charCodeAt(i))) i++;
  return i;
}

/** A reference inside constructor content; returns the resolved text and end. */
function reference(p: Parser, i: number): { value: string; end: number } {
  const r = scanReference(p.src, i);
  if (isLexError(r)) return p.error(r.message, r.offset, r.code);
  return r;
}

function checkChar(p: Parser, i: number): number {
  const c = codeAt(p.src, i);
  if (!isXmlChar(c)) p.error('Invalid XML character', i);
  return c > 0xffff ? 2 : 1;
}

/** DirElemConstructor ::= "<" QName DirAttributeList ("/>" | (">" DirElemContent* "</" QName S? ">")) */
function parseDirElemConstructor(p: Parser, start: number): { node: DirElemConstructor; end: number } {
  return p.nested(start, () => parseDirElemConstructorNested(p, start));
}

function parseDirElemConstructorNested(p: Parser, start: number): { node: DirElemConstructor; end: number } {
  const src = p.src;
  const tag = scanTagName(p, start + 1);
  let i = tag.end;
  const attributes: DirAttribute[] = [];
  const namespaces: DirNamespaceDecl[] = [];
  for (;;) {
    const wsStart = i;
    i = skipSpace(src, i);
    if (src.startsWith('/>', i)) {
      const node: DirElemConstructor = { kind: 'DirElemConstructor', start, end: i + 2, name: tag.name, attributes, namespaces, content: [] };
      return { node, end: i + 2 };
    }
    if (src[i] === '>') {
      i++;
      break;
    }
    if (i >= src.length) p.error(`Unterminated start tag "${tag.raw}"`, start);
    if (i === wsStart || !isNameStartChar(codeAt(src, i))) p.error(`Unexpected "${src[i]}" in start tag, expected whitespace, ">" or "/>"`, i);
    const attr = parseDirAttribute(p, i);
    i = attr.end;
    const n = attr.node.name;
    if ((n.prefix === undefined && n.local === 'xmlns') || n.prefix === 'xmlns') {
      const enclosed = attr.node.value.find((v) => v.kind === 'EnclosedExpr');
      if (enclosed) p.error('A namespace declaration attribute must not contain an enclosed expression', enclosed.start, 'XQST0022');
      // read as a URILiteral (XQuery 3.1 §3.9.1.2): normalized and checked (uri-literals.ts)
      const uri = normalizeUriLiteral(attr.node.value.map((v) => (v as AttributeValueChars).value).join(''));
      const problem = uriLiteralProblem(uri);
      if (problem) p.error(problem, attr.node.start, 'XQST0046');
      namespaces.push({ kind: 'DirNamespaceDecl', start: attr.node.start, end: attr.node.end, prefix: n.prefix === undefined ? null : n.local, uri });
    } else {
      attributes.push(attr.node);
    }
  }
  const content = parseDirElemContent(p, i, tag.raw);
  const node: DirElemConstructor = { kind: 'DirElemConstructor', start, end: content.end, name: tag.name, attributes, namespaces, content: content.items };
  return { node, end: content.end };
}

/** DirAttribute ::= QName S? "=" S? DirAttributeValue */
function parseDirAttribute(p: Parser, start: number): { node: DirAttribute; end: number } {
  const src = p.src;
  const name = scanTagName(p, start);
  let i = skipSpace(src, name.end);
  if (src[i] !== '=') p.error(`Expected "=" after attribute name "${name.raw}"`, i);
  i = skipSpace(src, i + 1);
  const q = src[i];
  if (q !== '"' && q !== "'") p.error('Expected a quoted attribute value', i);
  i++;
  const value: DirAttribute['value'] = [];
  let buf = '';
  let bufStart = i;
  const flush = (end: number) => {
    if (buf !== '') value.push({ kind: 'AttributeValueChars', start: bufStart, end, value: buf });
    buf = '';
  };
  for (;;) {
    if (i >= src.length) p.error('Unterminated attribute value', start);
    const c = src[i];
    if (c === q) {
      if (src[i + 1] === q) {
        buf += q;
        i += 2;
        continue;
      }
      flush(i);
      i++;
      break;
    }
    if (c === '{' || c === '}') {
      if (src[i + 1] === c) {
        buf += c;
        i += 2;
        continue;
      }
      if (c === '}') p.error('Unexpected "}" in attribute value (write "}}")', i);
      flush(i);
      p.reset(i);
      value.push(parseEnclosedExpr(p));
      i = bufStart = p.pos;
      continue;
    }
    if (c === '<') p.error('Unexpected "<" in attribute value', i);
    if (c === '&') {
      const r = reference(p, i);
      buf += r.value;
      i = r.end;
    } else if (c === '\r') {
      buf += ' ';
      i += src[i + 1] === '\n' ? 2 : 1;
    } else if (c === '\n' || c === '\t') {
      buf += ' ';
      i++;
    } else {
      const len = checkChar(p, i);
      buf += src.slice(i, i + len);
      i += len;
    }
  }
  return { node: { kind: 'DirAttribute', start, end: i, name: name.name, value }, end: i };
}

/** DirElemContent* up to and including the end tag. */
function parseDirElemContent(p: Parser, i: number, tagName: string): { items: DirElemContent[]; end: number } {
  const src = p.src;
  const items: DirElemContent[] = [];
  let buf = '';
  let bufStart = i;
  let hasRef = false;
  // Boundary whitespace is delimited only by tags, direct constructors and enclosed
  // expressions; whitespace next to a CDATA section is ordinary text.
  let afterCData = false;
  const flush = (end: number, beforeCData = false) => {
    if (end > bufStart) {
      const boundaryWhitespace = !hasRef && !afterCData && !beforeCData && /^[ \t\n]*$/.test(buf);
      items.push({ kind: 'DirText', start: bufStart, end, value: buf, boundaryWhitespace });
    }
    buf = '';
    hasRef = false;
    afterCData = false;
  };
  for (;;) {
    if (i >= src.length) p.error(`Missing end tag "</${tagName}>"`, i);
    const c = src[i];
    if (c === '<') {
      const cdata = src.startsWith('<![CDATA[', i);
      flush(i, cdata);
      let r: { node: DirElemContent; end: number };
      if (src.startsWith('</', i)) {
        const end = scanTagName(p, i + 2);
        if (end.raw !== tagName) p.error(`End tag "</${end.raw}>" does not match start tag "<${tagName}>"`, i + 2, 'XQST0118');
        const j = skipSpace(src, end.end);
        if (src[j] !== '>') p.error('Expected ">" to close the end tag', j);
        return { items, end: j + 1 };
      } else if (src.startsWith('<!--', i)) {
        r = parseDirCommentConstructor(p, i);
      } else if (src.startsWith('<![CDATA[', i)) {
        const close = src.indexOf(']]>', i + 9);
        if (close < 0) p.error('Unterminated CDATA section', i);
        for (let k = i + 9; k < close; ) k += checkChar(p, k);
        r = { node: { kind: 'CDataSection', start: i, end: close + 3, value: normalizeEol(src.slice(i + 9, close)) }, end: close + 3 };
      } else if (src.startsWith('<?', i)) {
        r = parseDirPIConstructor(p, i);
      } else if (isNameStartChar(codeAt(src, i + 1))) {
        r = parseDirElemConstructor(p, i);
      } else {
        return p.error('Unexpected "<" in element content', i);
      }
      items.push(r.node);
      afterCData = cdata;
      i = bufStart = r.end;
      continue;
    }
    if (c === '{' || c === '}') {
      if (src[i + 1] === c) {
        buf += c;
        i += 2;
        hasRef = true; // an escaped brace is not whitespace
        continue;
      }
      if (c === '}') p.error('Unexpected "}" in element content (write "}}")', i);
      flush(i);
      p.reset(i);
      items.push(parseEnclosedExpr(p) as EnclosedExpr);
      i = bufStart = p.pos;
      continue;
    }
    if (c === '&') {
      const r = reference(p, i);
      buf += r.value;
      hasRef = true;
      i = r.end;
    } else if (c === '\r') {
      buf += '\n';
      i += src[i + 1] === '\n' ? 2 : 1;
    } else {
      const len = checkChar(p, i);
      buf += src.slice(i, i + len);
      i += len;
    }
  }
}

/** DirCommentConstructor ::= "<!--" DirCommentContents "-->" */
function parseDirCommentConstructor(p: Parser, start: number): { node: DirCommentConstructor; end: number } {
  const src = p.src;
  const dashes = src.indexOf('--', start + 4);
  if (dashes < 0) p.error('Unterminated comment constructor', start);
  if (src[dashes + 2] !== '>') p.error('"--" is not allowed in a comment constructor', dashes);
  for (let k = start + 4; k < dashes; ) k += checkChar(p, k);
  const value = normalizeEol(src.slice(start + 4, dashes));
  return { node: { kind: 'DirCommentConstructor', start, end: dashes + 3, value }, end: dashes + 3 };
}

/** DirPIConstructor ::= "<?" PITarget (S DirPIContents)? "?>" */
function parseDirPIConstructor(p: Parser, start: number): { node: DirPIConstructor; end: number } {
  const src = p.src;
  const nameEnd = scanNCName(src, start + 2);
  if (nameEnd === start + 2) p.error('Expected a processing-instruction target', start + 2);
  const target = src.slice(start + 2, nameEnd);
  if (src[nameEnd] === ':') p.error('A processing-instruction target must not contain ":"', nameEnd);
  if (target.toLowerCase() === 'xml') p.error('"xml" is not allowed as a processing-instruction target', start + 2);
  let value = '';
  let i = nameEnd;
  if (!src.startsWith('?>', i)) {
    if (!isWhitespace(src.charCodeAt(i))) p.error('Expected whitespace or "?>" after the processing-instruction target', i);
    i = skipSpace(src, i);
    const close = src.indexOf('?>', i);
    if (close < 0) p.error('Unterminated processing instruction', start);
    for (let k = i; k < close; ) k += checkChar(p, k);
    value = normalizeEol(src.slice(i, close));
    i = close;
  }
  return { node: { kind: 'DirPIConstructor', start, end: i + 2, target, value }, end: i + 2 };
}
