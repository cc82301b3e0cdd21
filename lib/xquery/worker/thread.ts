/**
 * The body of a query worker thread: compiles (into its own cache) and runs what the pool
 * sends, and answers with text. Loaded as `thread.js` from dist/, or through the TypeScript
 * bootstrap from source (see host/launch.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { QueryCompiler, compiledFromText, type CompiledQuery } from './compile';
import { compileKept } from './sef-disk-cache';
import { evaluate, evaluateFirst, evaluateXPath } from './evaluate';
import { isDatabaseAccess } from './documents/database-access';
import { registerExtensionFunctions } from '../functions/extension-functions';
import { serialize } from '../serialization/serialize';
import { applyPendingUpdates } from '../update/pending-update-list';
import { installResourceGuard, withFileAccess } from './guards/resource-guard';
import { withAccount } from '../functions/support/account';
import { NO_DOCUMENTS, type DocumentSource } from './documents/source';
import { StoreSource } from './documents/store-source';
import type { WorkerReaderSpec } from '../../store/types';
import { openWorkerReader } from './store-reader';
import { TaskClaim } from '../protocol/task-claim';
import { QueryError, resultTooLargeError, toQueryError, xmlParserMessage } from '../query-error';
import { parseToSaxonDocument, type XdmNode, type XdmValue } from '../../saxon';
import { applyQueryPatches } from '../../saxon/patches';
import { keepWarmCodeCaches } from '../../saxon/code-cache';
import { prepareXPathPlans } from '../../saxon/xpath-plan';
import { resolveRange } from '../../range-requests';
import { parseToStoredXml, parseToCompactDom } from '../../convert/xml';
import { hasAstralCharacters } from '../../convert/astral-names';
import { raiseHostWall } from './host-wall';
import { beforeCollecting, collectIfGrown, collectSoon, postponeCollection, prepareCollection } from '../../threads/collect-garbage';
import { connectRunLimit, resetRunLimits } from './run-limit';
import type { EvictMessage, ItemPage, LimitMessage, PostedTask, ReadyMessage, Reply, RunTask, Task, WorkerInit } from '../protocol/protocol';

applyQueryPatches();
registerExtensionFunctions();
prepareXPathPlans();
const init = workerData as WorkerInit;
/** The task being performed: a lower time limit it asks for, and its store requests, are about it (run-limit.ts, store-channel.ts). */
let currentTask = 0;
/** Whether the pool took back a task of a batch before this worker got to it (task-claim.ts). */
const claim = init.claim ? new TaskClaim(init.claim) : undefined;
installResourceGuard();
const compiler = new QueryCompiler({ max: init.cacheMax });
const source = openSource(init);
/** The store source's parsed documents: the pool keeps one budget for all workers' caches. */
const store = source instanceof StoreSource ? source : undefined;
const documents = store?.cache;
if (store) beforeCollecting(() => store.parsed.renewViews());
/** `documents.changes` when the pool last heard what this worker holds. */
let reported = 0;
/**
 * What this worker has done of the two things a warm code cache is made after
 * (code-cache.ts `keepWarmCodeCaches`, which makes it once): compiled a stylesheet, run one.
 */
const warmedBy = { compiled: false, ran: false };

/** The store source the init data asks for (reading the files of `dbPath` unless it names a reader), or none. */
function openSource(init: WorkerInit): DocumentSource {
  const spec = init.documentSource;
  if (!spec) return NO_DOCUMENTS;
  const reader: WorkerReaderSpec | undefined = spec.reader ?? (init.dbPath ? { kind: 'files', dbPath: init.dbPath } : undefined);
  if (!reader) throw new Error('The store document source needs a worker reader or WorkerInit.dbPath.');
  return new StoreSource({ reader: openWorkerReader(reader, init, () => currentTask), cacheBytes: spec.cacheBytes });
}

/** The source for one run: the source's run view if it has one (database context = default collection). */
function runSource(task: RunTask): DocumentSource {
  const ctx = task.context;
  const database = ctx && 'kind' in ctx && ctx.kind === 'database' ? { db: ctx.db, path: ctx.path ?? '' } : task.database;
  const versions = task.versions ? new Map(task.versions) : undefined;
  return source.forRun?.(database, task.readable, versions) ?? source;
}

function contextNodes(task: RunTask, source: DocumentSource): XdmNode[] | undefined {
  const ctx = task.context;
  if (!ctx) return undefined;
  if ('kind' in ctx) {
    const path = ctx.path ?? '';
    if (source.getDatabaseContext) return source.getDatabaseContext(ctx.db, path);
    const docs = source.getCollection(path ? `${ctx.db}/${path}` : ctx.db);
    if (!docs) throw new QueryError({ code: 'FODC0002', message: `Database '${ctx.db}' was not found.`, status: 500, phase: 'evaluate' });
    return docs;
  }
  if ('xml' in ctx) {
    return ctx.xml.map((text) => {
      try {
        // saxon-js's parser rejects names beyond the BMP: such contexts go through ours (convert/astral-names.ts)
        return hasAstralCharacters(text) ? (parseToCompactDom(parseToStoredXml(text).xml) as XdmNode) : parseToSaxonDocument(text);
      } catch (e) {
        const message = e instanceof Error ? xmlParserMessage(e.message) : String(e);
        throw new QueryError({ code: 'FODC0006', message: `Context is not well-formed XML: ${message}`, status: 500, phase: 'evaluate' });
      }
    });
  }
  return ctx.documents.map((uri) => {
    const doc = source.getDocument(uri);
    if (!doc) throw new QueryError({ code: 'FODC0002', message: `Resource "${uri}" does not exist.`, status: 500, phase: 'evaluate' });
    return doc;
  });
}

