/**
 * The runtime patches of saxon-js 2.7.0, one per file in this folder. Each checks first that it
 * finds saxon-js 2.7.0's code, and throws otherwise. saxon-js is one module per thread, shared
 * with the host application on the main thread, so the patches are applied only in threads that
 * run queries, never by importing the package:
 * - `applyQueryPatches` (saxon-js's host bindings removed before anything is compiled; output,
 *   namespace, closure and function-type fixes; element names and comparers kept, string order
 *   without arrays, child contexts without discarded objects, document order of stored nodes by
 *   row), first thing in a query worker
 *   (lib/xquery/worker/thread.ts);
 * - `guardPlatformResources` (platform-resources.ts), by the resource guard of query workers
 *   (lib/xquery/worker/guards/resource-guard.ts);
 * - `sealHostGlobal` (host-global.ts) and `guardDomReceivers` (dom-receivers.ts), by the host
 *   wall once the worker has loaded (lib/xquery/worker/host-wall.ts).
 *
 * Other patches change functions that no object reaches, and so are applied to the script's text
 * as it is loaded, in every thread that loads it from the code cache (../load.ts): the source
 * patches (source.ts), which change speed only.
 */
import { patchClosureVariables } from './closure-variables';
import { patchComparers } from './comparers';
import { patchDefaultNamespaceUndeclaration } from './default-namespace-undeclaration';
import { patchDocumentOrder } from './document-order';
import { patchElementNames } from './element-names';
import { patchFloatToString } from './float-to-string';
import { patchFunctionTypeCodes } from './function-type-codes';
import { removeHostBindings } from './host-bindings';
import { patchLightContexts } from './light-contexts';
import { patchNamespaceUriCheck } from './namespace-uri-check';
import { patchStringOrder } from './string-order';

/** Removes the host bindings, then applies the output, namespace, closure, function-type and speed patches (idempotent). */
export function applyQueryPatches(): void {
  removeHostBindings(); // first: the other patches compile their probes
  patchFloatToString();
  patchDefaultNamespaceUndeclaration();
  patchNamespaceUriCheck();
  patchClosureVariables();
  patchFunctionTypeCodes();
  patchElementNames();
  patchComparers();
  patchStringOrder();
  patchLightContexts();
  patchDocumentOrder();
}
