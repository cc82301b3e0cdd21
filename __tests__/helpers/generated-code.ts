/**
 * Reads a translation (lib/xquery/language/translate) the way saxon-js will: the stylesheet as XML, each
 * attribute as XPath, an attribute value template or names, and in the XPath the EQNames outside
 * string literals. Security tests use it to check that query data never became code.
 */
import { parseXmlInto, XMLNS_NS } from '../../lib/convert/xml-parser';
import { NodeKind, type CompactTree } from '../../lib/tree/compact-tree';
import { TreeBuilder } from '../../lib/tree/build-tree';
import type { Translation } from '../../lib/xquery/language/translate';

const XSL = 'http://www.w3.org/1999/XSL/Transform';

/** Attributes of XSLT instructions that hold an XPath expression (XSLT 3.0 §5.3). */
const XPATH = new Set(['select', 'test', 'group-by', 'group-adjacent', 'group-starting-with', 'group-ending-with', 'key', 'use-when', 'initial-value']);
/** Attributes of XSLT instructions that hold attribute value templates (XSLT 3.0 §5.6.1), by instruction. */
const AVT: Readonly<Record<string, readonly string[]>> = {
  element: ['name', 'namespace', 'inherit-namespaces'],
  attribute: ['name', 'namespace', 'separator'],
  namespace: ['name'],
  'processing-instruction': ['name'],
  'value-of': ['separator'],
  sort: ['order', 'collation', 'lang', 'data-type', 'case-order', 'stable'],
  'for-each-group': ['collation'],
};
/** Attributes of XSLT instructions that hold names, sequence types or fixed keywords. */
const NAMES = new Set(['name', 'as', 'errors', 'version', 'visibility', 'exclude-result-prefixes', 'required', 'composite', 'copy-namespaces', 'separator', 'on-empty', 'mode', 'override']);
/** Attributes of xsl:decimal-format: single characters and strings, data only. */
const DATA = new Set(['decimal-separator', 'grouping-separator', 'infinity', 'minus-sign', 'NaN', 'percent', 'per-mille', 'zero-digit', 'digit', 'pattern-separator', 'exponent-separator']);

/** An EQName in code: its URI, local part and whether it is called (`Q{u}l(` or `Q{u}l#n`). */
export interface CodeName {
  readonly uri: string;
  readonly local: string;
  readonly call: boolean;
}

/** What code a translation holds: every EQName, and the code text with literals and URIs cut out. */
export interface GeneratedCode {
  readonly names: CodeName[];
  /** Code outside string literals and braced URIs, joined. */
  readonly residue: string;
}

/** Scans XPath `text` from `i` until `stop` (a closing brace at depth 0) or the end. */
function scanXPath(text: string, i: number, out: { names: CodeName[]; residue: string[] }, stopAtBrace: boolean): number {
  let depth = 0;
  let code = '';
  while (i < text.length) {
    const c = text[i];
    if (c === '"' || c === "'") {
      let j = i + 1;
      for (;;) {
        if (j >= text.length) throw new Error(`unterminated string literal in ${text}`);
        if (text[j] === c) {
          if (text[j + 1] === c) {
            j += 2;
            continue;
          }
          break;
        }
        j++;
      }
      code += ' "" ';
      i = j + 1;
    } else if (c === 'Q' && text[i + 1] === '{' && !/[\w.-]/.test(text[i - 1] ?? '')) {
      const close = text.indexOf('}', i);
      if (close < 0) throw new Error(`unterminated braced URI in ${text}`);
      const uri = text.slice(i + 2, close);
      const local = /^(?:\*|[^\s()[\],{}!/|=<>+*?#$:;"'@]*)/u.exec(text.slice(close + 1))![0];
      const after = text.slice(close + 1 + local.length);
      out.names.push({ uri, local, call: /^\s*(\(|#[0-9])/.test(after) });
      code += ` Q${local} `;
      i = close + 1 + local.length;
    } else if (c === '(' && text[i + 1] === ':') {
      const close = text.indexOf(':)', i);
      i = close < 0 ? text.length : close + 2;
    } else if (c === '{') {
      depth++;
      code += c;
      i++;
    } else if (c === '}') {
      if (depth === 0 && stopAtBrace) break;
      depth--;
      code += c;
      i++;
    } else {
      code += c;
      i++;
    }
  }
  out.residue.push(code);
  return i;
}

/** The expressions of an attribute value template. */
function scanAVT(value: string, out: { names: CodeName[]; residue: string[] }): void {
  let i = 0;
  while (i < value.length) {
    if (value.startsWith('{{', i) || value.startsWith('}}', i)) i += 2;
    else if (value[i] === '{') {
      i = scanXPath(value, i + 1, out, true);
      if (value[i] !== '}') throw new Error(`unterminated expression in attribute value template ${value}`);
      i++;
    } else if (value[i] === '}') throw new Error(`lone "}" in attribute value template ${value}`);
    else i++;
  }
}

/** Every attribute of every element of `tree`, read as saxon-js reads the stylesheet. */
function visit(tree: CompactTree, out: { names: CodeName[]; residue: string[] }): void {
  for (let pre = 0; pre < tree.size; pre++) {
    if (tree.kind[pre] !== NodeKind.element) continue;
    const element = tree.names[tree.ref[pre]];
    const xsl = element.uri === XSL;
    for (let a = tree.attrStart.at(pre); a < tree.attrStart.at(pre + 1); a++) {
      const name = tree.names[tree.attrName[a]];
      // namespace declarations (attributes in the xmlns namespace in the compact tree)
      if (name.uri === XMLNS_NS) continue;
      const value = tree.strings.at(tree.attrValue[a]);
      if (!xsl) {
        if (name.uri !== XSL) scanAVT(value, out);
        continue;
      }
      if (XPATH.has(name.local)) scanXPath(value, 0, out, false);
      else if (AVT[element.local]?.includes(name.local)) scanAVT(value, out);
      else if (element.local === 'decimal-format' && DATA.has(name.local)) continue;
      else if (NAMES.has(name.local)) scanXPath(value, 0, out, false);
      else throw new Error(`unclassified attribute ${name.local} of xsl:${element.local}`);
    }
  }
}

/**
 * The stylesheet's nodes, parsed by the project's XML parser (convert/xml-parser.ts: attribute
 * values normalised as saxon-js's parser does); several times quicker than a DOM from saxon-js,
 * which matters to the property tests that parse thousands of translations. saxon-js's parser
 * also takes the C0 controls XML 1.0 leaves out (a query's string literal may hold one, carried
 * as it is): each is read as U+FFFD, a character that is neither space nor part of a name in
 * XPath either, so the scan sees the same tokens.
 */
function stylesheetTree(xslt: string): CompactTree {
  const builder = new TreeBuilder(Math.max(16, xslt.length >> 5));
  parseXmlInto(xslt.replace(/[\x01-\x08\x0b\x0c\x0e-\x1f]/g, '\ufffd'), builder);
  return builder.finish();
}

/** The code of a translation: its stylesheet (parsed as XML), or its one XPath expression. */
export function generatedCode(t: Translation): GeneratedCode {
  const out = { names: [] as CodeName[], residue: [] as string[] };
  if (t.xpath) {
    scanXPath(t.xpath.expression, 0, out, false);
    if (t.xpath.summary) scanXPath(t.xpath.summary, 0, out, false);
  }
  visit(stylesheetTree(t.xslt), out);
  return { names: out.names, residue: out.residue.join('\n') };
}
