/**
 * The router's databases for the host's own code, without HTTP: `rest.database.query(...)` and
 * friends call the same operations as the REST routes, on the router's engine, store, users and
 * locks. With `user`, a call has that user's permissions, as a request authenticated as that
 * user would; without, it runs as `admin` (the host's own code is trusted as its server is).
 * Failures reject with the `XmldbError` a request would have answered (its `status`, its message).
 */
import type { Readable } from 'node:stream';
import { raise } from './xmldb-error';
import { HTTP_ERRORS } from './http/status';
import { runCommand } from './operations/command';
import type { Runtime } from './operations/composition-root';
import { putDatabase } from './operations/create';
import { deleteTarget } from './operations/delete';
import { listDatabases } from './operations/list';
import { requireReadableDatabase } from './operations/permission';
import { evaluateQuery } from './operations/query';
import { retrieve } from './operations/retrieve';
import { storeResource } from './operations/store';
import type { Result, Session, Variable } from './operations/types';
import { runtimeOfUser } from './operations/guarded-store';

/** Who runs a call, and a signal that stops it (a running query is stopped, as for a client that went away). */
export interface CallOptions {
  /** A user of the router; default `admin`. */
  readonly user?: string | undefined;
  readonly signal?: AbortSignal | undefined;
}

export interface QueryOptions extends CallOptions {
  /** External variables: a value, or several for a sequence; cast to the declared type. */
  readonly variables?: Readonly<Record<string, string | readonly string[]>> | undefined;
  /** The context: a database (and a path in it), as in `/rest/DB/PATH?query=`, or an XML document. */
  readonly db?: string | undefined;
  readonly path?: string | undefined;
  readonly context?: string | undefined;
  /** Serialization parameters (`method`, `indent`, ...). */
  readonly serialization?: Readonly<Record<string, string>> | undefined;
}

export interface XmlDatabases {
  /** The serialized result of an XQuery. */
  query(text: string, options?: QueryOptions): Promise<string>;
  /** Stores a resource (XML, JSON, CSV, HTML converted by `contentType`, anything else as bytes); `path` '' creates (or replaces) the database. */
  put(db: string, path: string, body: string | Buffer, contentType: string, options?: CallOptions): Promise<void>;
  /** A stored resource: XML (converted ones too) as text, raw resources as bytes; a listing for a database or directory. */
  get(db: string, path: string, options?: CallOptions): Promise<string | Buffer>;
  /** Deletes the resources at or below `path`, or drops the database when `path` is ''; answers the message. */
  delete(db: string, path?: string, options?: CallOptions): Promise<string>;
  /** Runs one command (`LIST`, `CREATE USER ...`), with `db` opened; answers its output. */
  command(text: string, options?: CallOptions & { readonly db?: string | undefined }): Promise<string>;
  /** The `<databases>` listing of the databases the user may read. */
  list(options?: CallOptions): Promise<string>;
}

async function bodyOf(result: Result): Promise<Buffer> {
  const { body } = result;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (Buffer.isBuffer(body)) return body;
  const chunks: Buffer[] = [];
  for await (const chunk of body as Readable) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}

const textOf = async (result: Result): Promise<string> => (await bodyOf(result)).toString('utf8');

function variablesOf(input: QueryOptions['variables']): Map<string, Variable> {
  const variables = new Map<string, Variable>();
  for (const [name, value] of Object.entries(input ?? {})) {
    variables.set(name.startsWith('$') ? name.slice(1) : name, { values: typeof value === 'string' ? [value] : [...value] });
  }
  return variables;
}

const NO_OPTIONS = new Map();

export function databasesOf(runtime: () => Promise<Runtime>): XmlDatabases {
  const session = async (options: CallOptions = {}): Promise<Session> => {
    const rt = await runtime();
    // users and grants changed by another server sharing the store apply, as for a request
    await rt.users.sync();
    const name = options.user ?? 'admin';
    const user = rt.users.get(name);
    if (user === undefined) throw raise(HTTP_ERRORS, 'ACCESS_DENIED_X', name);
    // the same permission decision as a request of that user: where data is read and changed
    return { user, runtime: runtimeOfUser(rt, user), ...(options.signal ? { signal: options.signal } : {}) };
  };
  return {
    async query(text, options = {}) {
      const s = await session(options);
      if (options.db !== undefined) await requireReadableDatabase(s, options.db);
      return textOf(
        await evaluateQuery(s, {
          query: text,
          db: options.db,
          path: options.path ?? '',
          context: options.context === undefined ? [] : [options.context],
          variables: variablesOf(options.variables),
          serialization: options.serialization ?? {},
        }),
      );
    },
    async put(db, path, body, contentType, options) {
      const s = await session(options);
      const bytes = () => Promise.resolve(typeof body === 'string' ? Buffer.from(body, 'utf8') : body);
      if (path === '') await putDatabase(s, db, bytes, contentType, NO_OPTIONS);
      else await storeResource(s, db, path, bytes, contentType, NO_OPTIONS);
    },
    async get(db, path, options) {
      const result = await retrieve(await session(options), db, path, {});
      const bytes = await bodyOf(result);
      return result.contentType.startsWith('application/xml') ? bytes.toString('utf8') : bytes;
    },
    async delete(db, path = '', options) {
      return textOf(await deleteTarget(await session(options), db, path));
    },
    async command(text, options = {}) {
      return textOf(await runCommand(await session(options), text, { db: options.db, serialization: {}, options: NO_OPTIONS, variables: new Map() }));
    },
    async list(options) {
      return textOf(await listDatabases(await session(options), {}));
    },
  };
}
