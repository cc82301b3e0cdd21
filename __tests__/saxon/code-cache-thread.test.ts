/**
 * The code cache compiled in a short-lived thread (lib/saxon/code-cache-thread.ts), and the main
 * thread loading saxon-js from it (lib/saxon/load.ts) when Node's own loader runs it (a child
 * process: jest's module registry is not Node's, see code-cache.ts).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import { isSharedArrayBuffer } from 'node:util/types';
import { Script } from 'node:vm';
import { codeCacheFromThread } from '../../lib/saxon/code-cache-thread';
import { sourceLoader } from '../../lib/threads/launch';
import { tempDir } from '../helpers/temp-dir';

let dir: string;

beforeEach(() => {
  dir = tempDir('xmldb-code-cache-thread-');
});

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a code cache compiled in a thread of its own', () => {
  it('is a SharedArrayBuffer that V8 accepts for the script as the module loader wraps it', () => {
    const file = path.join(dir, 'a.js');
    fs.writeFileSync(file, 'module.exports = function answer() { return 42; };\n');
    const shared = codeCacheFromThread(file);
    expect(isSharedArrayBuffer(shared)).toBe(true);
    const script = new Script(Module.wrap(fs.readFileSync(file, 'utf8')), { filename: file, cachedData: new Uint8Array(shared!) });
    expect(script.cachedDataRejected).toBe(false);
  });

  it('is not there for a file that cannot be read or compiled', () => {
    expect(codeCacheFromThread(path.join(dir, 'missing.js'))).toBeUndefined();
    const broken = path.join(dir, 'broken.js');
    fs.writeFileSync(broken, 'module.exports = (;\n');
    expect(codeCacheFromThread(broken)).toBeUndefined();
  });
});

describe('saxon-js in the main thread under Node\'s module loader', () => {
  it("is loaded from the published cache with the source patches, and kept apart from the application's own require of saxon-js, which gets it as shipped", () => {
    const root = path.join(__dirname, '..', '..');
    // lib/ from source in a plain Node process, through the source-mode loader (threads/launch.ts).
    const program = `${sourceLoader()}
      const { loadSaxon } = require(${JSON.stringify(path.join(root, 'lib/saxon/load.ts'))});
      const { codeCacheOutcome } = require(${JSON.stringify(path.join(root, 'lib/saxon/code-cache.ts'))});
      const saxon = loadSaxon();
      const file = require.resolve('saxon-js', { paths: [${JSON.stringify(root)}] });
      const deep = '<a>'.repeat(3000) + '</a>'.repeat(3000);
      const depth = (s) => { try { return s.XPath.evaluate('count(//a)', s.getPlatform().parseXmlFromString(deep)); } catch (e) { return e.message; } };
      const own = require(file);
      process.stdout.write(JSON.stringify({ outcome: codeCacheOutcome(file), same: own === saxon, again: loadSaxon() === saxon,
        sum: saxon.XPath.evaluate('sum((1, 2, 3))', null), patched: depth(saxon), shipped: depth(own) }));
    `;
    const out = execFileSync(process.execPath, ['-e', program], { cwd: root, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ outcome: 'accepted', same: false, again: true, sum: 6, patched: 'Elements are nested deeper than 2048 levels.', shipped: 3000 });
  });
});
