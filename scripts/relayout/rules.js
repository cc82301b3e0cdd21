// Where each file of lib/xquery goes, by where its code runs and by feature (README "Architecture"):
// engine/ the server's main thread, host/ the query host process, worker/ the worker threads,
// protocol/ what crosses between them; __tests__/layers.test.ts holds each runtime to its folder.
// Paths are relative to lib/xquery. A pattern's `*` stands for one or more characters of a name
// (no `/`); `{1}`, `{2}` in the target are what the stars matched, in order. The first rule that
// matches decides, so the explicit entries come first; a file that no rule matches stops the tool.
'use strict';

/** One speed-up: its translator rewrite and its run-time half, in accelerators/NAME/. */
const ACCELERATOR_HALVES = {
  'documents/name-index.ts': 'name-index',
  'translate/paths-index.ts': 'name-index',
  'documents/child-paths.ts': 'child-paths',
  'translate/paths-child.ts': 'child-paths',
  'documents/leaf-values.ts': 'leaf-columns',
  'documents/leaf-columns.ts': 'leaf-columns',
  'documents/leaf-filter.ts': 'leaf-filter',
  'translate/paths-leaf-predicates.ts': 'leaf-filter',
  'documents/leaf-aggregates.ts': 'leaf-aggregates',
  'translate/paths-aggregate.ts': 'leaf-aggregates',
  'documents/leaf-groups.ts': 'leaf-groups',
  'translate/flwor-group-leaves.ts': 'leaf-groups',
  'documents/leaf-summaries.ts': 'leaf-summaries',
  'translate/paths-summary.ts': 'leaf-summaries',
  'documents/value-index.ts': 'value-index',
  'translate/paths-value-index.ts': 'value-index',
  'documents/fulltext-index.ts': 'fulltext-index',
  'documents/fulltext-candidates.ts': 'fulltext-index',
  'translate/paths-fulltext-index.ts': 'fulltext-index',
};

/** Files whose place no name pattern can tell: the runtime they are loaded in decides. */
const EXPLICIT = {
  // the main thread: the engine's facade, prepared queries, the proxy of the query host
  'engine.ts': 'engine/engine.ts',
  'prepared.ts': 'engine/prepared.ts',
  'run-parts.ts': 'engine/run-parts.ts',
  'result-memo.ts': 'engine/result-memo.ts',
  'worker/query-host.ts': 'engine/query-host.ts',
  'worker/shared-hosts.ts': 'engine/shared-hosts.ts',
  'worker/host-flags.ts': 'engine/host-flags.ts',
  // the query host process: the pool of worker threads
  'worker/host-process.ts': 'host/host-process.ts',
  'worker/pool.ts': 'host/pool.ts',
  'worker/jobs.ts': 'host/jobs.ts',
  'worker/pending.ts': 'host/pending.ts',
  'worker/worker-slot.ts': 'host/worker-slot.ts',
  'worker/document-budget.ts': 'host/document-budget.ts',
  'worker/shared-compilations.ts': 'host/shared-compilations.ts',
  'worker/task-costs.ts': 'host/task-costs.ts',
  'worker/launch.ts': 'host/launch.ts',
  // what crosses between them: messages, the store channel, the claims of batched tasks
  'worker/protocol.ts': 'protocol/protocol.ts',
  'worker/host-protocol.ts': 'protocol/host-protocol.ts',
  'worker/message-batch.ts': 'protocol/message-batch.ts',
  'worker/store-channel.ts': 'protocol/store-channel.ts',
  'worker/task-claim.ts': 'protocol/task-claim.ts',
  // restarts of threads (host) and of the host process (main thread) back off by one rule
  'worker/start-backoff.ts': 'start-backoff.ts',
  // the worker threads: compile, evaluate, limits, their store reader and walls
  'worker/thread.ts': 'worker/thread.ts',
  'worker/collect-garbage.ts': 'worker/collect-garbage.ts',
  'worker/host-wall.ts': 'worker/host-wall.ts',
  'worker/sef-disk-cache.ts': 'worker/sef-disk-cache.ts',
  'worker/store-reader.ts': 'worker/store-reader.ts',
  'compile.ts': 'worker/compile.ts',
  'evaluate.ts': 'worker/evaluate.ts',
  'xpath-plans.ts': 'worker/xpath-plans.ts',
  'run-limit.ts': 'worker/run-limit.ts',
  'external-variables.ts': 'worker/external-variables.ts',
  'guards/resource-guard.ts': 'worker/guards/resource-guard.ts',
  'guards/stylesheet-guard.ts': 'worker/guards/stylesheet-guard.ts',
  // loaded by every runtime: names, errors and keys they share
  'constants.ts': 'constants.ts',
  'module-namespaces.ts': 'module-namespaces.ts',
  'query-error.ts': 'query-error.ts',
  'errors.ts': 'errors.ts',
  'compile-key.ts': 'compile-key.ts',
  // how a URI in a query names a stored resource: read by the analysis and by the worker's source
  'documents/resource-uri.ts': 'language/resource-uri.ts',
  // extension functions the translator emits, one file each
  'extension-functions.ts': 'functions/extension-functions.ts',
  'codepoints.ts': 'functions/codepoints.ts',
  'order-tuples.ts': 'functions/order-tuples.ts',
  'group-tuples.ts': 'functions/group-tuples.ts',
  'range-index.ts': 'functions/range-index.ts',
  'update/functions.ts': 'functions/update-primitives.ts',
  'serialization/fn-serialize.ts': 'functions/fn-serialize.ts',
  'guards/disabled-functions.ts': 'functions/disabled-functions.ts',
  // the translator's entry and the first file of each family of expressions
  'translate/index.ts': 'language/translate/index.ts',
  'translate/flwor.ts': 'language/translate/flwor/flwor.ts',
  'translate/paths.ts': 'language/translate/paths/paths.ts',
  'translate/constructors.ts': 'language/translate/constructors/constructors.ts',
};

