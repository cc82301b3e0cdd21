/**
 * QT3 figures for the FLWOR clause sets, through engine.evaluate and the shared runner
 * (the engine harness's endpoint, with reports of its own so runs do not overwrite the
 * engine-wide ones). Skipped unless QT3=1:
 *   QT3=1 npx jest __tests__/xquery/translate/flwor-advanced-qt3
 * Optional: QT3_SETS (a regex, default the FLWOR clause sets), QT3_VERBOSE=1.
 * Writes /tmp/flwor-qt3-report.md and /tmp/flwor-qt3-results.json.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createEngine } from '../../../lib/xquery/engine';
import { serveEngine } from '../engine/qt3-harness';

const SETS = '^prod-(OrderByClause|GroupByClause|CountClause|WindowClause|ForClause|LetClause|WhereClause)$';
const run = process.env.QT3 === '1' ? it : it.skip;

describe('QT3 FLWOR clause sets through the engine', () => {
  run(
    'prints per-set pass counts',
    async () => {
      const engine = createEngine({ workers: 2, timeoutMs: 8000 });
      const server = await serveEngine(engine);
      try {
        const args = [
          '/work/shared/tools/qt3/qt3.mjs', '--target', 'rest', '--url', server.url, '--jobs', '2',
          '--report', '/tmp/flwor-qt3-report.md', '--json', '/tmp/flwor-qt3-results.json',
          '--sets', process.env.QT3_SETS ?? SETS,
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
