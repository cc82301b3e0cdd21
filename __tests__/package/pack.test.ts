/**
 * The package as hosts get it: `npm pack` (which builds dist/ through `prepack`) in a copy of the
 * checkout, the tarball unpacked into host projects, and strict TypeScript hosts compiled against
 * it (skipLibCheck off, so the published declarations are checked too): CommonJS and ES modules,
 * with and without esModuleInterop, with Express 5's and Express 4's typings, and a plain Node HTTP
 * host that has no Express typings at all.
 * Offline: the hosts get this repository's installed packages through symlinks, never npm install.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { tempDir } from '../helpers/temp-dir';

const run = promisify(execFile);
const ROOT = path.join(__dirname, '..', '..');
const MODULES = path.join(ROOT, 'node_modules');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};

const EXPRESS_HOST = (importExpress: string) => `${importExpress}
import { createRestRouter, XmldbError, type RestOptions, type RestRouter } from 'xmldb-rest';

const options: RestOptions = { dbPath: './data', queryTimeout: 5000 };
const router: RestRouter = createRestRouter(options);
const app = express();
app.use('/rest', router);
app.use('/users', createRestRouter({ authenticate: (req: express.Request) => req.get('x-user') }));
app.use(express.Router().use('/other', createRestRouter()));
const ready: Promise<void> = router.ready();
const closed: Promise<void> = router.close();
const failure: string | undefined = new XmldbError(400, 'message', 'X').code;
export { app, ready, closed, failure };
`;

const PLAIN_HOST = `import * as http from 'node:http';
import { createRestRouter } from 'xmldb-rest';

const router = createRestRouter({ dbPath: './data' });
export const server = http.createServer((req, res) =>
  router(req, res, (error?: unknown) => {
    res.statusCode = error === undefined ? 404 : 500;
    res.end();
  }),
);
`;

interface Host {
  readonly name: string;
  readonly type: 'commonjs' | 'module';
  readonly compilerOptions: Record<string, unknown>;
  readonly source: string;
  /** The typings linked as node_modules/@types/express: Express 5's, Express 4's, or none. */
  readonly expressTypes?: '@types/express' | '@types/express4';
}

const COMMONJS = { module: 'commonjs', moduleResolution: 'node10' };
const NODE16 = { module: 'node16', moduleResolution: 'node16' };
const DEFAULT_IMPORT = "import express from 'express';";

/** A host: `type` of its package.json, module settings, esModuleInterop, source, typings. */
function host(name: string, type: Host['type'], modules: object, esModuleInterop: boolean, source: string, expressTypes?: Host['expressTypes']): Host {
  return { name, type, compilerOptions: { ...modules, esModuleInterop }, source, expressTypes };
}

const HOSTS: readonly Host[] = [
  host('commonjs-interop', 'commonjs', COMMONJS, true, EXPRESS_HOST(DEFAULT_IMPORT), '@types/express'),
  host('commonjs-no-interop', 'commonjs', COMMONJS, false, EXPRESS_HOST("import express = require('express');"), '@types/express'),
  host('esm-interop', 'module', NODE16, true, EXPRESS_HOST(DEFAULT_IMPORT), '@types/express'),
  host('esm-no-interop', 'module', NODE16, false, EXPRESS_HOST(DEFAULT_IMPORT), '@types/express'),
  host('express4-types', 'commonjs', COMMONJS, true, EXPRESS_HOST(DEFAULT_IMPORT), '@types/express4'),
  host('plain-node-without-express-types', 'commonjs', NODE16, false, PLAIN_HOST),
];

/**
 * Copies the checkout into `to` for `npm pack`: the files git lists as tracked or untracked but
 * not ignored (the sources, package.json, .gitignore, which `npm pack` honours when there is no
 * .npmignore), without dist/, with this repository's node_modules linked in for the build. The
 * build then writes the copy's dist/: the checkout's own is never removed or half-written under a
 * server, benchmark or QT3 run started from it while the tests run. Files git ignores are left
 * out, as `npm pack` leaves them out unless package.json's `files` names them (it names dist/
 * only, which the build makes).
 */
