/**
 * Every extension function the engine gives saxon-js, registered in one list, in this order, by
 * `registerExtensionFunctions`. saxon-js checks calls of extension functions when it compiles a
 * stylesheet, so a thread registers them before it compiles or runs a query: the query workers do
 * first thing (worker/thread.ts). Registering is per thread and changes saxon-js's function
 * library, which the host application's own saxon-js on the main thread never sees.
 */
import { registerDocumentFunctions } from '../worker/documents/source';
import { registerNameIndexFunctions } from '../accelerators/name-index/name-index';
import { registerNamePredicateFunctions } from '../accelerators/name-predicates/name-predicates';
import { registerChildPathFunctions } from '../accelerators/child-paths/child-paths';
import { registerForestElementFunctions } from './forest-elements';
import { registerJoinTableFunctions } from './join-tables';
import { registerLeafFilterFunctions } from '../accelerators/leaf-filter/leaf-filter';
import { registerLeafAggregateFunctions } from '../accelerators/leaf-aggregates/leaf-aggregates';
import { registerLeafGroupFunctions } from '../accelerators/leaf-groups/leaf-groups';
import { registerLeafOrderFunctions } from '../accelerators/leaf-order/leaf-order';
import { registerLeafReturnFunctions } from '../accelerators/leaf-returns/leaf-returns';
import { registerLeafTupleFunctions } from '../accelerators/leaf-tuples/leaf-tuples';
import { registerLeafSummaryFunctions } from '../accelerators/leaf-summaries/leaf-summaries';
import { registerCodepointFunctions } from './codepoints';
import { registerOrderFunctions } from './order-tuples';
import { registerPlainElementFunctions } from './plain-elements';
import { registerConstructorContentFunctions } from './constructor-content';
import { registerGroupFunctions } from './group-tuples';
import { registerRangeIndexFunctions } from './range-index';
import { registerDisabledFunctions } from './disabled-functions';
import { registerUpdateFunctions } from './update-primitives';
import { registerDbFunctions } from './db';
import { registerDbWriteFunctions } from './db-write';
import { registerDbIndexFunctions } from './db-index';
import { registerDbInfoFunctions } from './db-info';
import { registerDbNodeFunctions } from './db-nodes';
import { registerProfFunctions } from './prof';
import { registerXQueryFunctions } from './xquery';
import { registerXsltFunctions } from './xslt';
import { registerJsonFunctions } from './json';
import { registerCsvFunctions } from './csv';
import { registerConvertFunctions } from './convert';
import { registerHashFunctions } from './hash';
import { registerRandomFunctions } from './random';
import { registerUtilFunctions } from './util';
import { registerStringFunctions } from './string';
import { registerOutFunctions } from './out';
import { registerBinFunctions } from './bin';
import { registerArchiveFunctions } from './archive';
import { registerInspectFunctions } from './inspect';
import { registerUserFunctions } from './user';
import { registerIndexFunctions } from './index-functions';
import { registerFullTextFunctions } from './ft';
import { registerFullTextIndexFunctions } from './ft-index';
import { registerXPathPlanFunctions } from '../../saxon/xpath-plan';
import { registerSerializeFunctions } from './fn-serialize';

/** The registrations, in order: the engine's own functions, then BaseX's modules, then guards. */
const REGISTRATIONS: readonly (() => void)[] = [
  registerDocumentFunctions, // engine:doc, doc-available, collection (fn:doc and friends)
  registerCodepointFunctions, // engine:codepoints-to-string
  registerDbFunctions, // db: (reading) and engine:uri-collection
  registerDbWriteFunctions, // db: (updating)
  registerDbIndexFunctions, // db: (value indexes) and engine:descendants-matching
  registerDbInfoFunctions, // db:system, db:info, db:property, db:list-details
  registerDbNodeFunctions, // db:node-pre, db:node-id, db:get-pre, db:get-id
  registerNameIndexFunctions, // engine:descendants, the element-name index behind `//name`
  registerNamePredicateFunctions, // engine:element-name-samples, elements-named-as: `//*[P]` with P on the name, once per name
  registerChildPathFunctions, // engine:child-path, runs of child steps `a/b/c` by element name
  registerLeafFilterFunctions, // engine:leaf-filter, leaf comparisons in predicates of `//name`
  registerLeafAggregateFunctions, // engine:aggregate-leaves, count/sum/avg/min/max over `//name…` leaves
  registerLeafSummaryFunctions, // engine:count-summary, `count(//name[…])` over a database from stored text
  registerOrderFunctions, // engine:order-tuples, the sort of order by over plain keys
  registerPlainElementFunctions, // engine:plain-element, plain direct constructors of text content
  registerConstructorContentFunctions, // engine:content and element-content, the content rules of constructors
  registerForestElementFunctions, // engine:forest-element, plain direct constructors whose content copies nodes
  registerGroupFunctions, // engine:group-tuples, the hash grouping of group by over plain keys
  registerJoinTableFunctions, // engine:join-probe, join-count: the key tables of hash joins
  registerRangeIndexFunctions, // engine:range-index, range-count, range-positions: the sorted keys of range joins
  registerLeafGroupFunctions, // engine:group-leaves, group by over leaves of the for variable's elements
  registerLeafOrderFunctions, // engine:order-leaves, order by leaves of the for variable's elements
  registerLeafReturnFunctions, // engine:leaf-returns, a for clause returning a leaf of its variable's elements
  registerLeafTupleFunctions, // engine:leaf-tuples, a FLWOR over leaves of its for variable's elements
  registerSerializeFunctions, // engine:serialize and its helpers, behind fn:serialize
  registerProfFunctions, // prof:
  registerXQueryFunctions, // xquery:eval, xquery:eval-update
  registerXsltFunctions, // xslt:
  registerJsonFunctions, // json:
  registerCsvFunctions, // csv:
  registerConvertFunctions, // convert:
  registerHashFunctions, // hash:
  registerRandomFunctions, // random:
  registerUtilFunctions, // util:
  registerStringFunctions, // string:
  registerOutFunctions, // out: (BaseX 9's names)
  registerBinFunctions, // bin: (EXPath Binary)
  registerArchiveFunctions, // archive:
  registerInspectFunctions, // inspect:
  registerUserFunctions, // user: (reading and updating)
  registerIndexFunctions, // index:
  registerFullTextFunctions, // engine:ft-contains, engine:ft-score (`contains text`) and ft:
  registerFullTextIndexFunctions, // ft:search, ft:tokens and engine:descendants-ft (the full-text index)
  registerUpdateFunctions, // the update primitives the translator emits
  registerDisabledFunctions, // the refusing engine:transform
  registerXPathPlanFunctions, // the collations of compiled XPath expressions (saxon/xpath-plan.ts)
];

let registered = false;

/** Registers every extension function with this thread's saxon-js (idempotent). */
export function registerExtensionFunctions(): void {
  if (registered) return;
  for (const register of REGISTRATIONS) register();
  registered = true;
}
