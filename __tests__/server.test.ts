import fs from 'node:fs';
import path from 'node:path';
import { openApiDocument } from '../lib';
import { parseCommandLine, UsageError } from '../lib/command-line';
import { consoleEnabled, main, startServer } from '../lib/server';
import { ensureConsoleBuilt } from './helpers/console-build';
import { thrown } from './helpers/failure';
import { tempDir } from './helpers/rest';

describe('standalone server command line', () => {
  const serve = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
    const command = parseCommandLine(argv, env);
    if (command.action !== 'serve') throw new Error(`not serving: ${command.action}`);
    return command.settings;
  };
  const usageError = (argv: string[], env: NodeJS.ProcessEnv = {}) => thrown(() => parseCommandLine(argv, env), UsageError).message;

  test('defaults', () => {
    expect(serve([])).toStrictEqual({
      port: 8080,
      host: '127.0.0.1',
      dbPath: './data',
      restPath: './restpath',
      adminPassword: undefined,
      storeUrl: undefined,
      logFormat: 'text',
      queryTimeout: undefined,
      workers: undefined,
      maxBodySize: undefined,
      console: undefined,
    });
  });

  test('environment variables, then flags (both forms) win', () => {
    const env = { PORT: '9000', HOST: '0.0.0.0', XMLDB_PATH: '/d', XMLDB_RESTPATH: '/r', XMLDB_ADMIN_PASSWORD: 'pw' };
    expect(serve([], env)).toStrictEqual({
      port: 9000,
      host: '0.0.0.0',
      dbPath: '/d',
      restPath: '/r',
      adminPassword: 'pw',
      storeUrl: undefined,
      logFormat: 'text',
      queryTimeout: undefined,
      workers: undefined,
      maxBodySize: undefined,
      console: undefined,
    });
    expect(serve([], { XMLDB_STORE_URL: 'postgres://u:p@db:5432/x' }).storeUrl).toBe('postgres://u:p@db:5432/x');
    expect(serve(['--store-url', 'postgres://h/y'], { XMLDB_STORE_URL: 'postgres://u:p@db:5432/x' }).storeUrl).toBe('postgres://h/y');
    expect(serve(['--log-format', 'json'], env).logFormat).toBe('json');
    expect(serve([], { XMLDB_LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(serve(['--port', '1234', '--db-path=/x', '--admin-password', 'other'], env)).toMatchObject({
      port: 1234,
      dbPath: '/x',
      adminPassword: 'other',
    });
    expect(serve(['--admin-password=-starts-with-a-dash'])).toMatchObject({ adminPassword: '-starts-with-a-dash' });
    expect(serve([], { PORT: '' })).toMatchObject({ port: 8080 });
  });

  test('the query time limit in seconds, workers and the PUT body limit in MiB, as router options', () => {
    const env = { XMLDB_TIMEOUT: '5', XMLDB_WORKERS: '3', XMLDB_MAX_BODY_SIZE: '100' };
    expect(serve([], env)).toMatchObject({ queryTimeout: 5000, workers: 3, maxBodySize: 100 * 1024 * 1024 });
    expect(serve(['--timeout', '1', '--workers=1', '--max-body-size', '1'], env)).toMatchObject({ queryTimeout: 1000, workers: 1, maxBodySize: 1024 * 1024 });
    expect(serve(['--timeout=1000000'])).toMatchObject({ queryTimeout: 1_000_000_000 });
    expect(serve([], { XMLDB_TIMEOUT: '', XMLDB_WORKERS: '' })).toMatchObject({ queryTimeout: undefined, workers: undefined });
  });

  test('unknown flags, missing values, stray arguments and bad ports are refused', () => {
    expect(usageError(['--nope'])).toBe("unknown option '--nope'");
    expect(usageError(['-x'])).toBe("unknown option '-x'");
    expect(usageError(['--port'])).toBe("option '--port' needs a value (--port N or --port=N)");
    expect(usageError(['--port', '--host', 'h'])).toBe("option '--port' needs a value (--port N or --port=N)");
    expect(usageError(['serve'])).toBe("unexpected argument 'serve'");
    expect(usageError(['--help=yes'])).toBe("option '--help' takes no value");
    expect(usageError(['--port', 'abc'])).toBe("invalid --port 'abc': expected an integer from 0 to 65535");
    expect(usageError(['--port', '99999'])).toBe("invalid --port '99999': expected an integer from 0 to 65535");
    expect(usageError(['--port=-1'])).toBe("invalid --port '-1': expected an integer from 0 to 65535");
    expect(usageError(['--port=8080.5'])).toBe("invalid --port '8080.5': expected an integer from 0 to 65535");
    expect(usageError([], { PORT: 'abc' })).toBe("invalid PORT 'abc': expected an integer from 0 to 65535");
    expect(usageError(['--db-path='])).toBe("invalid --db-path '': expected a value");
    expect(usageError(['--log-format=xml'])).toBe("invalid --log-format 'xml': expected text or json");
    expect(usageError([], { XMLDB_LOG_FORMAT: 'xml' })).toBe("invalid XMLDB_LOG_FORMAT 'xml': expected text or json");
  });

  test('bad time limits, worker counts and body limits are refused, naming the flag or variable', () => {
    const timeout = 'expected an integer from 1 to 1000000';
    expect(usageError(['--timeout', '0'])).toBe(`invalid --timeout '0': ${timeout}`);
    expect(usageError(['--timeout', '1.5'])).toBe(`invalid --timeout '1.5': ${timeout}`);
    expect(usageError(['--timeout=30s'])).toBe(`invalid --timeout '30s': ${timeout}`);
    expect(usageError(['--timeout', '1000001'])).toBe(`invalid --timeout '1000001': ${timeout}`);
    expect(usageError(['--timeout'])).toBe("option '--timeout' needs a value (--timeout SECONDS or --timeout=SECONDS)");
    expect(usageError([], { XMLDB_TIMEOUT: '-1' })).toBe(`invalid XMLDB_TIMEOUT '-1': ${timeout}`);
    expect(usageError(['--workers', '0'])).toBe("invalid --workers '0': expected an integer of at least 1");
    expect(usageError(['--workers=two'])).toBe("invalid --workers 'two': expected an integer of at least 1");
    expect(usageError([], { XMLDB_WORKERS: '1e3' })).toBe("invalid XMLDB_WORKERS '1e3': expected an integer of at least 1");
    expect(usageError(['--max-body-size', '0'])).toBe("invalid --max-body-size '0': expected an integer of at least 1");
    expect(usageError([], { XMLDB_MAX_BODY_SIZE: '0.5' })).toBe("invalid XMLDB_MAX_BODY_SIZE '0.5': expected an integer of at least 1");
    // more MiB than a byte count holds exactly
    expect(usageError(['--max-body-size', '9000000000'])).toBe("invalid --max-body-size '9000000000': expected an integer of at least 1");
    // the flag wins over a bad variable, which is then never read
    expect(serve(['--timeout', '2'], { XMLDB_TIMEOUT: 'x' }).queryTimeout).toBe(2000);
  });

  test('--console on|off, or XMLDB_CONSOLE; unset, the server decides by its host', () => {
    expect(serve(['--console', 'off']).console).toBe('off');
    expect(serve([], { XMLDB_CONSOLE: 'on' }).console).toBe('on');
    expect(serve(['--console=off'], { XMLDB_CONSOLE: 'on' }).console).toBe('off');
    expect(usageError(['--console', 'yes'])).toBe("invalid --console 'yes': expected on or off");
    expect(usageError([], { XMLDB_CONSOLE: '1' })).toBe("invalid XMLDB_CONSOLE '1': expected on or off");
  });

  test('--help and --version', () => {
    expect(parseCommandLine(['--help'], {})).toStrictEqual({ action: 'help' });
    expect(parseCommandLine(['--port', '1', '-h'], { PORT: 'abc' })).toStrictEqual({ action: 'help' });
    expect(parseCommandLine(['--version'], {})).toStrictEqual({ action: 'version' });
    expect(parseCommandLine(['-v'], {})).toStrictEqual({ action: 'version' });
  });
});

describe('the xmldb-rest command', () => {
  const run = async (argv: string[], env: NodeJS.ProcessEnv = {}) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(argv, env, { log: (m) => out.push(m), error: (m) => err.push(m) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  test('--help lists every flag with its environment variable, and exits 0', async () => {
    const { code, out, err } = await run(['--help']);
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out).toMatch(/^Usage: xmldb-rest \[options\]\n/);
    for (const [flag, env] of [
      ['--port N', 'PORT'],
      ['--host HOST', 'HOST'],
      ['--db-path DIR', 'XMLDB_PATH'],
      ['--restpath DIR', 'XMLDB_RESTPATH'],
      ['--admin-password PW', 'XMLDB_ADMIN_PASSWORD'],
      ['--log-format text\\|json', 'XMLDB_LOG_FORMAT'],
      ['--timeout SECONDS', 'XMLDB_TIMEOUT'],
      ['--workers N', 'XMLDB_WORKERS'],
      ['--max-body-size MIB', 'XMLDB_MAX_BODY_SIZE'],
      ['--console on\\|off', 'XMLDB_CONSOLE'],
    ]) {
      expect(out).toMatch(new RegExp(`^  ${flag} +.*; env ${env}\\b`, 'm'));
    }
    // the defaults a setting leaves to the router are the router's
    expect(out).toMatch(/^  --timeout SECONDS +time limit of a query \(twice it: of a wait for database locks\); env XMLDB_TIMEOUT; default 30$/m);
    expect(out).toMatch(/^  --workers N +query worker threads; env XMLDB_WORKERS; default one per core$/m);
    expect(out).toMatch(/^  --max-body-size MIB +largest PUT body in MiB \(larger: 413\); env XMLDB_MAX_BODY_SIZE; default 64$/m);
    expect(out).toMatch(/^  -h, --help +print this text and exit$/m);
    expect(out).toMatch(/^  -v, --version +print the version and exit$/m);
  });

  test('--version prints the package version and exits 0', async () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string };
    expect(await run(['--version'])).toStrictEqual({ code: 0, out: pkg.version, err: '' });
  });

  test('a usage error names the problem and exits 2', async () => {
    expect(await run(['--port', 'abc'])).toStrictEqual({
      code: 2,
      out: '',
      err: "xmldb-rest: invalid --port 'abc': expected an integer from 0 to 65535\nTry 'xmldb-rest --help' for the options.",
    });
    expect(await run(['--nope'])).toStrictEqual({
      code: 2,
      out: '',
      err: "xmldb-rest: unknown option '--nope'\nTry 'xmldb-rest --help' for the options.",
    });
  });
});

describe('standalone server', () => {
  test('serves /rest, creates admin on a new data folder with the given password, stops cleanly', async () => {
    const dir = tempDir();
    const logs: string[] = [];
    const running = await startServer(
      { port: 0, host: '127.0.0.1', dbPath: path.join(dir, 'data'), restPath: path.join(dir, 'rp'), adminPassword: 'secret' },
      (m) => logs.push(m),
    );
    try {
      expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/rest$/);
      const auth = `Basic ${Buffer.from('admin:secret').toString('base64')}`;
      const put = await fetch(`${running.url}/db`, { method: 'PUT', headers: { Authorization: auth, 'Content-Type': 'application/xml' }, body: '<a/>' });
      expect(put.status).toBe(201);
      const get = await fetch(`${running.url}/db/db.xml`, { headers: { Authorization: auth } });
      expect(await get.text()).toBe('<a/>');
      expect(get.headers.get('x-powered-by')).toBeNull();
      const failing = await fetch(`${running.url}?query=${encodeURIComponent('1 div 0')}`, { headers: { Authorization: auth } });
      expect(failing.status).toBe(500);
      expect(failing.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
      expect(await failing.text()).toBe('Stopped at ., 1/1:\n[FOAR0001] Division by zero');
      const outside = await fetch(running.url.replace(/\/rest$/, '/other?x=1'), { headers: { Authorization: auth } });
      expect(outside.status).toBe(404);
      expect(await outside.text()).toBe('No such path: GET /other');
      // mounted as Express's use('/rest') mounts: the prefix in any case, then '/' or the query
      const base = running.url.replace(/\/rest$/, '');
      const at = async (p: string) => {
        const r = await fetch(`${base}${p}`, { headers: { Authorization: auth } });
        return `${r.status} ${await r.text()}`;
      };
      expect(await at('/rest?query=1%2B1')).toBe('200 2');
      expect(await at('/REST/db/db.xml')).toBe('200 <a/>');
      expect(await at('/rest/?query=3')).toBe('200 3');
      expect(await at('/restx?query=1')).toBe('404 No such path: GET /restx');
      expect(logs).toStrictEqual([]); // a chosen password is not printed
    } finally {
      await running.stop();
    }
    expect(fs.existsSync(path.join(dir, 'data', 'users.json'))).toBe(true);
  });

  test('without a password, a strong random one is generated into a 0600 file the log names; the data folder is 0700', async () => {
    const dir = tempDir();
    const logs: string[] = [];
    const dbPath = path.join(dir, 'data');
    const settings = { port: 0, host: '127.0.0.1', dbPath, restPath: path.join(dir, 'rp') };
    const first = await startServer(settings, (m) => logs.push(m));
    await first.stop();
    const file = path.join(dbPath, 'admin-password.txt');
    expect(logs).toStrictEqual([
      `xmldb-rest: created user admin; its password is in ${file} (readable by this user only; set the adminPassword option or XMLDB_ADMIN_PASSWORD to choose it)`,
      'xmldb-rest stopped',
    ]);
    const password = fs.readFileSync(file, 'utf8').trim();
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(logs[0]).not.toContain(password);
    if (process.platform !== 'win32') {
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.join(dbPath, 'users.json')).mode & 0o777).toBe(0o600);
      expect(fs.statSync(dbPath).mode & 0o777).toBe(0o700);
    }
    const second = await startServer(settings, (m) => logs.push(m));
    try {
      expect(logs).toHaveLength(2); // the data folder has users now: nothing new is written
      const auth = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
      expect((await fetch(second.url, { headers: { Authorization: auth } })).status).toBe(200);
      const outside = await fetch(second.url.replace(/\/rest$/, '/other'));
      expect(outside.headers.get('x-content-type-options')).toBe('nosniff');
    } finally {
      await second.stop();
    }
  });
});

