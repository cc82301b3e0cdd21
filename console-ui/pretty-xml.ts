/**
 * Indents an XML document for reading: an element whose children are all elements (whitespace
 * between them aside) gets each child on its own line; an element with text keeps its content as
 * it is, so mixed content and significant spaces are never changed. The indentation is added as
 * text nodes and the document serialized once, so namespaces are declared where they were. Text
 * that does not parse is answered as it is.
 */
export function prettyXml(text: string): string {
  const doc = new DOMParser().parseFromString(text, 'application/xml');
  if (doc.getElementsByTagName('parsererror').length > 0) return text;
  const indent = (element: Element, depth: number): void => {
    const children = [...element.childNodes];
    const isBlank = (c: Node): boolean => c.nodeType === Node.TEXT_NODE && (c.textContent ?? '').trim() === '';
    if (!children.some((c) => c.nodeType === Node.ELEMENT_NODE) || !children.every((c) => c.nodeType !== Node.TEXT_NODE || isBlank(c))) return;
    for (const child of children) {
      if (isBlank(child)) {
        child.remove();
        continue;
      }
      element.insertBefore(doc.createTextNode(`\n${'  '.repeat(depth + 1)}`), child);
      if (child.nodeType === Node.ELEMENT_NODE) indent(child as Element, depth + 1);
    }
    element.appendChild(doc.createTextNode(`\n${'  '.repeat(depth)}`));
  };
  if (doc.documentElement) indent(doc.documentElement, 0);
  return new XMLSerializer().serializeToString(doc);
}