async function copyCheckout(to: string): Promise<void> {
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  for (const file of stdout.split('\0')) {
    // --cached also lists tracked files deleted from the working tree, which `npm pack` would not see.
    if (file === '' || file === 'dist' || file.startsWith('dist/') || !fs.existsSync(path.join(ROOT, file))) continue;
    fs.mkdirSync(path.dirname(path.join(to, file)), { recursive: true });
    fs.copyFileSync(path.join(ROOT, file), path.join(to, file));
  }
  fs.symlinkSync(MODULES, path.join(to, 'node_modules'), 'dir');
}

/**
 * Links `name` of this repository's node_modules into a host as `as`. Packages resolve their own
 * dependencies from their real path, so one link brings what a package needs along.
 */
function link(hostModules: string, name: string, as = name): void {
  const target = path.join(hostModules, as);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.symlinkSync(path.join(MODULES, name), target, 'dir');
}

/** A host project with the unpacked package and links to the packages it needs. */
function makeHost(base: string, unpacked: string, host: Host): void {
  const dir = path.join(base, host.name);
  const modules = path.join(dir, 'node_modules');
  fs.mkdirSync(modules, { recursive: true });
  fs.cpSync(unpacked, path.join(modules, pkg.name), { recursive: true });
  for (const name of [...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies), '@types/node']) link(modules, name);
  if (host.expressTypes !== undefined) link(modules, host.expressTypes, '@types/express');
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `host-${host.name}`, private: true, type: host.type }));
  const compilerOptions = { strict: true, skipLibCheck: false, noEmit: true, target: 'ES2022', types: ['node'], ...host.compilerOptions };
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['host.ts'] }));
  fs.writeFileSync(path.join(dir, 'host.ts'), host.source);
}

/**
 * A host's diagnostics: those of its own file and of the package's declarations ('' when there are
 * none), as `tsc -p` with skipLibCheck off reports them for those files. Other declarations
 * (@types/node, @types/express) are not the package's to check, and checking them in every host
 * would cost seconds each; parsed files are shared between the hosts.
 */
function compile(dir: string, parsed: Map<string, ts.SourceFile>): string {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(dir, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (config === undefined) throw new Error(`no tsconfig in ${dir}`);
  const host = ts.createCompilerHost(config.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    const format = typeof languageVersion === 'object' ? `${languageVersion.languageVersion}:${languageVersion.impliedNodeFormat}` : `${languageVersion}`;
    const key = `${format}:${fileName}`;
    let file = parsed.get(key);
    if (file === undefined) {
      file = getSourceFile(fileName, languageVersion, ...rest);
      if (file !== undefined && !fileName.startsWith(dir)) parsed.set(key, file);
    }
    return file;
  };
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, host });
  const own = program.getSourceFiles().filter((f) => f.fileName.startsWith(`${dir}/host.`) || f.fileName.includes(`/node_modules/${pkg.name}/`));
  const diagnostics = [
    ...config.errors,
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...own.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)]),
  ];
  return ts.formatDiagnostics(diagnostics, { ...host, getCanonicalFileName: (f) => f, getNewLine: () => '\n' }).split(`${dir}/`).join('');
}

