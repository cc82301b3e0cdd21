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
 *   are cast to the declared type (external-variables.ts);
 * - documents are read through a DocumentSource while the query runs (documents/source.ts).
 */
import type { CompiledQuery } from './compile';
import { CONTEXT_PARAM } from '../constants';
import { NO_DOCUMENTS, collectionFinder, withDocumentSource, type DocumentSource } from './documents/source';
import { toQueryError } from '../query-error';
import { bindStrings, type StringBinding } from './external-variables';
import { saxon, type XdmArray, type XdmNode, type XdmValue } from '../../saxon';
import type { FirstCall } from '../protocol/protocol';
import { serialize } from '../serialization/serialize';
import { evaluatePlanned } from './xpath-plans';

export { NO_DOCUMENTS, type DocumentSource } from './documents/source';
export type { StringBinding } from './external-variables';
export type { XdmItem, XdmNode, XdmValue } from '../../saxon';

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
  try {
    const transformOptions: Record<string, unknown> = {
      stylesheetInternal: query.sef,
      stylesheetParams: boundParams(options),
      destination: 'raw',
      resultForm: 'xdm',
      collectionFinder: collectionFinder(query.baseUri),
      documentPool: options.documents ?? {},
    };
    if (options.initialTemplate) transformOptions.initialTemplate = options.initialTemplate;
    const result = withDocumentSource(options.source ?? NO_DOCUMENTS, () => saxon().transform(transformOptions, 'sync'));
    return asValue(result.principalResult);
  } catch (e) {
    throw toQueryError(e, 'evaluate', query.baseUri);
  }
}

/**
 * Runs a query that is one XPath expression (translate/translation.ts `Translation.xpath`) with
 * saxon-js's XPath evaluator: no stylesheet to compile, so a query seen for the first time costs
 * little more than one seen before (whose compiled expression is kept, xpath-plans.ts). Parameters and context as for `evaluate` (the expression
 * reads CONTEXT_PARAM); `baseUri` is the static base URI; `shape`, the expression with its
 * predicates' literals as parameters (xpath-plans.ts).
 */
export function evaluateXPath(expression: string, baseUri: string, options: EvaluateOptions = {}, shape?: string): XdmValue {
  try {
    const run = { params: boundParams(options), staticBaseURI: baseUri, namespaceContext: XPATH_NAMESPACES };
    return asValue(withDocumentSource(options.source ?? NO_DOCUMENTS, () => evaluatePlanned(expression, run, shape)));
  } catch (e) {
    throw toQueryError(e, 'evaluate');
  }
}

/**
 * The value of a call tried before the query (protocol.ts `FirstCall`), with the query's context
 * and documents and the call's own parameters; undefined when the call declines (the empty
 * sequence), else the member of the one-member array it answers.
 */
export function evaluateFirst(first: FirstCall, baseUri: string, options: EvaluateOptions): XdmValue | undefined {
  const answer = evaluateXPath(first.expression, baseUri, { ...options, params: first.params });
  return answer.length === 0 ? undefined : (answer[0] as XdmArray).value[0];
}

/** The only prefix a translated expression may use without declaring it. */
const XPATH_NAMESPACES = { xs: 'http://www.w3.org/2001/XMLSchema' };

function boundParams(options: EvaluateOptions): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  const given = options.params;
  if (given !== undefined) {
    for (const name of Object.keys(given)) {
      const value = given[name];
      params[name] = Array.isArray(value) ? value : bindStrings(name, value as StringBinding);
    }
  }
  if (options.context) params[CONTEXT_PARAM] = [...options.context];
  return params;
}

function asValue(value: unknown): XdmValue {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? (value as XdmValue) : ([value] as XdmValue);
}

/** Runs a query and serializes its result (spec §2.3, §11) in one step. */
export function evaluateSerialized(
  query: CompiledQuery,
  options: EvaluateOptions,
  serialization: Readonly<Record<string, string>> = {},
): string {
  return serialize(evaluate(query, options), serialization);
}