/** Name and folder patterns, tried in order after the explicit entries. */
const PATTERNS = [
  // the speed-ups nobody has paired yet: the run-time half names the accelerator
  ['documents/leaf-*.ts', 'accelerators/leaf-{1}/leaf-{1}.ts'],
  ['documents/*-index.ts', 'accelerators/{1}-index/{1}-index.ts'],
  ['documents/fulltext-*.ts', 'accelerators/fulltext-index/fulltext-{1}.ts'],
  // the rest of documents/ is the workers' document source
  ['documents/*.ts', 'worker/documents/{1}.ts'],
  // the language: parser, analysis, translator (a folder per family of expressions)
  ['syntax/*.ts', 'language/syntax/{1}.ts'],
  ['analysis/*.ts', 'language/analysis/{1}.ts'],
  ['translate/flwor-*.ts', 'language/translate/flwor/{1}.ts'],
  ['translate/constructors-*.ts', 'language/translate/constructors/{1}.ts'],
  ['translate/paths-*.ts', 'language/translate/paths/{1}.ts'],
  ['translate/*.ts', 'language/translate/{1}.ts'],
  // BaseX's modules and their helpers: one file per module
  ['modules/*.ts', 'functions/{1}.ts'],
  ['module-support/*.ts', 'functions/support/{1}.ts'],
  // features both the main thread and the workers load
  ['serialization/*.ts', 'serialization/{1}.ts'],
  ['update/*.ts', 'update/{1}.ts'],
  ['fulltext/*.ts', 'fulltext/{1}.ts'],
];

/**
 * Tests (paths relative to __tests__/xquery) mirror lib: a test named like a file of lib/xquery
 * in the same folder goes where that file goes; otherwise these entries decide, then the lib
 * patterns applied to the test's name, then a lib file of the same name elsewhere (if only one),
 * then the folder defaults below.
 */
const TEST_EXPLICIT = {
  'translate/leaf-predicates.test.ts': 'accelerators/leaf-filter/leaf-predicates.test.ts',
  'translate/predicate-literals.test.ts': 'accelerators/leaf-filter/predicate-literals.test.ts',
  'translate/leaf-aggregates.test.ts': 'accelerators/leaf-aggregates/leaf-aggregates.test.ts',
  'translate/leaf-values.test.ts': 'accelerators/leaf-columns/leaf-values.test.ts',
  'translate/paths-aggregate.test.ts': 'accelerators/leaf-aggregates/paths-aggregate.test.ts',
  'translate/paths-child.test.ts': 'accelerators/child-paths/paths-child.test.ts',
  'translate/paths-index.test.ts': 'accelerators/name-index/paths-index.test.ts',
  'translate/flwor-group-leaves.test.ts': 'accelerators/leaf-groups/flwor-group-leaves.test.ts',
  'documents/leaf-summaries.test.ts': 'accelerators/leaf-summaries/leaf-summaries.test.ts',
  'documents/value-index.test.ts': 'accelerators/value-index/value-index.test.ts',
  'documents/fulltext-index.test.ts': 'accelerators/fulltext-index/fulltext-index.test.ts',
  'documents/tree-accelerators.test.ts': 'accelerators/tree-accelerators.test.ts',
  'modules/pool.test.ts': 'host/pool-store.test.ts',
  'modules/helpers.ts': 'functions/helpers.ts',
  'runtime/errors.test.ts': 'worker/errors.test.ts',
  'runtime/helpers.ts': 'worker/helpers.ts',
  'worker/pool-documents.test.ts': 'host/pool-documents.test.ts',
  'worker/batches.test.ts': 'host/batches.test.ts',
  'worker/heap-limits.test.ts': 'host/heap-limits.test.ts',
  'prepared.test.ts': 'engine/prepared.test.ts',
};

/** Test folders with no lib counterpart of their own. */
const TEST_FOLDERS = [
  ['engine/*', 'engine/{1}'],
  ['runtime/*', 'worker/{1}'],
  ['worker/*', 'worker/{1}'],
  ['syntax/*', 'language/syntax/{1}'],
  ['analysis/*', 'language/analysis/{1}'],
  ['translate/*', 'language/translate/{1}'],
  ['modules/*', 'functions/{1}'],
  ['documents/*', 'worker/documents/{1}'],
  ['serialization/*', 'serialization/{1}'],
  ['update/*', 'update/{1}'],
  ['fulltext/*', 'fulltext/{1}'],
];

module.exports = { ACCELERATOR_HALVES, EXPLICIT, PATTERNS, TEST_EXPLICIT, TEST_FOLDERS };
