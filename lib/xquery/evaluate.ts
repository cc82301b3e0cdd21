/**
 * Runs a compiled query synchronously and returns its raw XDM result: our own node objects
 * (identity kept, which XQuery Update needs), atomic values with their types, maps, arrays.
 *
 * Conventions with the translator:
 * - the entry point is the named template `options.initialTemplate`, or, when none is given,
 *   `xsl:initial-template`;
 * - the context (spec §9.2) arrives as the stylesheet parameter CONTEXT_PARAM, a sequence of
 *   document nodes; the stylesheet declares it (`as="document-node()*"`) and focuses on it.
 *   Stored documents are never passed as saxon's source node or global context item (saxon
 *   walks, and with xsl:strip-space modifies, the whole tree on every run);
 * - external variables are stylesheet parameters named by local name or EQName; string values
 *   are cast to the declared type (runtime/params.ts);
 * - documents are read through a DocumentSource while the query runs (runtime/documents.ts).
 */
import type { CompiledQuery } from './compile';
import { NO_DOCUMENTS, collectionFinder, withDocumentSource, type DocumentSource } from './runtime/documents';
import { toQueryError } from './runtime/errors';
import { bindStrings, type StringBinding } from './runtime/params';
import { saxon, type XdmNode, type XdmValue } from './runtime/saxon';
import { serialize } from './serialize';

export { ENGINE_NS, NO_DOCUMENTS, type DocumentSource } from './runtime/documents';
export type { StringBinding } from './runtime/params';
export type { XdmItem, XdmNode, XdmValue } from './runtime/saxon';

/** Name of the stylesheet parameter that carries the context documents. */
export const CONTEXT_PARAM = 'Q{urn:xmldb-rest:engine}context';

export interface EvaluateOptions {
  /** Named template to start with (local name or EQName); default `xsl:initial-template`. */
  readonly initialTemplate?: string;
  /** External variables: strings from the request (cast here) or ready XDM values. */
  readonly params?: Readonly<Record<string, StringBinding | XdmValue>>;
  /** Context documents, bound to CONTEXT_PARAM. */
  readonly context?: readonly XdmNode[];
  /** Answers doc()/collection() while the query runs; default: no documents (FODC0002). */
  readonly source?: DocumentSource;
  /** Documents known before the run, by absolute URI, for saxon's own fn:doc. */
  readonly documents?: Readonly<Record<string, XdmNode>>;
}

export function evaluate(query: CompiledQuery, options: EvaluateOptions = {}): XdmValue {
  const stylesheetParams: Record<string, unknown> = {};
  try {
    for (const [name, value] of Object.entries(options.params ?? {})) {
      stylesheetParams[name] = Array.isArray(value) ? value : bindStrings(name, value as StringBinding);
    }
    if (options.context) stylesheetParams[CONTEXT_PARAM] = [...options.context];
    const transformOptions: Record<string, unknown> = {
      stylesheetInternal: query.sef,
      stylesheetParams,
      destination: 'raw',
      resultForm: 'xdm',
      collectionFinder: collectionFinder(query.baseUri),
      documentPool: options.documents ?? {},
    };
    if (options.initialTemplate) transformOptions.initialTemplate = options.initialTemplate;
    const result = withDocumentSource(options.source ?? NO_DOCUMENTS, () => saxon.transform(transformOptions, 'sync'));
    const value = result.principalResult;
    if (value === undefined || value === null) return [];
    return Array.isArray(value) ? (value as XdmValue) : ([value] as XdmValue);
  } catch (e) {
    throw toQueryError(e, 'evaluate', query.baseUri);
  }
}

/** Runs a query and serializes its result (spec §2.3, §11) in one step. */
export function evaluateSerialized(
  query: CompiledQuery,
  options: EvaluateOptions,
  serialization: Readonly<Record<string, string>> = {},
): string {
  return serialize(evaluate(query, options), serialization);
}
