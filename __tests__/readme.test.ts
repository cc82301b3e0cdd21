/**
 * Every fenced code block of README.md runs here, so the README cannot drift from the package:
 * - `sh` blocks run in order in one bash session (variables carry over) against the standalone
 *   server started on a temporary data folder; each `curl` must succeed (`--fail-with-body`), and
 *   a block followed by an `output` block must print exactly that (times in ms aside);
 * - `ts` blocks are type-checked (strict, `exactOptionalPropertyTypes`) against the package's
 *   sources, and `ts` and `js` blocks run in a process of their own in a temporary folder, their
 *   `listen()` moved to a free port, and must answer as the README says;
 * - blocks tagged `not-run` must be the ones listed here.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { cheapHashesInChild } from './helpers/hash-cost';
import { startServerProcess, TS_LOADER } from './helpers/server-process';
import { tempDir } from './helpers/rest';

const ROOT = path.join(__dirname, '..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** Blocks not run, by their first line, and why. */
const NOT_RUN: Readonly<Record<string, string>> = {
  'npm install xmldb-rest express': 'installs from the registry',
  "xmldb-rest: Data folder '/srv/data' is in use by process 4711 on web-1, holding it since 2026-12-01T21:00:00.000Z; it cannot be opened twice. Stop that server first (check it on web-1 with: ps -p 4711). Nothing needs removing: the lock ends with its process, so a server that crashed or was killed never blocks a restart.":
    'a message, shown',
  'npm ci && npm start': 'builds and starts this repository',
  'npm ci && npm test': 'runs this repository\'s whole suite',
  'http/        requests and responses: parameters, POST bodies, status codes': 'a diagram',
  'server process, main thread': 'a diagram',
};

interface Block {
  readonly lang: string;
  readonly tags: readonly string[];
  readonly text: string;
  readonly line: number;
  output?: string;
}

function fencedBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*(.*)$/.exec(lines[i]);
    if (open === null) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]);
    if (i === lines.length) throw new Error(`README.md:${start + 1}: unclosed code block`);
    const block: Block = { lang: open[1], tags: open[2].split(/\s+/).filter(Boolean), text: body.join('\n'), line: start + 1 };
    if (block.tags.includes('output')) {
      const before = blocks[blocks.length - 1];
      if (before === undefined || before.lang !== 'sh' || before.output !== undefined) throw new Error(`README.md:${block.line}: an output block must follow a sh block`);
      before.output = block.text;
    } else blocks.push(block);
  }
  return blocks;
}

const blocks = fencedBlocks(README);
const run = blocks.filter((b) => !b.tags.includes('not-run'));
const shell = run.filter((b) => b.lang === 'sh');
const snippets = run.filter((b) => b.lang === 'ts' || b.lang === 'js');

/** Times in answers (`created in 4.2 ms`) vary; trailing spaces of table lines are not kept in Markdown. */
function normalised(text: string): string {
  return text
    .replace(/\d+(?:\.\d+)? ms\b/g, 'N ms')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n+$/, '');
}

test('every block runs, or is an output block, or is listed as not run', () => {
  expect(blocks.filter((b) => b.tags.includes('not-run')).map((b) => b.text.split('\n')[0])).toStrictEqual(Object.keys(NOT_RUN));
  expect(run.filter((b) => !['sh', 'ts', 'js'].includes(b.lang)).map((b) => `README.md:${b.line} ${b.lang}`)).toStrictEqual([]);
  expect(shell.length).toBeGreaterThan(15);
  expect(snippets.length).toBe(5);
});

/** A persistent bash session: each block's stdout up to a marker, and whether a curl of it failed. */
class Bash {
  private readonly child: ChildProcess;
  private buffered = '';
  private waiting?: () => void;

  constructor(cwd: string) {
    this.child = spawn('bash', ['--noprofile', '--norc'], { cwd, stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd } });
    this.child.stdout!.on('data', (chunk: Buffer) => {
      this.buffered += chunk.toString('utf8');
      this.waiting?.();
    });
    this.child.stderr!.on('data', (chunk: Buffer) => {
      this.buffered += chunk.toString('utf8').replace(/^/gm, '[stderr] ');
      this.waiting?.();
    });
    // curl fails on HTTP errors in the test (the README's lines stay plain), and says why
    this.child.stdin!.write('curl() { command curl -sS --fail-with-body "$@" || __failed=1; }\n');
  }

  async run(script: string): Promise<{ stdout: string; failed: boolean }> {
    this.buffered = '';
    this.child.stdin!.write(`__failed=0\n${script}\nprintf '\\n<<<END %s>>>\\n' "$__failed"\n`);
    const end = /\n<<<END (\d)>>>\n$/;
    while (!end.test(this.buffered)) await new Promise<void>((resolve) => (this.waiting = resolve));
    const match = end.exec(this.buffered)!;
    return { stdout: this.buffered.slice(0, match.index), failed: match[1] !== '0' };
  }

  close(): void {
    this.child.stdin!.end();
  }
}

