/** Static errors the parser raises, with the source position (1-based line and column). */

export type SyntaxErrorCode =
  | 'XPST0003' // grammar violation
  | 'XQST0031' // unsupported version
  | 'XQST0087' // bad encoding name
  | 'XQST0090' // character reference to a non-XML character
  | 'XQST0118' // end tag does not match start tag
  | 'XQST0022' // namespace declaration attribute with an enclosed expression
  | 'XQST0032' // base-uri declared twice
  | 'XQST0038' // default collation declared twice
  | 'XQST0046' // a namespace URI that is not a valid URI (uri-literals.ts)
  | 'XQST0055' // copy-namespaces declared twice
  | 'XQST0065' // ordering mode declared twice
  | 'XQST0066' // default element/function namespace declared twice
  | 'XQST0067' // construction declared twice
  | 'XQST0068' // boundary-space declared twice
  | 'XQST0069' // empty order declared twice
  | 'XQST0097' // bad decimal-format property value (parser checks only duplicates: XQST0114)
  | 'XQST0099' // context item declared twice
  | 'XQST0089' // a for clause's variables with one name (XQuery 3.1 §3.12.2; the score variable, Full Text §2.3)
  | 'FTST0019' // a full-text match option given twice in one FTMatchOptions
  | 'XQST0111' // decimal format declared twice
  | 'XQST0114' // decimal-format property given twice
  | 'XUST0003'; // revalidation declared twice

export class XQuerySyntaxError extends Error {
  readonly code: SyntaxErrorCode;
  readonly line: number;
  readonly column: number;
  readonly offset: number;
  /** The message without the position suffix. */
  readonly description: string;

  constructor(code: SyntaxErrorCode, description: string, src: string, offset: number) {
    const { line, column } = lineColumn(src, offset);
    super(`${description} (${line}:${column})`);
    this.name = 'XQuerySyntaxError';
    this.code = code;
    this.description = description;
    this.line = line;
    this.column = column;
    this.offset = offset;
  }
}

/** 1-based line and column of an offset; CR LF, CR and LF each end a line. */
export function lineColumn(src: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, src.length);
  for (let i = 0; i < end; i++) {
    const c = src.charCodeAt(i);
    if (c === 10 || (c === 13 && src.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
