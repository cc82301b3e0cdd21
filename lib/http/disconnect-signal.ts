/**
 * The signal of a request whose client goes away: aborted when the connection closes before the
 * response was written, so that a query still running for it is stopped (its worker is replaced)
 * instead of spending CPU on an answer nobody reads. Every request gets one and almost none
 * fires, so it is a plain object with a listener list: an AbortController and its EventTarget
 * cost more to make than the rest of a cached query's work on this thread.
 */
import type { ServerResponse } from 'node:http';
import type { CancelSignal } from '../xquery/worker/jobs';

const SIGNAL = Symbol('xmldb-rest disconnect signal');

type WithSignal = ServerResponse & { [SIGNAL]?: DisconnectSignal };

/**
 * The one `close` listener of every response (no closure per request): a response closes once,
 * so it is added with `on`, which needs no wrapper to remove it again.
 */
function onResponseClose(this: WithSignal): void {
  if (!this.writableFinished) this[SIGNAL]?.abort();
}

export class DisconnectSignal implements CancelSignal {
  aborted = false;
  private listeners: (() => void)[] = [];

  constructor(res: ServerResponse) {
    (res as WithSignal)[SIGNAL] = this;
    res.on('close', onResponseClose);
  }

  /** As AbortSignal's: a listener added after the abort is not called. */
  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.aborted) this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const i = this.listeners.indexOf(listener);
    if (i >= 0) this.listeners.splice(i, 1);
  }

  /** @internal the response's `close` listener. */
  abort(): void {
    this.aborted = true;
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }
}
