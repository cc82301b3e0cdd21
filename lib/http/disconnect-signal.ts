/**
 * The signal of a request whose client goes away: aborted when the connection closes before the
 * response was written, so that a query still running for it is stopped (its worker is replaced)
 * instead of spending CPU on an answer nobody reads. Every request gets one and almost none
 * fires, so it is a cancel switch (a plain object with a listener list, cancel-switch.ts): an
 * AbortController and its EventTarget cost more to make than the rest of a cached query's work on
 * this thread.
 */
import type { ServerResponse } from 'node:http';
import { CancelSwitch } from '../cancel-switch';

const SIGNAL = Symbol('xmldb-rest disconnect signal');

type WithSignal = ServerResponse & { [SIGNAL]?: DisconnectSignal };

/**
 * The one `close` listener of every response (no closure per request): a response closes once,
 * so it is added with `on`, which needs no wrapper to remove it again.
 */
function onResponseClose(this: WithSignal): void {
  if (!this.writableFinished) this[SIGNAL]?.abort();
}

export class DisconnectSignal extends CancelSwitch {
  constructor(res: ServerResponse) {
    super();
    (res as WithSignal)[SIGNAL] = this;
    res.on('close', onResponseClose);
  }
}
