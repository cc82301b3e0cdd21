import { XmldbError } from '../../lib/xmldb-error';

/** An error class, whatever its constructor takes. */
type ErrorClass<E> = abstract new (...args: never[]) => E;

/** The error of class `type` a call throws; another error is thrown on, and no error fails the test. */
export function thrown<E>(fn: () => unknown, type: ErrorClass<E>): E {
  try {
    fn();
  } catch (e) {
    if (e instanceof type) return e;
    throw e;
  }
  throw new Error('expected an error');
}

/** The error of class `type` an asynchronous call rejects with, as `thrown` does for a call. */
export async function rejection<E>(fn: () => Promise<unknown>, type: ErrorClass<E>): Promise<E> {
  try {
    await fn();
  } catch (e) {
    if (e instanceof type) return e;
    throw e;
  }
  throw new Error('expected an error');
}

/** The XmldbError a call throws: its catalog code, status and message, for asserting together. */
export function failure(fn: () => unknown): { code?: string; status: number; message: string } {
  const e = thrown(fn, XmldbError);
  return { code: e.code, status: e.status, message: e.message };
}
