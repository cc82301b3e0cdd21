import { XmldbError } from '../../lib/errors';

/** The XmldbError a call throws: its catalog code, status and message, for asserting together. */
export function failure(fn: () => unknown): { code?: string; status: number; message: string } {
  try {
    fn();
  } catch (e) {
    if (e instanceof XmldbError) return { code: e.code, status: e.status, message: e.message };
    throw e;
  }
  throw new Error('expected an error');
}