describe('the web console of the standalone server', () => {
  test('on by default on a loopback host, off by default elsewhere; --console decides when given', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1']) expect(consoleEnabled({ host })).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.0.2.1', 'db.example']) expect(consoleEnabled({ host })).toBe(false);
    expect(consoleEnabled({ host: '127.0.0.1', console: 'off' })).toBe(false);
    expect(consoleEnabled({ host: '0.0.0.0', console: 'on' })).toBe(true);
  });

  test('served at /console beside /rest, and not at all with --console off', async () => {
    await ensureConsoleBuilt();
    const dir = tempDir();
    const settings = { port: 0, host: '127.0.0.1', dbPath: path.join(dir, 'data'), restPath: path.join(dir, 'rp'), adminPassword: 'secret' };
    const logs: string[] = [];
    const on = await startServer(settings, (m) => logs.push(m));
    try {
      const base = on.url.replace(/\/rest$/, '');
      expect(on.consoleUrl).toBe(`${base}/console/`);
      const page = await fetch(`${base}/console/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'self'; script-src 'self';/);
      const moved = await fetch(`${base}/console`, { redirect: 'manual' });
      expect([moved.status, moved.headers.get('location')]).toEqual([308, '/console/']);
      const auth = `Basic ${Buffer.from('admin:secret').toString('base64')}`;
      const listing = await fetch(`${base}/console/rest`, { headers: { Authorization: auth } });
      expect(await listing.text()).toBe('<databases xmlns="http://basex.org/rest"/>');
    } finally {
      await on.stop();
    }
    const off = await startServer({ ...settings, console: 'off' }, () => undefined);
    try {
      expect(off.consoleUrl).toBeUndefined();
      const page = await fetch(`${off.url.replace(/\/rest$/, '')}/console/`);
      expect([page.status, await page.text()]).toEqual([404, 'No such path: GET /console/']);
    } finally {
      await off.stop();
    }
  });
});

describe('router options from the command line', () => {
  test('--timeout: a query over the limit stops with BaseX\'s timeout error, one under it answers; --max-body-size bounds PUT bodies', async () => {
    const dir = tempDir();
    const argv = ['--port', '0', '--db-path', path.join(dir, 'data'), '--restpath', path.join(dir, 'rp'), '--admin-password', 'pw'];
    const command = parseCommandLine([...argv, '--timeout', '2', '--workers', '1', '--max-body-size', '1'], {});
    if (command.action !== 'serve') throw new Error(command.action);
    const running = await startServer(command.settings, () => undefined);
    const auth = `Basic ${Buffer.from('admin:pw').toString('base64')}`;
    const query = async (q: string) => {
      const r = await fetch(`${running.url}?query=${encodeURIComponent(q)}`, { headers: { Authorization: auth } });
      return `${r.status} ${await r.text()}`;
    };
    const put = async (body: string) => {
      const r = await fetch(`${running.url}/db/doc.xml`, { method: 'PUT', headers: { Authorization: auth, 'Content-Type': 'application/xml' }, body });
      return `${r.status} ${await r.text()}`;
    };
    try {
      expect(await query('1 + 1')).toBe('200 2'); // the worker is started
      expect(await query("prof:sleep(200), 'under the limit'")).toBe('200 under the limit');
      // without the flag the limit would be 30 s: past the test's own time limit
      // it sleeps past the limit: stopped as one that computes as long, without taking a core meanwhile
      expect(await query('prof:sleep(100000)')).toBe('500 [BASX0003] Timeout exceeded (2000 ms).');
      expect(await query('3 * 3')).toBe('200 9'); // the stopped worker was replaced
      expect((await fetch(`${running.url}/db`, { method: 'PUT', headers: { Authorization: auth } })).status).toBe(201);
      const mib = 1024 * 1024;
      expect(await put(`<a>${'x'.repeat(mib - 7)}</a>`)).toMatch(/^201 /);
      expect(await put(`<a>${'x'.repeat(mib - 6)}</a>`)).toBe(`413 Request body too large: at most ${mib} bytes are accepted; the router option maxBodySize raises the limit (standalone server: --max-body-size or XMLDB_MAX_BODY_SIZE, in MiB).`);
    } finally {
      await running.stop();
    }
  });

  test('--timeout at its largest (1,000,000 s): queries and writes are answered', async () => {
    const dir = tempDir();
    const command = parseCommandLine(['--port', '0', '--db-path', path.join(dir, 'data'), '--restpath', path.join(dir, 'rp'), '--admin-password', 'pw', '--timeout', '1000000'], {});
    if (command.action !== 'serve') throw new Error(command.action);
    const running = await startServer(command.settings, () => undefined);
    const auth = `Basic ${Buffer.from('admin:pw').toString('base64')}`;
    try {
      // Node fires a timer of more than 2^31 - 1 ms after 1 ms: a limit past it failed every query at once.
      const r = await fetch(`${running.url}?query=${encodeURIComponent("prof:sleep(50), 'answered'")}`, { headers: { Authorization: auth } });
      expect(`${r.status} ${await r.text()}`).toBe('200 answered');
      expect((await fetch(`${running.url}/db`, { method: 'PUT', headers: { Authorization: auth } })).status).toBe(201);
    } finally {
      await running.stop();
    }
  });
});

describe('graceful stop', () => {
  test('a write in flight when the stop begins is finished and stored, and its connection closed (the stop waits for no keep-alive timeout)', async () => {
    const http = await import('node:http');
    const dir = tempDir();
    const running = await startServer({ port: 0, host: '127.0.0.1', dbPath: path.join(dir, 'data'), restPath: path.join(dir, 'rp'), adminPassword: 'pw' }, () => undefined);
    const url = new URL(running.url);
    const auth = `Basic ${Buffer.from('admin:pw').toString('base64')}`;
    expect((await fetch(`${running.url}/db`, { method: 'PUT', headers: { Authorization: auth } })).status).toBe(201);
    const body = `<a>${'x'.repeat(200_000)}</a>`;
    const agent = new http.Agent({ keepAlive: true });
    const { status, connection } = await new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
      const req = http.request(
        { host: url.hostname, port: url.port, path: '/rest/db/big.xml', method: 'PUT', agent, headers: { Authorization: auth, 'Content-Type': 'application/xml', 'Content-Length': Buffer.byteLength(body) } },
        (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, connection: res.headers.connection });
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 1000));
      // The request is in flight: stop the server, then send the rest of the body.
      setTimeout(() => {
        void running.stop();
        setTimeout(() => req.end(body.slice(1000)), 50);
      }, 50);
    });
    await running.stop();
    agent.destroy();
    expect(status).toBe(201);
    expect(connection).toBe('close');
    expect(fs.readFileSync(path.join(dir, 'data', 'db', 'big.xml'), 'utf8')).toBe(body);
  });
});

describe('standalone endpoints and logs', () => {
  const auth = `Basic ${Buffer.from('admin:pw').toString('base64')}`;

  test('GET /healthz without authentication: 200 while the store and workers answer, 503 once closed', async () => {
    const dir = tempDir();
    const running = await startServer({ port: 0, host: '127.0.0.1', dbPath: path.join(dir, 'data'), restPath: path.join(dir, 'rp'), adminPassword: 'pw' }, () => undefined);
    const base = running.url.replace(/\/rest$/, '');
    try {
      const ok = await fetch(`${base}/healthz`);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toBe('application/json; charset=UTF-8');
      expect(await ok.text()).toBe('{"status":"ok"}');
      await running.router.close();
      const down = await fetch(`${base}/healthz`);
      expect(down.status).toBe(503);
      expect(await down.text()).toBe('{"status":"unavailable"}');
    } finally {
      await running.stop();
    }
  });

  test('GET /openapi.json without authentication: the document of /rest', async () => {
    const dir = tempDir();
    const running = await startServer({ port: 0, host: '127.0.0.1', dbPath: path.join(dir, 'data'), restPath: path.join(dir, 'rp'), adminPassword: 'pw' }, () => undefined);
    try {
      const r = await fetch(running.url.replace(/\/rest$/, '/openapi.json'));
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('application/json; charset=UTF-8');
      expect(await r.json()).toEqual(openApiDocument({ serverUrl: '/rest' }));
      const head = await fetch(running.url.replace(/\/rest$/, '/openapi.json'), { method: 'POST' });
      expect(head.status).toBe(404);
    } finally {
      await running.stop();
    }
  });

  test('--log-format json: pino JSON lines, an access record per request, a line at shutdown', async () => {
    const dir = tempDir();
    const lines: string[] = [];
    const running = await startServer(
      { port: 0, host: '127.0.0.1', dbPath: path.join(dir, 'data'), restPath: path.join(dir, 'rp'), adminPassword: 'pw', logFormat: 'json' },
      (line) => lines.push(line),
    );
    await fetch(`${running.url}/db`, { method: 'PUT', headers: { Authorization: auth } });
    await fetch(`${running.url}?query=${encodeURIComponent('1 to 3')}`, { headers: { Authorization: auth } });
    await fetch(`${running.url}/db`, { method: 'HEAD', headers: { Authorization: auth } });
    await fetch(running.url);
    await running.stop();
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const access = records.filter((r) => r.msg === 'request');
    expect(access.map(({ method, path: p, status, bytes, user }) => ({ method, path: p, status, bytes, user }))).toStrictEqual([
      { method: 'PUT', path: '/rest/db', status: 201, bytes: expect.any(Number), user: 'admin' },
      { method: 'GET', path: '/rest', status: 200, bytes: 5, user: 'admin' },
      { method: 'HEAD', path: '/rest/db', status: 200, bytes: 0, user: 'admin' },
      { method: 'GET', path: '/rest', status: 401, bytes: 30, user: undefined },
    ]);
    for (const r of access) {
      expect(typeof r.ms).toBe('number');
      expect(r.level).toBe(30);
      expect(typeof r.time).toBe('number');
    }
    expect(records[records.length - 1]).toMatchObject({ level: 30, msg: 'xmldb-rest stopped' });
  });
});