describe('the packed package', () => {
  let base: string;
  let unpacked: string;
  let checkout: string;
  let files: string[];

  beforeAll(async () => {
    base = tempDir('xmldb-pack-');
    checkout = path.join(base, 'checkout');
    await copyCheckout(checkout);
    // `npm pack` runs `prepack`, which builds the copy's dist/ from the current sources.
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', base], { cwd: checkout, maxBuffer: 64 * 1024 * 1024 });
    const [report] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
    files = report.files.map((f) => f.path);
    await run('tar', ['-xzf', path.join(base, report.filename), '-C', base]);
    unpacked = path.join(base, 'package');
    for (const host of HOSTS) makeHost(base, unpacked, host);
  }, 120_000);

  afterAll(() => {
    if (base !== undefined) fs.rmSync(base, { recursive: true, force: true });
  });

  test('holds the built entry points, declarations and the command', () => {
    expect(files).toEqual(
      expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.mjs', 'dist/index.d.ts', 'dist/bin.js', 'dist/xquery/worker/thread.js']),
    );
    expect(files.filter((f) => !f.startsWith('dist/') && !['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE'].includes(f))).toEqual([]);
  });

  test("is packed from the copy's own build, not the checkout's dist/", () => {
    const built = (fs.readdirSync(path.join(checkout, 'dist'), { recursive: true }) as string[])
      .filter((f) => fs.statSync(path.join(checkout, 'dist', f)).isFile())
      .map((f) => `dist/${f.split(path.sep).join('/')}`);
    expect(files.filter((f) => f.startsWith('dist/')).sort()).toStrictEqual(built.sort());
  });

  test('its public declarations need no Express typings', () => {
    const reachable = new Set<string>();
    const visit = (file: string): void => {
      if (reachable.has(file)) return;
      reachable.add(file);
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
        // as TypeScript resolves it: the module's own declarations, else its folder's index
        const target = path.resolve(path.dirname(file), m[1].replace(/\.js$/, ''));
        visit(fs.existsSync(`${target}.d.ts`) ? `${target}.d.ts` : path.join(target, 'index.d.ts'));
      }
    };
    visit(path.join(unpacked, 'dist', 'index.d.ts'));
    const importing = [...reachable].filter((f) => /from 'express'|require\('express'\)/.test(fs.readFileSync(f, 'utf8')));
    expect(importing.map((f) => path.relative(unpacked, f))).toEqual([]);
  });

  test('compiles in strict TypeScript hosts: CommonJS and ESM, with and without esModuleInterop, Express 5, Express 4 and none', () => {
    const parsed = new Map<string, ts.SourceFile>();
    const results = HOSTS.map((host) => [host.name, compile(path.join(base, host.name), parsed)] as const);
    expect(Object.fromEntries(results)).toStrictEqual(Object.fromEntries(HOSTS.map((h) => [h.name, ''])));
  }, 120_000);

  test("ships the runtime library compiled, for the package's own library stylesheet and saxon-js", async () => {
    expect(files).toContain('dist/xquery/worker/runtime-library.sef.json');
    // the package as a host installed it (its dependencies beside it); its query workers look the
    // library's compile key up in the file (sef-disk-cache.ts)
    const dist = path.join(base, 'commonjs-interop', 'node_modules', pkg.name, 'dist', 'xquery');
    const script = `
      const { compileKey } = require(${JSON.stringify(path.join(dist, 'compile-key.js'))});
      const { libraryStylesheet } = require(${JSON.stringify(path.join(dist, 'language', 'translate', 'index.js'))});
      const { shippedSef } = require(${JSON.stringify(path.join(dist, 'worker', 'shipped-library.js'))});
      const { compileKept } = require(${JSON.stringify(path.join(dist, 'worker', 'sef-disk-cache.js'))});
      const sef = shippedSef(compileKey(libraryStylesheet()));
      // compileMs is 0 for a SEF read rather than compiled (compile.ts compiledFromText)
      console.log(typeof sef, JSON.parse(sef ?? '{}').N, compileKept(libraryStylesheet()).compileMs);`;
    const { stdout } = await run(process.execPath, ['-e', script], { cwd: path.join(base, 'commonjs-interop') });
    expect(stdout).toBe('string package 0\n');
  }, 60_000);

  test('loads as CommonJS and as an ES module, with the same exports', async () => {
    const dir = path.join(base, 'commonjs-interop');
    const esm = path.join(base, 'esm-interop');
    const names = "Object.keys(m).filter((k) => k !== 'default').sort().join(',')";
    const cjs = await run(process.execPath, ['-e', `const m = require('xmldb-rest'); console.log(${names}, typeof m.createRestRouter)`], { cwd: dir });
    const mjs = await run(process.execPath, ['--input-type=module', '-e', `import * as m from 'xmldb-rest'; console.log(${names}, typeof m.createRestRouter)`], { cwd: esm });
    expect(cjs.stdout).toMatch(/^(\w+,)*XmldbError,(\w+,)*createRestRouter(,\w+)* function\n$/);
    expect(mjs.stdout).toBe(cjs.stdout);
  }, 60_000);
});
