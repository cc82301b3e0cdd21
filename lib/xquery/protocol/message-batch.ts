/**
 * Messages to another process sent once per turn of the event loop, as one array: a burst of
 * queries costs one IPC write (and one wake-up of the other side) instead of one per message.
 */
export interface MessageBatch<M> {
  /** Queues a message; the batch goes out at the end of this turn of the event loop. */
  push(message: M): void;
  /** Sends what is queued now. */
  flush(): void;
}

/** `send` gets each batch; `last` (optional) adds a message at the end of every batch. */
export function messageBatch<M>(send: (messages: M[]) => void, last?: () => M): MessageBatch<M> {
  let queued: M[] = [];
  let due: NodeJS.Immediate | null = null;
  const flush = () => {
    if (due) clearImmediate(due);
    due = null;
    if (queued.length === 0) return;
    const messages = queued;
    queued = [];
    if (last) messages.push(last());
    send(messages);
  };
  return {
    push(message) {
      queued.push(message);
      due ??= setImmediate(flush);
    },
    flush,
  };
}
