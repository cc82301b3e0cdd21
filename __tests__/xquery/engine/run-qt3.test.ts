/**
 * QT3 figures for the public test sets, through engine.evaluate and the shared runner.
 * Skipped unless QT3=1:   QT3=1 npx jest __tests__/xquery/engine/run-qt3.test.ts
 * Optional: QT3_SETS='^prod-IfExpr$' (a regex instead of the public sets file), QT3_VERBOSE=1.
 * Writes the report to /tmp/qt3-engine-report.md and prints the per-set table.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createEngine } from '../../../lib/xquery/engine/engine';
import { describeWithShared, SHARED } from '../../helpers/shared-data';
import { serveEngine } from './qt3-harness';

const run = process.env.QT3 === '1' ? it : it.skip;

describeWithShared('QT3 (public sets) through the engine', ['tools/qt3/qt3.mjs', 'tools/qt3/public-sets.txt'], () => {
  run(
    'prints per-set pass counts',
    async () => {
      const engine = createEngine({ workers: 2, timeoutMs: 8000 });
      const server = await serveEngine(engine);
      try {
        const args = [
          path.join(SHARED, 'tools/qt3/qt3.mjs'), '--target', 'rest', '--url', server.url, '--jobs', '2',
          '--report', '/tmp/qt3-engine-report.md', '--json', '/tmp/qt3-engine-results.json',
          ...(process.env.QT3_SETS ? ['--sets', process.env.QT3_SETS] : ['--sets-file', path.join(SHARED, 'tools/qt3/public-sets.txt')]),
          ...(process.env.QT3_VERBOSE ? ['--verbose'] : []),
        ];
        const out = await new Promise<string>((resolve, reject) => {
          const p = spawn(process.execPath, args, { cwd: path.join(__dirname, '../../..') });
          let text = '';
          p.stdout.on('data', (d: Buffer) => (text += d.toString()));
          p.stderr.on('data', (d: Buffer) => process.env.QT3_VERBOSE && process.stderr.write(d));
          p.on('error', reject);
          p.on('close', () => resolve(text));
        });
        console.log(out);
        expect(out).toMatch(/\d+ passed, \d+ failed, \d+ skipped/);
      } finally {
        await server.stop();
        await engine.close();
      }
    },
    1_800_000,
  );
});
