/**
 * Cancelling a query run: the signal a run listens to (what an AbortSignal offers of it), and a
 * cancel switch, a signal that is a plain object with a listener list. Every job gets one and
 * almost none fires: an AbortController and its EventTarget cost more to make, and to add a
 * listener to and remove it from, than the rest of a short query's hand-over to a worker.
 */

/** What a run needs of a cancel signal: an AbortSignal, or a `CancelSwitch`. */
export interface CancelSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

export class CancelSwitch implements CancelSignal {
  aborted = false;
  private listeners: (() => void)[] = [];

  /** As AbortSignal's: a listener added after the abort is not called; each is called once. */
  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.aborted) this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const i = this.listeners.indexOf(listener);
    if (i >= 0) this.listeners.splice(i, 1);
  }

  /** Aborts once: calls the listeners, then forgets them. */
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }
}
