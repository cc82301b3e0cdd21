/**
 * Byte arrays across an offload thread's messages (offload.ts, offload-thread.ts): moved rather
 * than cloned where they own their memory, and Buffers again on arrival (structured clone turns a
 * Buffer into a plain Uint8Array).
 */

/** Whether `a` owns its whole memory (as a large Buffer does), so that moving its memory moves nothing else. */
function ownsMemory(a: Uint8Array): boolean {
  return a.byteOffset === 0 && a.byteLength === a.buffer.byteLength && a.buffer instanceof ArrayBuffer;
}

/** The memory of `value`, if a byte array, or of its own fields that are, when they own it. */
export function movableMemory(value: unknown): ArrayBuffer[] {
  const fields = value instanceof Uint8Array ? [value] : typeof value === 'object' && value !== null ? Object.values(value) : [];
  return fields.filter((f): f is Uint8Array => f instanceof Uint8Array && ownsMemory(f)).map((f) => f.buffer as ArrayBuffer);
}

/** `value` with a byte array, or its own fields that are byte arrays, as Buffers. */
export function reviveBuffers(value: unknown): unknown {
  if (value instanceof Uint8Array) return asBuffer(value);
  // a plain object, of whichever realm received the message
  if (Object.prototype.toString.call(value) !== '[object Object]') return value;
  const entries = Object.entries(value as object);
  if (!entries.some(([, v]) => v instanceof Uint8Array && !Buffer.isBuffer(v))) return value;
  return Object.fromEntries(entries.map(([k, v]) => [k, v instanceof Uint8Array ? asBuffer(v) : v]));
}

function asBuffer(a: Uint8Array): Buffer {
  return Buffer.isBuffer(a) ? a : Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}
