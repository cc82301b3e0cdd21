/**
 * One query host (query-host.ts) for all the engines of this process whose host settings are
 * equal: the pool options and Node flags (query-host.ts `hostSettings`: workers, time limit,
 * caches, queue, heap, result size, file access) and the very same output function (the router's
 * logger: a host's worker output cannot be told apart by engine, so engines share a host only
 * when their output goes to the same place). Two routers mounted in one application thus run
 * their queries in one child process and one set of warm worker threads, not two.
 *
 * - Reference-counted: the host is stopped when the last engine using it closes. An engine that
 *   closes ends its own jobs only (they fail with `query pool closed` and are cancelled in the
 *   host); the others' jobs run on.
 * - Jobs carry everything that differs between engines: their view (whose reads the host asks
 *   of the server: it reads no stored file itself), the databases they may read, the account,
 *   their time limit. A host that ends fails the jobs it was running, whoever's, and the next
 *   job of any engine starts a new one.
 * - The workers cache catalogs and parsed documents by database version (store/types.ts
 *   "Versions and etags"). Versions are unique within a store, but two stores in one process may
 *   repeat them (a data folder copied to another): each engine's versions reach the host with a
 *   prefix of its own, so no engine is answered from another's catalog. Etags need no prefix:
 *   an etag names one content, so a copied folder's equal etag is the same document.
 * - Test harnesses may keep idle hosts (`keepIdleHosts`): a host whose last engine closed then
 *   stays, idle and not keeping the process alive, for the next engine with equal settings. They
 *   may also keep the processes of the idle hosts stopped then (query-host.ts KeptHosts) for the
 *   next instance of this module (jest's next test file): a process thus serves engines of several
 *   instances, whose numbers would repeat, so each instance's version prefixes start with a random
 *   token of its own.
 */
import { randomBytes } from 'node:crypto';
import type { QueryJob, QueryOutcome } from '../host/jobs';
import type { WorkerOutput } from '../host/launch';
import { hostSettings, QueryHost, type QueryHostOptions } from './query-host';
import type { KeptHosts } from './kept-hosts';
import type { ChannelView } from '../protocol/store-channel';
import { partsView, type PartsView } from '../protocol/bytes-in-parts';

/** What an engine runs its queries on: its share of a query host. */
export interface QueryRunner {
  run(job: QueryJob): Promise<QueryOutcome>;
  compiledOrAhead(xslt: string): boolean;
  compiledAhead(): Promise<void>;
  close(): Promise<void>;
}

interface Entry {
  readonly host: QueryHost;
  users: number;
}

/** The hosts by key: their output function's number and their settings. */
const hosts = new Map<string, Entry>();
/** A number for each output function (0: none, the process's streams). */
const outputs = new WeakMap<WorkerOutput, number>();
/** Set while idle hosts are kept (`keepIdleHosts`). */
let keepIdle = false;
/** Where the processes of idle hosts go when they stop (`keepIdleHosts`). */
let keptProcesses: KeptHosts | undefined;
/** Numbers given so far: each engine's version prefix, each output function's, each own host's. */
let numbered = 0;
/** Begins this instance's version prefixes (see the file comment). */
const INSTANCE = randomBytes(6).toString('base64url');

export interface SharedHostOptions extends QueryHostOptions {
  /** A host of this engine's own, shared with no other (the router option `ownQueryHost`). */
  readonly own?: boolean;
}

/** A share of the host with `options`' settings, started with the first job of any engine using it. */
export function openQueryHost({ own, ...options }: SharedHostOptions): QueryRunner {
  const key = own ? `own ${++numbered}` : hostKey(options);
  let entry = hosts.get(key);
  if (!entry) hosts.set(key, (entry = { host: new QueryHost(own || !keptProcesses ? options : { ...options, kept: keptProcesses }), users: 0 }));
  entry.users++;
  const shared = entry;
  return new HostShare(shared.host, `${INSTANCE}.${++numbered}/`, () => {
    shared.users--;
    if (shared.users > 0 || (keepIdle && !own)) return Promise.resolve();
    hosts.delete(key);
    return shared.host.close();
  });
}

/**
 * Whether a host whose last engine closed stays, idle, for the next engine with equal settings
 * (test harnesses: one host for the routers that the tests of a file open and close one after
 * another). Turning it off stops the hosts that are idle now; production closes a host with its
 * last engine. `kept`: from now on, shared hosts hand their processes there when they stop idle
 * (test harnesses: for the next test file), rather than ending them.
 */
export async function keepIdleHosts(keep: boolean, kept?: KeptHosts): Promise<void> {
  keepIdle = keep;
  keptProcesses = kept;
  if (keep) return;
  const idle: QueryHost[] = [];
  for (const [key, entry] of hosts) {
    if (entry.users > 0) continue;
    hosts.delete(key);
    idle.push(entry.host);
  }
  await Promise.all(idle.map((host) => host.close()));
}

/** Equal for equal settings and the same output function (see the file comment). */
function hostKey(options: QueryHostOptions): string {
  const { pool, flags } = hostSettings(options);
  let output = 0;
  if (options.output) {
    output = outputs.get(options.output) ?? ++numbered;
    outputs.set(options.output, output);
  }
  return JSON.stringify([output, flags, canonical(pool)]);
}

/** One engine's share of a host. */
class HostShare implements QueryRunner {
  private closed = false;

  constructor(
    private readonly host: QueryHost,
    /** Put before this engine's database versions (see the file comment). */
    private readonly prefix: string,
    private readonly released: () => Promise<void>,
  ) {}

  run(job: QueryJob): Promise<QueryOutcome> {
    if (this.closed) return Promise.reject(new Error('query pool closed'));
    const { view, versions } = job;
    return this.host.run({ ...job, view: view && this.prefixed(view), versions: versions && this.tagged(versions) }, this);
  }

  compiledOrAhead(xslt: string): boolean {
    return !this.closed && this.host.compiledOrAhead(xslt);
  }

  compiledAhead(): Promise<void> {
    return this.host.compiledAhead();
  }

  /** Compilations the host's pool sent to its workers, for every engine sharing it (query-host.ts). */
  get compilations(): number {
    return this.host.compilations;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.host.release(this);
    await this.released();
  }

  private tagged(versions: ReadonlyMap<string, string>): Map<string, string> {
    const tagged = new Map<string, string>();
    for (const [db, version] of versions) tagged.set(db, this.prefix + version);
    return tagged;
  }

  /** `view` with this engine's versions. */
  private prefixed(view: ChannelView): ChannelView {
    return {
      versions: async (dbs) => this.tagged(await view.versions(dbs)),
      listResources: (db) => view.listResources(db),
      database: (db) => view.database(db),
      readBytes: (db, path) => view.readBytes(db, path),
      ...(view.readMany ? { readMany: (db: string, paths: readonly string[], maxBytes: number) => view.readMany!(db, paths, maxBytes) } : {}),
      fullText: async (db, lookup) => view.fullText?.(db, lookup),
      ...(view.summaries ? { summaries: (db: string, etags: readonly string[]) => view.summaries!(db, etags) } : {}),
      ...partsOf(view),
    };
  }
}

/** The reads of `view` that send large files in parts (bytes-in-parts.ts), if it has them. */
function partsOf(view: ChannelView): Partial<PartsView> {
  const parts = partsView(view);
  return parts ? { resource: (db, path) => parts.resource(db, path), openStream: (db, path, range) => parts.openStream(db, path, range) } : {};
}

/** `value` with the keys of its objects sorted, so that equal settings give equal keys. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) sorted[key] = canonical(v);
  }
  return sorted;
}
