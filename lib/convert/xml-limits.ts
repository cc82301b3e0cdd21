/**
 * Limits of every stored document, whatever it was converted from (our decision): element
 * nesting, and attributes per element with namespace declarations. Documents past them are not
 * data but attacks: saxon-js, which queries every stored document, recurses per element level
 * (its stack ends between 5,000 and 10,000 levels) and takes time quadratic in the attributes of
 * an element. The depth leaves room for JSON input at its own limit (JSON_MAX_DEPTH, 1,000).
 * The depth also holds for XML that saxon-js parses while a query runs (saxon/patches/parse-depth.ts).
 */
export const XML_LIMITS = { depth: 2048, attributes: 1000 } as const;
