/**
 * XML input (spec §14.5): check, normalise, count. The stored form has no XML declaration and no
 * DOCTYPE; namespaces, comments and PIs are kept, CDATA becomes text, entities are expanded,
 * white space is kept unless `stripws`, namespaces are removed with `stripns`.
 *
 * The parser is our own (xml-parser.ts), not saxon-js's: saxon-js 2.7 on Node is safe (it never
 * loads a DTD or expands a declared entity) but not strict (it accepts duplicate attributes, two
 * root elements, `<` in attribute values, control characters, an empty document) and its
 * serializer drops `xmlns=""`. Its parse of our normalised output is what the engine gets
 * ({@link parseToCompactDom}).
 */
import { XmldbError } from '../xmldb-error';
import { evaluateXPathOn, parseWithXPath } from '../saxon/xpath-parse';
import { XmlWriter, type WrittenBytes, type WrittenXml } from './writer';
import { Utf8Output } from './utf8-output';
import { parseXmlInto, type XmlSink } from './xml-parser';
import { compactDocument } from './compact-dom';
import { hasAstralCharacters, spellAstralNames, unspellTree } from './astral-names';

export interface XmlOptions {
  /** Drop whitespace-only text nodes (except below `xml:space="preserve"`). Default false. */
  readonly stripws?: boolean;
  /** Remove namespaces from element and attribute names. Default false. */
  readonly stripns?: boolean;
  /** Resource name, used in error messages. */
  readonly name?: string;
}

/**
 * Parses XML text into its stored form (normalised text and node count); throws a 400
 * `XmldbError` (catalog `CONVERT_ERRORS`) if it is not well-formed.
 */
export function parseToStoredXml(text: string, options: XmlOptions = {}): WrittenXml {
  const writer = new XmlWriter({ stripws: options.stripws });
  parseXmlInto(text, writer, { stripns: options.stripns, name: options.name });
  return writer.finish();
}

/**
 * {@link parseToStoredXml}, the stored form as its UTF-8 bytes, encoded while it is written
 * (utf8-output.ts): never held as text too. `expectedBytes`: about its size (the source's).
 */
export function parseToStoredBytes(text: string, expectedBytes: number, options: XmlOptions = {}): WrittenBytes {
  const writer = new XmlWriter({ stripws: options.stripws, utf8: new Utf8Output(expectedBytes) });
  parseXmlInto(text, writer, { stripns: options.stripns, name: options.name });
  return writer.finishBytes();
}

const DISCARD: XmlSink = {
  startElement: () => undefined,
  endElement: () => undefined,
  characters: () => undefined,
  comment: () => undefined,
  processingInstruction: () => undefined,
};

/**
 * Holds XML that saxon-js's parser will read (POST bodies, context documents, XML command
 * scripts) to the limits of ours (XML_LIMITS): past them, a 400. Other problems are left to the
 * parser that reads the text, so its well-formedness rules and messages stay those callers give.
 */
export function checkXmlLimits(text: string): void {
  try {
    parseXmlInto(text, DISCARD);
  } catch (e) {
    if (e instanceof XmldbError && (e.code === 'XML_DEPTH_X' || e.code === 'XML_ATTRIBUTES_X')) throw e;
  }
}

/**
 * A saxon-js document node for XML text this module produced ({@link parseToStoredXml} output, or a
 * stored document). Not for untrusted input: it relies on the text being already checked.
 */
export function parseToCompactDom(xml: string): unknown {
  return compactDocument(hasAstralCharacters(xml) && astralNamesSupported() ? parseAstral(xml) : saxonParse(xml), saxonParse);
}

/** Through the spelling of astral-names.ts: saxon-js's parser rejects such names. */
function parseAstral(xml: string): unknown {
  const doc = saxonParse(spellAstralNames(xml));
  unspellTree(doc);
  return doc;
}

let astralSupport: boolean | undefined;

/** Whether names spelled back in saxon-js's tree are the names its XPath sees (checked once). */
function astralNamesSupported(): boolean {
  if (astralSupport === undefined) {
    const probe = '<p:\u{10000}a xmlns:p\u{10001}="urn:x" xmlns:p="urn:p" \u{10002}="1"><?\u{10003} d?></p:\u{10000}a>';
    const doc = parseAstral(probe);
    const names = evaluateXPathOn("string-join((name(*), namespace-uri(*), name(*/@*), name(*/processing-instruction()), in-scope-prefixes(*)[starts-with(., 'p')] => sort()), ' ')", doc);
    astralSupport = names === 'p:\u{10000}a urn:p \u{10002} \u{10003} p p\u{10001}';
  }
  return astralSupport;
}

/** saxon-js's parse (loaded on first use, lib/saxon/xpath-parse.ts). */
function saxonParse(xml: string): unknown {
  return parseWithXPath(xml);
}
