/**
 * Escaping for XML text (XML 1.0 §2.4, §2.10): the one copy used for stored documents, listings,
 * command input, serialized results and generated stylesheets. `\r` is written as a character
 * reference in text, and tabs and line ends in attribute values, so that they survive the line-end
 * and attribute-value normalisation of the next parser (XML 1.0 §2.11, §3.3.3).
 */

// Most text needs no escaping: a test first spares the replace.
const TEXT = /[&<>\r]/;
const ATTRIBUTE = /[&<"\t\n\r]/;

const REFERENCES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\t': '&#x9;',
  '\n': '&#xA;',
  '\r': '&#xD;',
};

function reference(c: string): string {
  return REFERENCES[c];
}

/** Escapes text for XML character content. */
export function escapeText(s: string): string {
  return TEXT.test(s) ? s.replace(/[&<>\r]/g, reference) : s;
}

/** Escapes text for a double-quoted XML attribute value. */
export function escapeAttribute(s: string): string {
  return ATTRIBUTE.test(s) ? s.replace(/[&<"\t\n\r]/g, reference) : s;
}
