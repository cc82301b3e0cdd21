/**
 * The body of a query worker thread: compiles (into its own cache) and runs what the pool
 * sends, and answers with text. Loaded as `thread.js` from dist/, or through the TypeScript
 * bootstrap from source (see launch.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { QueryCompiler, compileUncached, compiledFromText } from '../compile';
import { evaluateSerialized } from '../evaluate';
import { NO_DOCUMENTS, type DocumentSource } from '../runtime/documents';
import { QueryError, toQueryError } from '../runtime/errors';
import { parseXml, type XdmNode } from '../runtime/saxon';
import type { Reply, RunTask, Task, WorkerInit } from './protocol';

/** What a DocumentSource module exports (the store's synchronous reader will be one). */
export type DocumentSourceFactory = (init: WorkerInit) => DocumentSource;

const init = workerData as WorkerInit;
const compiler = new QueryCompiler({ max: init.cacheMax });
const source = openSource(init);

function openSource(init: WorkerInit): DocumentSource {
  if (!init.documentSource) return NO_DOCUMENTS;
  const mod = require(init.documentSource.module) as { createDocumentSource: DocumentSourceFactory };
  return mod.createDocumentSource(init);
}

function contextNodes(task: RunTask): XdmNode[] | undefined {
  const ctx = task.context;
  if (!ctx) return undefined;
  if ('xml' in ctx) {
    return ctx.xml.map((text) => {
      try {
        return parseXml(text);
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
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

function handle(task: Task): Reply {
  const started = performance.now();
  try {
    if (task.kind === 'compile') {
      const compiled = compileUncached(task.xslt, task.options);
      compiler.adopt(compiled);
      return { id: task.id, ok: true, key: compiled.key, sefText: compiled.sefText, baseUri: compiled.baseUri, ms: performance.now() - started };
    }
    let compiled = compiler.lookup(task.key);
    if (!compiled) {
      compiled = compiledFromText(task.key, task.sefText, task.baseUri);
      compiler.adopt(compiled);
    }
    const body = evaluateSerialized(
      compiled,
      { initialTemplate: task.initialTemplate, params: task.params, context: contextNodes(task), source },
      task.serialization,
    );
    return { id: task.id, ok: true, body, ms: performance.now() - started };
  } catch (e) {
    return { id: task.id, ok: false, error: toQueryError(e, task.kind === 'compile' ? 'compile' : 'evaluate').toData() };
  }
}

parentPort!.on('message', (task: Task) => {
  parentPort!.postMessage(handle(task));
});