describe('the sh blocks, against the standalone server', () => {
  const dir = tempDir('readme-');
  let server: Awaited<ReturnType<typeof startServerProcess>>;
  let bash: Bash;
  beforeAll(async () => {
    server = await startServerProcess({ XMLDB_PATH: path.join(dir, 'data'), XMLDB_RESTPATH: path.join(dir, 'restpath'), XMLDB_WORKERS: '1' });
    bash = new Bash(dir);
  }, 120_000);
  afterAll(async () => {
    bash?.close();
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test.each(shell.map((b) => [`README.md:${b.line}`, b] as const))('%s', async (_where, block) => {
    const origin = new URL(server.url).origin;
    const { stdout, failed } = await bash.run(block.text.replaceAll('http://127.0.0.1:8080', origin));
    expect({ failed, stderr: stdout.split('\n').filter((l) => l.startsWith('[stderr] ')) }).toStrictEqual({ failed: false, stderr: [] });
    if (block.output !== undefined) expect(normalised(stdout)).toBe(normalised(block.output));
  });
});

describe('the ts blocks type-check in strict TypeScript with exactOptionalPropertyTypes', () => {
  test('no diagnostics in any of them', () => {
    const dir = tempDir('readme-ts-');
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    const files = snippets.filter((b) => b.lang === 'ts').map((b, i) => {
      const file = path.join(dir, `snippet-${i}.ts`);
      fs.writeFileSync(file, `${b.text}\nexport {};\n`);
      return file;
    });
    const program = ts.createProgram(files, {
      strict: true,
      exactOptionalPropertyTypes: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Node10,
      esModuleInterop: true,
      skipLibCheck: true,
      types: ['node'],
      baseUrl: dir,
      paths: { 'xmldb-rest': [path.join(ROOT, 'lib', 'index.ts')] },
    });
    const problems = files.flatMap((file) =>
      [...program.getSyntacticDiagnostics(program.getSourceFile(file)), ...program.getSemanticDiagnostics(program.getSourceFile(file))].map(
        (d) => `${path.basename(file)}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
      ),
    );
    expect(problems).toStrictEqual([]);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 240_000);
});

/** Runs a snippet in a temporary folder; resolves with the port its `listen()` got. */
function startSnippet(block: Block, cwd: string): Promise<{ port: number; stop: () => Promise<void>; output: () => string }> {
  const file = path.join(cwd, `app.${block.lang}`);
  fs.writeFileSync(file, block.text);
  const bootstrap = `${TS_LOADER}
${cheapHashesInChild(ROOT)}
const packageEntry = ${JSON.stringify(path.join(ROOT, 'lib', 'index.ts'))};
const resolveNext = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return resolveNext.call(this, request === 'xmldb-rest' ? packageEntry : request, ...rest);
};
const http = require('http');
const listen = http.Server.prototype.listen;
http.Server.prototype.listen = function () {
  this.once('listening', () => console.log('SNIPPET LISTENING ' + this.address().port));
  return listen.call(this, 0, '127.0.0.1');
};
require(${JSON.stringify(file)});
`;
  // the snippets read XMLDB_PATH and XMLDB_ADMIN_PASSWORD: unset, as on a developer's machine
  const { XMLDB_PATH: _path, XMLDB_ADMIN_PASSWORD: _password, ...env } = process.env;
  const child = spawn(process.execPath, ['-e', bootstrap], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env });
  let text = '';
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const match = /SNIPPET LISTENING (\d+)/.exec(text);
      if (match) {
        resolve({
          port: Number(match[1]),
          output: () => text,
          stop: async () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            await ended;
          },
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void ended.then(() => reject(new Error(`README.md:${block.line}: the snippet ended before listening:\n${text}`)));
  });
}

describe('the ts and js blocks run', () => {
  test.each(snippets.map((b) => [`README.md:${b.line} (${b.lang})`, b] as const))('%s: serves /rest on a new data folder', async (_where, block) => {
    const dir = tempDir('readme-app-');
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    const app = await startSnippet(block, dir);
    try {
      const base = `http://127.0.0.1:${app.port}`;
      // the first request opens the data folder where the snippet did not call ready()
      const anonymous = await fetch(`${base}/rest`);
      expect([anonymous.status, await anonymous.text()]).toEqual([401, 'Basic authentication expected.']);
      const password = fs.readFileSync(path.join(dir, 'data', 'admin-password.txt'), 'utf8').trim();
      const auth = { Authorization: `Basic ${Buffer.from(`admin:${password}`).toString('base64')}` };
      const list = await fetch(`${base}/rest`, { headers: auth });
      expect(list.status).toBe(200);
      expect(await list.text()).toMatch(/^<databases xmlns="http:\/\/basex.org\/rest"/);
      if (block.text.includes("app.get('/titles'")) {
        const titles = await fetch(`${base}/titles?since=1960`);
        expect([titles.status, await titles.text()]).toEqual([200, 'Dune']);
      }
      if (block.text.includes('createOpsRouter(rest')) {
        const health = await fetch(`${base}/healthz`);
        expect([health.status, await health.text()]).toEqual([200, '{"status":"ok"}']);
      }
      if (block.text.includes('corsOptions(ui)')) {
        const preflight = await fetch(`${base}/rest/db`, {
          method: 'OPTIONS',
          headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'QUERY' },
        });
        expect([preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([204, 'http://localhost:5173']);
        const malformed = await fetch(`${base}/rest/db/a.json`, { method: 'PUT', headers: { ...auth, 'Content-Type': 'application/json' }, body: '{"a":' });
        expect(malformed.status).toBe(400);
        expect(await malformed.text()).toMatch(/^The request body was refused by a body parser of the host application: the body is not valid JSON/);
      }
    } finally {
      await app.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
