/** Input conversions of PUT bodies (spec §8.1, §14): the public surface of `convert/`. */
export { convertBody, convertInput, decodeText, inputKind, parseMediaType } from './by-content-type';
export type { ConvertedBody, ConvertedInput, ConvertOptions, InputKind, MediaType } from './by-content-type';
export { checkXmlLimits, parseToStoredXml, parseToCompactDom } from './xml';
export type { XmlOptions } from './xml';
export { convertJson } from './json';
export type { JsonFormat, JsonOptions } from './json';
export { convertCsv } from './csv';
export type { CsvFormat, CsvOptions } from './csv';
export type { HtmlOptions } from './html';
export { parsingOptions } from './parsing-options';
export type { ParsingOptions } from './parsing-options';
export { CONVERT_ERRORS } from './conversion-errors';
export type { ConvertErrorKey } from './conversion-errors';
export type { WrittenXml } from './writer';
