/**
 * The Node flags of the query host process (query-host.ts): its heap limit, and Node's
 * permission model as a seat belt (https://nodejs.org/api/permissions.html).
 *
 * With the permission model on, the process may not start child processes, load native addons,
 * use the inspector, or write files, and it may read only what it is granted:
 * - the package's own code (`dist/`, or `lib/` from source) and the `node_modules` folders its
 *   runtime dependencies resolve in (each as looked up and as its real path, for symlinked
 *   installs);
 * - from source only, the transpile cache of the TypeScript bootstrap (threads/launch.ts), which
 *   it may also write;
 * - every file when queries may read the host's files (the router option `allowFileAccess`):
 *   an admin's query reads files in that process.
 * The data folder (databases, `users.json`, `admin-password.txt`) is not granted: the host reads
 * the store through the server (store-channel.ts). Worker threads are allowed (`--allow-worker`):
 * the host runs its queries in them, and they inherit the process's permissions.
 *
 * `--expose-gc`: each query worker takes V8's `gc` from its global as it starts, and clears it
 * there (threads/collect-garbage.ts); without the flag it makes a context of its own to get it.
 *
 * `--no-parallel-scavenge`: a worker's young generation is small (launch.ts YOUNG_GENERATION_MB),
 * and a scavenge that hands its copying to V8's helper threads waits for them to get a core,
 * which the server, the client and the other workers hold on a small machine. Scavenges of
 * the host's threads over 1,000 never-seen FLWORs (the kit's row f, 2 cores): 61-62 ms in all
 * instead of 93-103, in as many scavenges.
 *
 * Node 20 names the switch `--experimental-permission`, Node 22.13 and later `--permission`; the
 * flag is taken from what this Node accepts. Each grant is a flag of its own (Node 20.20 and 22+
 * do not split a grant at commas); a folder is granted with everything below it.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { CODE_ROOT, FROM_SOURCE } from '../../threads/launch';
import { transpileCacheDir } from '../../threads/source-cache';

/** The packages the host process and its threads load (with what they load, found in the same folders). */
const HOST_DEPENDENCIES = ['saxon-js', 'lru-cache', 'htmlparser2', 'domhandler', 'csv-parse', 'fflate'] as const;

export interface HostFlagOptions {
  /** Old-generation heap of the process in MiB (`--max-old-space-size`). */
  readonly heapMb?: number;
  /** Queries may read the host's files: every file is readable. */
  readonly fileAccess?: boolean;
}

/** The switch of the permission model in this Node. */
export function permissionFlag(): string {
  return process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission';
}

/** The Node flags of a query host process. */
export function hostFlags(options: HostFlagOptions = {}): string[] {
  const flags = [permissionFlag(), '--allow-worker', '--expose-gc', '--no-parallel-scavenge'];
  // the model's start-up warnings (experimental; workers allowed) would be logged at every start
  if (process.allowedNodeEnvironmentFlags.has('--disable-warning')) flags.push('--disable-warning=ExperimentalWarning', '--disable-warning=SecurityWarning');
  if (options.fileAccess) flags.push('--allow-fs-read=*');
  else for (const folder of readableFolders()) flags.push(`--allow-fs-read=${folder}`);
  if (FROM_SOURCE) flags.push(`--allow-fs-write=${folderGrant(transpileCacheDir())}`);
  if (options.heapMb !== undefined) flags.push(`--max-old-space-size=${options.heapMb}`);
  return flags;
}

/** The folders the host may read: its code, its dependencies, and from source the bootstrap's. */
function readableFolders(): string[] {
  const folders = new Set<string>([CODE_ROOT]);
  const modules = FROM_SOURCE ? [...HOST_DEPENDENCIES, 'sucrase'] : HOST_DEPENDENCIES;
  // Node's own resolution from the package's code (a test runner may resolve modules its own way)
  const nodeRequire = createRequire(path.join(CODE_ROOT, 'index.js'));
  for (const name of modules) {
    const looked = (nodeRequire.resolve.paths(name) ?? []).find((folder) => fs.existsSync(path.join(folder, name)));
    if (looked) folders.add(nodeModulesOf(path.join(looked, name, 'x')) ?? looked);
    const folder = nodeModulesOf(nodeRequire.resolve(name));
    if (folder) folders.add(folder);
  }
  if (FROM_SOURCE) folders.add(transpileCacheDir());
  const grants = new Set<string>();
  for (const folder of folders) {
    grants.add(folderGrant(folder));
    grants.add(folderGrant(realpath(folder)));
  }
  return [...grants];
}

/**
 * The `node_modules` folder a resolved module file lies in: the outermost one above the file, so
 * that the packages installed next to a nested dependency are found too.
 */
function nodeModulesOf(file: string): string | undefined {
  const marker = `${path.sep}node_modules${path.sep}`;
  const i = file.indexOf(marker);
  return i < 0 ? undefined : file.slice(0, i + marker.length - 1);
}

/** A folder as a grant: with a trailing separator, which grants everything below it. */
function folderGrant(folder: string): string {
  return folder.endsWith(path.sep) ? folder : folder + path.sep;
}

function realpath(folder: string): string {
  try {
    return fs.realpathSync(folder);
  } catch {
    return folder; // not there (yet): the grant as given
  }
}
