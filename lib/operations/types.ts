/** What operations take and give: a session (who asks, on which runtime) and a result. */
import type { Readable } from 'node:stream';
import type { User } from '../users/user-store';
import type { Runtime } from './composition-root';
import type { CancelSignal } from '../xquery/engine/engine';

export interface Session {
  readonly user: User;
  readonly runtime: Runtime;
  /** Aborted when the client goes away before its answer: queries in flight are stopped. */
  readonly signal?: CancelSignal;
}

/** An external variable binding of a request (spec §9.1). */
export interface Variable {
  /** Values in order; several values bind a sequence. */
  readonly values: readonly string[];
  /** Sequence type the values are cast to (POST `type` attribute). */
  readonly type?: string;
}

export interface Result {
  readonly status: number;
  /** Full Content-Type value, charset included where it applies. */
  readonly contentType: string;
  readonly body: string | Buffer | Readable;
  readonly headers?: Readonly<Record<string, string>>;
}

export const TEXT = 'text/plain; charset=UTF-8';
export const XML = 'application/xml; charset=UTF-8';

export function textResult(status: number, body: string): Result {
  return { status, contentType: TEXT, body };
}
