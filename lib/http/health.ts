/** Health of a router's runtime: the store answers a read and a query worker answers a query. */
import type { Runtime } from '../operations/composition-root';

async function probe(runtime: Runtime): Promise<boolean> {
  await (runtime.store.ping?.() ?? runtime.store.read([], async () => undefined));
  const { body } = await runtime.engine.evaluate({ query: '1', context: { kind: 'none' }, variables: new Map(), serialization: {} });
  return body === '1';
}

/** True when both answer within `timeoutMs` (a worker busy for longer counts as not answering). */
export async function checkHealth(runtime: Runtime, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([probe(runtime).catch(() => false), late]);
  } finally {
    clearTimeout(timer);
  }
}
