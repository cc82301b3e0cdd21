/** Builds a small XSLT 3.0 stylesheet around a body for the named template `main`. */
export function xslt(body: string, prolog = ''): string {
  return (
    '<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" ' +
    'xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:map="http://www.w3.org/2005/xpath-functions/map" ' +
    'xmlns:array="http://www.w3.org/2005/xpath-functions/array" xmlns:e="urn:xmldb-rest:engine" exclude-result-prefixes="#all">\n' +
    `${prolog}\n<xsl:template name="main">\n${body}\n</xsl:template>\n</xsl:stylesheet>`
  );
}

/** A stylesheet whose main template returns the XPath expression `select`. */
export function select(expr: string, prolog = ''): string {
  const escaped = expr.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
  return xslt(`<xsl:sequence select="${escaped}"/>`, prolog);
}