/**
 * The serialized result; a paged run serializes only the items of its range (the same
 * parameters and item separator as the whole result) and counts all of them.
 */
function serialized(value: XdmValue, task: RunTask): { body: string; page?: ItemPage; serializeMs: number } {
  const started = performance.now();
  const result = serializedPage(value, task);
  return { ...result, serializeMs: performance.now() - started };
}

function serializedPage(value: XdmValue, task: RunTask): { body: string; page?: ItemPage } {
  if (task.items === undefined) return { body: bounded(serialize(value, task.serialization)) };
  const total = value.length;
  const range = resolveRange(task.items, total);
  if (range === undefined) return { body: '', page: { total } };
  return { body: bounded(serialize(value.slice(range.start, range.end + 1), task.serialization)), page: { range, total } };
}

/**
 * A result is checked here, before it is copied to the main thread: a huge result costs this
 * worker's bounded heap, never the server's. A string's UTF-16 length bounds its UTF-8 size from
 * below, so the exact count is needed only near the limit.
 */
function bounded(body: string): string {
  const limit = init.maxResultBytes;
  if (limit !== undefined && body.length > limit / 3 && (body.length > limit || Buffer.byteLength(body, 'utf8') > limit)) {
    throw resultTooLargeError(limit);
  }
  return body;
}

function handle(task: Task): Reply {
  currentTask = task.id;
  resetRunLimits();
  if (task.kind === 'compile') return withFileAccess(false, () => perform(task));
  return withAccount(task.account, () => withFileAccess(task.fileAccess === true, () => perform(task)));
}

function perform(task: Task): Reply {
  const started = performance.now();
  try {
    if (task.kind === 'compile') {
      const compiled = compileKept(task.xslt, task.options);
      compiler.adopt(compiled);
      warmedBy.compiled = true;
      return { id: task.id, ok: true, key: compiled.key, sefText: compiled.sefText, baseUri: compiled.baseUri, ms: performance.now() - started };
    }
    let compiled: CompiledQuery | undefined;
    if (task.xpath === undefined && !task.firstOnly) {
      const key = task.key ?? '';
      compiled = compiler.lookup(key);
      if (!compiled) {
        if (task.sefText === undefined) return { id: task.id, ok: false, missing: true };
        compiled = compiledFromText(key, task.sefText, task.baseUri);
        compiler.adopt(compiled);
      }
    }
    const run = runSource(task);
    const options = { initialTemplate: task.initialTemplate, params: task.params, context: contextNodes(task, run), source: run };
    const tried = task.first && evaluateFirst(task.first, task.baseUri, options);
    if (tried === undefined && task.firstOnly) return { id: task.id, ok: true, declined: true, ms: performance.now() - started };
    const value = tried ?? (compiled === undefined ? evaluateXPath(task.xpath ?? '', task.baseUri, options, task.xpathShape) : evaluate(compiled, options));
    if (tried === undefined && compiled !== undefined) warmedBy.ran = true;
    if (task.update) {
      // an updating query: apply its pending updates to copies, answer output and store changes
      const outcome = applyPendingUpdates(value, isDatabaseAccess(run) ? run : undefined);
      const result = serialized(outcome.output, task);
      return { id: task.id, ok: true, ...result, changes: outcome.changes, ms: performance.now() - started };
    }
    const result = serialized(value, task);
    return { id: task.id, ok: true, ...result, ms: performance.now() - started };
  } catch (e) {
    return { id: task.id, ok: false, error: toQueryError(e, task.kind === 'compile' ? 'compile' : 'evaluate').toData() };
  }
}

// everything is loaded: from here on no JavaScript is compiled from strings
prepareCollection();
raiseHostWall();
connectRunLimit((limit) => parentPort!.postMessage({ id: currentTask, limit } satisfies LimitMessage));
// A batch: the tasks are performed in order, each answered as soon as it is done; one the pool
// took back before this worker got to it (task-claim.ts) is skipped without a word.
parentPort!.on('message', (message: readonly PostedTask[] | EvictMessage) => {
  if ('evict' in message) {
    for (const db of message.evict) store?.evict(db);
    collectSoon();
    return;
  }
  for (const task of message) {
    if (claim && !claim.begin(task.seq)) continue;
    postponeCollection();
    parentPort!.postMessage(withHoldings(handle(task)));
    // after the reply, off its latency
    if (warmedBy.compiled && warmedBy.ran) keepWarmCodeCaches();
    if (store?.parsed.renewalDue) collectSoon();
    else collectIfGrown();
  }
});

/** A reply, with what this worker holds when that changed since the pool last heard it. */
function withHoldings(reply: Reply): Reply {
  if (!documents || documents.changes === reported) return reply;
  reported = documents.changes;
  return { ...reply, held: documents.databases() };
}
parentPort!.postMessage({ ready: true } satisfies ReadyMessage);
