/**
 * Names with characters beyond the Basic Multilingual Plane (XML 1.0 fifth edition allows
 * NameStartChar #x10000-#xEFFFF), for saxon-js's parser.
 *
 * saxon-js 2.7 parses XML one UTF-16 code unit at a time and tests each unit against its name
 * character classes, so a surrogate pair in an element, attribute, prefix or processing
 * instruction name fails (`Unencoded <`), although the document is well-formed and our parser
 * stored it. Such documents are handed to saxon-js with those characters spelled in BMP name
 * characters, and the names are spelled back in the tree it built:
 * - a character beyond the BMP becomes MARK followed by five lower-case hex digits of its code
 *   point, and MARK itself becomes MARK `g`: the spelling is reversible and still a valid name;
 * - only names are rewritten (text, attribute values, comments and PI data are left alone), so the
 *   tree differs from a direct parse in nothing once the names are restored.
 * MARK is U+FDCF, a name character that saxon-js's classes accept and that names rarely hold.
 */
import { XmlWriter, type Pair } from './writer';
import { parseXmlInto, type XmlSink } from './xml-parser';

const MARK = '\uFDCF';
const HIGH_SURROGATE = /[\uD800-\uDBFF]/;
const TO_SPELL = /[\u{10000}-\u{10FFFF}\uFDCF]/gu;
const SPELLED = /\uFDCF(g|[0-9a-f]{5})/g;

/** Whether the text has a character beyond the BMP (in a name or not: the cheap test). */
export function hasAstralCharacters(xml: string): boolean {
  return HIGH_SURROGATE.test(xml);
}

function spell(name: string): string {
  return name.replace(TO_SPELL, (c) => (c === MARK ? MARK + 'g' : MARK + c.codePointAt(0)!.toString(16).padStart(5, '0')));
}

/** The inverse of `spell`. */
export function unspell(name: string): string {
  return name.indexOf(MARK) < 0 ? name : name.replace(SPELLED, (_, code: string) => (code === 'g' ? MARK : String.fromCodePoint(parseInt(code, 16))));
}

/** Normalised XML text (the stored form) with every name spelled in BMP characters. */
export function spellAstralNames(xml: string): string {
  const writer = new XmlWriter();
  const sink: XmlSink = {
    startElement: (name: string, attributes: readonly Pair[] = [], namespaces: readonly Pair[] = []) =>
      writer.startElement(
        spell(name),
        attributes.map(([n, v]) => [spell(n), v] as const),
        namespaces.map(([p, uri]) => [spell(p), uri] as const),
      ),
    endElement: () => writer.endElement(),
    characters: (s: string) => writer.characters(s),
    comment: (s: string) => writer.comment(s),
    processingInstruction: (target: string, data: string) => writer.processingInstruction(spell(target), data),
  };
  parseXmlInto(xml, sink);
  return writer.finish().xml;
}

/** The fields of saxon-js's DOM nodes (its bundled xmldom) that hold names. */
const NAME_FIELDS = ['nodeName', 'tagName', 'name', 'prefix', 'localName', 'target'] as const;

interface DomNode {
  childNodes?: ArrayLike<DomNode> | null;
  attributes?: ArrayLike<DomNode> | null;
  /** The namespaces an element declares, by prefix (saxon-js's minified name for xmldom's _nsMap). */
  ae?: Record<string, string> | null;
  [field: string]: unknown;
}

/** Spells back, in place, every name of a tree that saxon-js built from `spellAstralNames` output. */
export function unspellTree(root: unknown): void {
  const stack: DomNode[] = [root as DomNode];
  for (let node = stack.pop(); node; node = stack.pop()) {
    unspellFields(node);
    if (node.ae) {
      const declared: Record<string, string> = {};
      for (const [prefix, uri] of Object.entries(node.ae)) declared[unspell(prefix)] = uri;
      node.ae = declared;
    }
    const attributes = node.attributes;
    if (attributes) for (let i = 0; i < attributes.length; i++) unspellFields(attributes[i]);
    const children = node.childNodes;
    if (children) for (let i = 0; i < children.length; i++) stack.push(children[i]);
  }
}

function unspellFields(node: DomNode): void {
  for (const field of NAME_FIELDS) {
    const value = Object.prototype.hasOwnProperty.call(node, field) ? node[field] : undefined;
    if (typeof value === 'string') node[field] = unspell(value);
  }
}
